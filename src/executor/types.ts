/**
 * The executor's public types. L1: a tool's return value ({@link ToolOutput}), the envelope
 * (`Envelope`), what the model reads ({@link ModelContext}) and what is written back
 * ({@link WriteBack}) are four distinct types.
 */
import type { Completeness, Conflict, Envelope, Evidence, MemoryCandidate, StatePatch, Warning } from '../contract/index.js';
import type { Budget } from '../budget/index.js';
import type { ReconcileLookup } from '../effects/index.js';

/** The authenticated subject of a call. Only the executor's policy grants anything (T4). */
export interface Principal {
  readonly id: string;
  readonly roles?: readonly string[];
  readonly scopes?: readonly string[];
  /** False when the host could not authenticate the caller (default true). */
  readonly authenticated?: boolean;
  /** Confirmations the user gave for high-risk calls, by call id. */
  readonly confirmed?: readonly string[];
}

/** A tool call as the model (or a script) asked for it. */
export interface ToolCall {
  readonly call_id: string;
  readonly tool_name: string;
  readonly args: unknown;
  /** An idempotency key chosen by the caller; derived from tool, args, principal and scope otherwise. */
  readonly idempotency_key?: string;
  /** Caller scope mixed into a derived idempotency key (e.g. a conversation or order id). */
  readonly scope?: string;
}

/** A tool's own return value: the business object plus what only the tool knows about it. */
export interface ToolOutput<D = unknown> {
  readonly data: D;
  readonly completeness?: Completeness;
  /** When the fact happened or was recorded in the source (S6), if the source says. */
  readonly observed_at?: string | null;
  /** Overrides the tool's declared source id (e.g. a specific table or URL version). */
  readonly source_id?: string;
  readonly evidence?: Evidence[];
  readonly warnings?: Warning[];
  readonly conflicts?: Conflict[];
  /** For writes: the downstream id of what was committed (W1). */
  readonly external_id?: string;
  readonly committed_at?: string | null;
  /** Workflow state this result should update (W4), written only through a versioned patch. */
  readonly state?: { readonly key: string; readonly baseVersion: number | null };
  /** A fact the tool proposes for long-term memory (W5). */
  readonly memory?: MemoryCandidate;
}

/** What a running tool gets from the executor. */
export interface ToolContext {
  readonly callId: string;
  readonly principal: Principal;
  /** Fires at the deadline or when the caller cancels; pass it to fetch/database calls. */
  readonly signal: AbortSignal;
  /** Epoch milliseconds of the deadline. */
  readonly deadline: number;
  readonly attempt: number;
  /** The key to pass downstream for writes; null for reads. */
  readonly idempotencyKey: string | null;
  /**
   * Say that the write request is about to leave the process. With `reportsSend: true`, a
   * failure before this call is known not to have reached the downstream (X3).
   */
  markSent(): void;
  /**
   * W3C `traceparent` of this call's OpenTelemetry span, when `@opentelemetry/api` is installed
   * and a tracer provider records: pass it downstream (the gateway puts it in the upstream's `_meta`).
   */
  readonly traceparent?: string;
}

/** Visibility of a data field (T6), keyed by JSON Pointer into `data`. */
export type FieldVisibility = 'model' | 'user' | 'internal';

/** A JSON Schema object (draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

/** A tool as declared to {@link defineTool}. */
export interface ToolSpec<A = unknown, D = unknown> {
  readonly name: string;
  readonly description: string;
  /** Input JSON Schema; must pass the OpenAI strict rules unless `strict: false`. */
  readonly input: JsonSchema;
  /** Output JSON Schema for `data`; a mismatch is a contract error. */
  readonly output?: JsonSchema;
  readonly effect: 'read' | 'write';
  /** Name of the side effect (e.g. `charge`); defaults to the tool name. */
  readonly operation?: string;
  /** Running twice has the effect of running once. */
  readonly idempotent?: boolean;
  /** The downstream deduplicates on the idempotency key passed in `ctx.idempotencyKey`. */
  readonly honoursKey?: boolean;
  /** The tool calls `ctx.markSent()` before sending, so failures before it are known unsent. */
  readonly reportsSend?: boolean;
  /** Look the key up downstream after a timeout or crash (W2). */
  readonly reconcile?: (key: string, ctx: { signal: AbortSignal }) => Promise<ReconcileLookup>;
  /** How a caller queries that lookup, named in the `reconciliation` block (default `<name>.reconcile`). */
  readonly reconcileTool?: string;
  readonly timeoutMs: number;
  /** Where results come from (S6), e.g. `{ type: 'database', id: 'orders.primary' }`. */
  readonly source: { readonly type: string; readonly id: string };
  readonly fields?: Readonly<Record<string, FieldVisibility>>;
  /** JSON Pointer globs into `data` whose text is external content (T1). */
  readonly untrusted?: readonly string[];
  /** JSON Pointer globs into `data` that stay facts even when the source type is untrusted (ids, enums). */
  readonly trusted?: readonly string[];
  /**
   * The tool vouches for all of its text although its source type is one whose text is untrusted
   * by default (`web`, `email`, `ticket`, `file`, …). Default false.
   */
  readonly trustedText?: boolean;
  /**
   * Instruction-detector rule ids, or prefixes ending in `.`, not applied to this tool's external
   * text (a tool that returns chat transcripts by design: `['role.turn', 'role.turns']`). The text
   * is still isolated; a name no rule has is refused when the tool is defined.
   */
  readonly ignoreDetectorRules?: readonly string[];
  /** Size budget of this tool's model-visible result; unset limits come from the executor. */
  readonly budget?: Budget;
  /** `high` and `critical` calls wait for the user's confirmation of each call (T4). */
  readonly risk: 'low' | 'medium' | 'high' | 'critical';
  /** Resource a write touches; writes with the same key are serialized by `callAll` (P2). */
  readonly resource?: (args: A) => string;
  /** Opt out of the strict input-schema check (the violations are still reported on the tool). */
  readonly strict?: boolean;
  readonly run: (args: A, ctx: ToolContext) => Promise<ToolOutput<D>> | ToolOutput<D>;
}

/** What a model reads for one call (S7, T2): text plus the correlation id. Never the raw result. */
export interface ModelContext {
  readonly call_id: string;
  readonly tool_name: string;
  readonly is_error: boolean;
  readonly content: string;
}

/** What a call writes back outside the conversation (W4, W5): never the model-facing text (L2). */
export interface WriteBack {
  readonly call_id: string;
  readonly state_patch: StatePatch | null;
  readonly memory_candidate: MemoryCandidate | null;
  readonly ledger: { readonly idempotency_key: string; readonly status: Envelope['status'] } | null;
}
