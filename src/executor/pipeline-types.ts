/**
 * What the pipeline takes: its executor's parts, and the options of one call.
 */
import type { ErrorInfo } from '../contract/index.js';
import type { MemoryPolicy } from '../effects/index.js';
import type { Store } from '../store/types.js';
import type { RunAuthority } from '../trust/index.js';
import type { AuditSink } from './audit-sink.js';
import type { Stages } from './stages.js';
import type { LeaseConfig } from './write-lease.js';

/** What the pipeline needs from its executor. */
export interface PipelineDeps {
  readonly store: Store;
  readonly now: () => number;
  readonly stages: Stages;
  /** User stages may rewrite or mutate data in place, so their output is always re-digested. */
  readonly customDataStages: boolean;
  readonly maxAttempts: number;
  readonly memoryPolicy?: MemoryPolicy | undefined;
  readonly audit: AuditSink;
  /** Leases on write entries (executors sharing one store); unset, entries carry no lease. */
  readonly lease?: LeaseConfig | undefined;
  /** Benchmark hook: called at the end of each segment of a call, with its name. */
  readonly lap?: ((segment: PipelineSegment) => void) | undefined;
}

/** The segments of one call, in order, as the `lap` hook names them. */
export type PipelineSegment = 'prepare' | 'args' | 'policy' | 'invoke' | 'classify' | 'visibility' | 'budget' | 'evidence' | 'trust' | 'present' | 'finalize' | 'audit-record' | 'audit-sink';


/** Per-call options of {@link runPipeline}. */
export interface RunOptions {
  /** Cancels the call; a write already sent then ends `unknown`, never `failed`. */
  readonly signal?: AbortSignal;
  /** Where the call came in (gateway session, upstream, transport; framework): kept in the audit record. */
  readonly edge?: Readonly<Record<string, unknown>>;
  /** @internal callAll could not run this call (cancelled, dependency failed). */
  readonly refused?: ErrorInfo;
  /**
   * The run (task, session) this call belongs to: its scope holds calls outside it, and its
   * record of untrusted content holds writes and high-risk calls with tainted arguments until
   * a human confirms them (`executor.startRun()`, docs/executor.md "Runs").
   */
  readonly run?: RunAuthority;
  /** A confirmation token the user's side of the client gave for this exact call (edges). */
  readonly confirmation?: string;
  /**
   * W3C trace context carriers (`{ traceparent, tracestate }`) of related work, recorded as
   * links of the call's span (the gateway passes its MCP client's `_meta`).
   */
  readonly traceLinks?: readonly Record<string, unknown>[];
}
