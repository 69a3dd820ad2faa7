/**
 * Steps 4 and 5: a payment whose response is lost after the commit, reconciled through the
 * idempotency key and replayed on retry (exactly one charge in the payments table); parallel
 * calls with one failing upstream, one envelope per call id.
 */
import type { DemoContext } from './context.js';
import { callId, remember } from './context.js';
import type { DemoStep } from './transcript.js';
import { checkCallIds } from '../executor/index.js';

const PAYMENT_ORDER = 'ord_1002';

/** Step 4: `payment_charge` times out after committing; then the same call is retried. */
export async function lostPayment(ctx: DemoContext): Promise<DemoStep> {
  ctx.loseResponses.add(PAYMENT_ORDER);
  const args = { order_id: PAYMENT_ORDER, amount_cents: 4_990 };
  // A per-run scope so a second demo run charges anew instead of replaying the first run.
  const scope = `demo_${ctx.runId}`;
  const first = await ctx.executor.call({ call_id: callId(ctx, 'pay'), tool_name: 'payment_charge', args, scope }, ctx.principal);
  const retry = await ctx.executor.call({ call_id: callId(ctx, 'pay_retry'), tool_name: 'payment_charge', args, scope }, ctx.principal);
  const key = first.side_effect.idempotency_key ?? first.call.idempotency_key ?? null;
  const rows = key === null ? [] : ctx.world.chargesWithKey(key);
  const replayed = retry.warnings.some((w) => typeof w !== 'string' && w.code === 'IDEMPOTENT_REPLAY');
  const ok =
    first.status === 'succeeded' && first.side_effect.occurred && retry.status === 'succeeded' && replayed && rows.length === 1 &&
    retry.side_effect.occurred && retry.side_effect.external_id === first.side_effect.external_id;
  const views = [remember(ctx, first, args), remember(ctx, retry, args)];
  return {
    step: 4,
    title: 'A payment whose response is lost after the commit',
    calls: views,
    ok,
    verdict: ok
      ? `the tool timed out after the charge committed; reconcile(key) found ${first.side_effect.external_id ?? '?'} → succeeded with side_effect.occurred; the retry replayed the recorded result; payments table: exactly ${rows.length} charge for the key`
      : `expected one reconciled charge and a replay; got ${first.status}/${retry.status} and ${rows.length} charge(s)`,
    key_facts: `lost response reconciled; ${rows.length} charge (${first.side_effect.external_id ?? '-'}); retry replayed`,
    facts: { idempotency_key: key, first_status: first.status, retry_status: retry.status, retry_replayed: replayed, external_id: first.side_effect.external_id ?? null, charges: rows },
    notes: [`SELECT id, order_id, amount_cents FROM charges WHERE idempotency_key = '${key ?? '?'}' → ${rows.map((r) => `${r.id} ${r.order_id} ${r.amount_cents}`).join('; ') || '(no rows)'}`],
  };
}

/** Step 5: `callAll` over independent reads; the carrier answers 503 for one order. */
export async function parallelCalls(ctx: DemoContext): Promise<DemoStep> {
  const calls = [
    { call_id: callId(ctx, 'ship_1001'), tool_name: 'shipping_status', args: { order_id: 'ord_1001' } },
    { call_id: callId(ctx, 'ship_1002'), tool_name: 'shipping_status', args: { order_id: 'ord_1002' } },
    { call_id: callId(ctx, 'order_1002'), tool_name: 'order_get', args: { order_id: 'ord_1002' } },
  ];
  const { envelopes } = await ctx.executor.callAll(calls, ctx.principal);
  const ids = checkCallIds(calls.map((c) => c.call_id), envelopes.map((e) => e.call.call_id));
  const views = envelopes.map((e) => remember(ctx, e, calls.find((c) => c.call_id === e.call.call_id)?.args ?? null));
  const failedOnes = envelopes.filter((e) => e.status === 'failed');
  const err = failedOnes[0]?.error;
  const ok = ids.ok && envelopes.length === calls.length && failedOnes.length === 1 && failedOnes[0]?.call.call_id === callId(ctx, 'ship_1002') && err?.retryable === true;
  return {
    step: 5,
    title: 'Parallel calls with one failing upstream',
    calls: views,
    ok,
    verdict: ok
      ? `${envelopes.length} envelopes for ${calls.length} call ids (set equal); ${failedOnes[0]?.call.call_id} failed: ${err?.category}/${err?.code}, retryable=${String(err?.retryable)}, action=${err?.action}`
      : 'the parallel calls did not end as expected (see --json)',
    key_facts: `${envelopes.length} envelopes for ${calls.length} call ids; ${failedOnes.length} failed → ${err?.action ?? '-'}`,
    facts: { requested: calls.map((c) => c.call_id), returned: envelopes.map((e) => e.call.call_id), ids_match: ids.ok, failed: failedOnes.map((e) => ({ call_id: e.call.call_id, error: e.error })) },
    notes: [],
  };
}
