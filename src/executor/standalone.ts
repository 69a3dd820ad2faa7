/**
 * The pipeline's synchronous part for one outcome that was obtained elsewhere (e.g. a
 * `CallToolResult` a user's own MCP client received): classify → normalize → visibility →
 * evidence → trust → present → finalize. No policy, no ledger, no budget (there is no store):
 * the same stages the executor runs, never a copy of them.
 */
import { unknown as unknownOutcome, type CallInput, type Envelope } from '../contract/index.js';
import { newNotes } from './audit.js';
import { classifyOutcome, failedEnvelope } from './classify.js';
import type { Outcome } from './invoker.js';
import { evidenceStage, modelTextStage, trustStage, visibilityStage } from './module-stages.js';
import type { ExternalMarks } from './normalize-mcp.js';
import type { ToolRules } from './rules.js';
import { finalize, type StageContext } from './stages.js';
import { createMemoryStore } from '../store/memory.js';

/** Options of {@link envelopeFromOutcome}. */
export interface OutcomeOptions {
  readonly call: CallInput;
  /** Whether the request may have left (for writes); default true. */
  readonly sent?: boolean;
  readonly idempotencyKey?: string | null;
  /** Clock for `retrieved_at`. */
  readonly now?: () => number;
}

let store: ReturnType<typeof createMemoryStore> | undefined;

const visibility = visibilityStage();
const evidence = evidenceStage();
const trust = trustStage();
const present = modelTextStage();

/**
 * The envelope of one outcome under `rules`, synchronously.
 * @example envelopeFromOutcome(rules, { kind: 'mcp', result, server: { name: 'weather', trusted: false } }, { call: { tool_name: 'weather', call_id: 'c1' } })
 */
export function envelopeFromOutcome(rules: ToolRules, outcome: Outcome, options: OutcomeOptions): Envelope {
  const now = options.now ?? Date.now;
  const external: ExternalMarks = { errorText: [], warnings: new Set() };
  const notes = newNotes();
  const key = options.idempotencyKey ?? options.call.idempotency_key ?? null;
  const call: CallInput = { ...options.call, ...(key === null ? {} : { idempotency_key: key }) };
  const sent = options.sent ?? true;
  const r = classifyOutcome({ rules, run: { outcome, sent: outcome.sent ?? sent, ms: 0 }, call, idempotencyKey: key, now, retrievedAt: new Date(now()).toISOString(), external, notes: notes.execution });
  let env: Envelope;
  if (r.kind === 'ok') env = r.envelope;
  else if (r.kind === 'failed') env = failedEnvelope(call, r.error, r.sideEffect ?? { occurred: false, operation: rules.effect === 'write' ? rules.operation : 'read' }, r.extra);
  else {
    env = unknownOutcome({
      call,
      error: { ...r.error, retryable: false },
      side_effect: { operation: rules.operation, possibly_occurred: true, ...(key === null ? {} : { idempotency_key: key }) },
      reconciliation: { required: true, ...(key === null ? {} : { idempotency_key: key }), state: 'pending' },
    });
  }
  store ??= createMemoryStore();
  const ctx: StageContext = { tool: rules, call: { call_id: call.call_id, tool_name: call.tool_name, args: null }, principal: { id: 'standalone' }, notes, store, now, outcome, external };
  const before = env.data;
  for (const stage of [visibility, evidence, trust, present]) env = stage(env, ctx) as Envelope;
  const f = finalize(env, notes, env.data === before);
  if (!f.replaced) return f.envelope;
  let out = f.envelope;
  for (const stage of [visibility, trust, present]) out = stage(out, ctx) as Envelope;
  return out;
}
