/**
 * Normalize a tool's return value into an envelope with the contract builders (S1–S9). Pure:
 * the executor supplies the clock and the key.
 */
import { TrcError, failed, nonJsonAt, partial, succeeded, timestampValue, type CallInput, type Conflict, type Envelope, type ErrorInfo, type Evidence, type SideEffectInput, type Warning } from '../contract/index.js';
import { statePatch, withMemoryDecision, type MemoryPolicy } from '../effects/index.js';

import type { ToolRules } from './rules.js';
import type { ToolOutput } from './types.js';

/** Why a return value could not be normalized. */
export interface NormalizeProblem {
  readonly code: 'TOOL_OUTPUT_INVALID' | 'WRITE_WITHOUT_EXTERNAL_ID' | 'INTERNAL_CONTRACT_VIOLATION';
  readonly message: string;
  /** Where in the tool's output the problem is, when one place is to blame. */
  readonly pointer?: string;
}

/** Input of {@link normalizeOutput}. */
export interface NormalizeInput {
  readonly tool: ToolRules;
  readonly call: CallInput;
  readonly value: unknown;
  readonly retrievedAt: string;
  readonly idempotencyKey: string | null;
  readonly memoryPolicy?: MemoryPolicy | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Turn a {@link ToolOutput} into a `succeeded` or `partial` envelope, or report why it cannot.
 * @example normalizeOutput({ tool, call: { tool_name: 'order_get', call_id: 'c1' }, value: { data: { id: 1 } }, retrievedAt, idempotencyKey: null })
 */
export function normalizeOutput(input: NormalizeInput): { ok: true; envelope: Envelope; output: ToolOutput } | { ok: false; problem: NormalizeProblem } {
  const { tool, value } = input;
  if (!isObject(value) || !('data' in value)) {
    return { ok: false, problem: { code: 'TOOL_OUTPUT_INVALID', message: `tool "${tool.name}" must return { data, … }; got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}` } };
  }
  const output = value as unknown as ToolOutput;
  if (output.data === null || output.data === undefined) {
    return { ok: false, problem: { code: 'TOOL_OUTPUT_INVALID', message: `tool "${tool.name}" returned no facts (data is ${String(output.data)}); throw a ToolFailure (e.g. not_found) instead` } };
  }
  let side_effect: SideEffectInput | undefined;
  const observed = timestampValue(output.observed_at, 'observed_at');
  const committed = tool.effect === 'write' ? timestampValue(output.committed_at, 'committed_at') : { value: null };
  if (tool.effect === 'write') {
    if (typeof output.external_id !== 'string' || output.external_id === '') {
      return { ok: false, problem: { code: 'WRITE_WITHOUT_EXTERNAL_ID', message: `write tool "${tool.name}" returned without an external_id, so whether its write happened is not confirmed` } };
    }
    side_effect = { occurred: true, operation: tool.operation, external_id: output.external_id, idempotency_key: input.idempotencyKey, committed_at: committed.value };
  }
  const data = output.data as NonNullable<unknown>;
  const provenance = { source_type: tool.source.type, source_id: output.source_id ?? tool.source.id, retrieved_at: input.retrievedAt, observed_at: observed.value };
  // Built by assignment (no temporary objects): this runs once per call.
  const common: Common = { call: input.call, data, provenance };
  if (side_effect !== undefined) common.side_effect = side_effect;
  if (output.evidence !== undefined) common.evidence = output.evidence;
  if (output.warnings !== undefined) common.warnings = output.warnings;
  // (The pointer goes in the error's details, never its message: keys may be anyone's text.)
  // The data is checked by its digest below; the tool's other parts are stored and rendered as
  // JSON too, and a BigInt or a cycle there would only fail when the audit record is written.
  for (const [field, part] of [['evidence', output.evidence], ['warnings', output.warnings], ['conflicts', output.conflicts]] as const) {
    const bad = part === undefined ? null : nonJsonAt(part, `/${field}`);
    if (bad !== null) return { ok: false, problem: { code: 'TOOL_OUTPUT_INVALID', message: `tool "${tool.name}" returned ${field} that is not plain JSON: ${bad.message} (details.pointer says where)`, pointer: bad.pointer } };
  }
  if (observed.warning !== undefined || committed.warning !== undefined) {
    common.warnings = [...(Array.isArray(output.warnings) ? output.warnings : []), ...[observed.warning, committed.warning].filter((w) => w !== undefined)];
  }
  // The builders digest the data (RFC 8785); NaN, Infinity, cycles or lone surrogates have no
  // canonical form, so such data is refused as a broken output rather than thrown.
  try {
    return { ok: true, envelope: build(input, output, data, common), output };
  } catch (cause) {
    // Builders also refuse values that contradict each other (a cursor on a "complete" result):
    // such a result is withheld, never emitted.
    if (cause instanceof TrcError && cause.code === 'CONTRADICTORY_ENVELOPE') {
      return { ok: false, problem: { code: 'INTERNAL_CONTRACT_VIOLATION', message: `tool "${tool.name}" returned a result that contradicts the contract, so it was withheld: ${cause.message}` } };
    }
    const bad = nonJsonAt(data, '/data');
    return { ok: false, problem: { code: 'TOOL_OUTPUT_INVALID', message: `tool "${tool.name}" returned data that is not plain JSON: ${(cause as Error).message}${bad === null ? '' : ' (details.pointer says where)'}`, ...(bad === null ? {} : { pointer: bad.pointer }) } };
  }
}

/** Fields the `succeeded` and `partial` builders share. */
interface Common {
  call: CallInput;
  data: NonNullable<unknown>;
  provenance: { source_type: string; source_id: string; retrieved_at: string; observed_at: string | null };
  side_effect?: SideEffectInput;
  evidence?: Evidence[];
  warnings?: Warning[];
  completeness?: unknown;
  conflicts?: Conflict[];
}

function build(input: NormalizeInput, output: ToolOutput, data: NonNullable<unknown>, common: Common): Envelope {
  const { tool } = input;
  const c = output.completeness ?? defaultCompleteness(data);
  const state = c.state;
  const incomplete = state === 'truncated' || state === 'partial';
  let envelope: Envelope;
  if (incomplete) {
    common.completeness = { ...c, state };
    envelope = partial(common as Parameters<typeof partial>[0]);
  } else {
    // A `complete` with a cursor or fewer items than available is refused by the builder.
    common.completeness = c;
    if (output.conflicts !== undefined) common.conflicts = output.conflicts;
    envelope = succeeded(common as Parameters<typeof succeeded>[0]);
  }
  if (incomplete && output.conflicts !== undefined) envelope = { ...envelope, conflicts: output.conflicts };
  if (output.state !== undefined) {
    envelope.state_patch = statePatch({
      key: output.state.key,
      value: data,
      baseVersion: output.state.baseVersion,
      source: { call_id: input.call.call_id, tool_name: tool.name, retrieved_at: input.retrievedAt, ...(output.evidence === undefined ? {} : { evidence_ids: output.evidence.map((e) => e.evidence_id) }) },
    });
  }
  if (output.memory !== undefined) {
    envelope.memory_candidate = withMemoryDecision(output.memory, { originSourceType: tool.source.type, ...(input.memoryPolicy === undefined ? {} : { policy: input.memoryPolicy }) });
  }
  return envelope;
}

function defaultCompleteness(data: unknown): NonNullable<ToolOutput['completeness']> {
  if (Array.isArray(data)) return { state: 'complete', returned_items: data.length, available_items: data.length };
  return { state: 'complete' };
}

/**
 * A `failed` envelope for an error the executor (or the tool) classified.
 * @example failedEnvelope({ tool_name: 'x', call_id: 'c1' }, error, { occurred: false, operation: 'read' })
 */
export function failedEnvelope(call: CallInput, error: ErrorInfo, side_effect?: SideEffectInput): Envelope {
  return failed({ call, error, ...(side_effect === undefined ? {} : { side_effect }) });
}
