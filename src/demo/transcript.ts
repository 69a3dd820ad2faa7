/**
 * The demo's transcript: what each step called, what the model would have read, and a verdict.
 * The text renderer and `--json` both print this one structure.
 */
import type { Envelope } from '../contract/index.js';

/** One tool call of a step, as the model would have received it. */
export interface DemoCall {
  readonly call_id: string;
  readonly tool: string;
  /** The arguments the (scripted) model sent. */
  readonly args: unknown;
  readonly status: Envelope['status'];
  /** `complete`, `partial`, `truncated`, … or `-` when the envelope has no completeness. */
  readonly completeness: string;
  /** The model-facing text built by the executor's presentation stage (never raw data). */
  readonly model_sees: string;
  readonly envelope: Envelope;
}

/** One step of the scripted session. */
export interface DemoStep {
  readonly step: number;
  readonly title: string;
  readonly calls: readonly DemoCall[];
  /** Outcomes checked by the step itself; `ok` is false if any expectation did not hold. */
  readonly ok: boolean;
  readonly verdict: string;
  /** Short facts for the closing table. */
  readonly key_facts: string;
  /** Machine-readable outcomes (counts, codes, ids) for tests and tooling. */
  readonly facts: Readonly<Record<string, unknown>>;
  /** Extra text to print (policy reasons, conflict entries, checker reports). */
  readonly notes: readonly string[];
}

/** The whole session. */
export interface DemoTranscript {
  readonly run_id: string;
  readonly store_path: string;
  readonly world_path: string;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly steps: readonly DemoStep[];
  readonly ok: boolean;
  /** Commands to inspect the audit left in the store, each with what it shows. */
  readonly inspect: readonly { readonly command: string; readonly purpose: string }[];
}

/** Compact view of an envelope's call for a {@link DemoCall}. */
export function demoCall(envelope: Envelope, args: unknown, modelSees: string): DemoCall {
  return {
    call_id: envelope.call.call_id,
    tool: envelope.call.tool_name,
    args,
    status: envelope.status,
    completeness: envelope.completeness?.state ?? '-',
    model_sees: modelSees,
    envelope,
  };
}
