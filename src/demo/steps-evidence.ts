/**
 * Steps 6 and 7: two warehouses that disagree (an unresolved conflict, and a total only under a
 * declared calculation); an answer checked claim by claim against the session's evidence.
 */
import { TrcError } from '../contract/index.js';
import { aggregate, checkAnswer, detectConflicts } from '../evidence/index.js';
import type { DemoContext } from './context.js';
import { call, callId } from './context.js';
import type { DemoStep } from './transcript.js';

/** Step 6: stock of one product in two warehouses. */
export async function disagreeingWarehouses(ctx: DemoContext): Promise<DemoStep> {
  const a = await call(ctx, { call_id: callId(ctx, 'stock_a'), tool_name: 'stock_get', args: { sku: 'sku_001', warehouse: 'warehouse_a' } });
  const b = await call(ctx, { call_id: callId(ctx, 'stock_b'), tool_name: 'stock_get', args: { sku: 'sku_001', warehouse: 'warehouse_b' } });
  // No resolution rule is declared for `stock`, so the disagreement must stay unresolved.
  const conflicts = detectConflicts([a.env, b.env], { identity: { subject: '/sku', fields: ['stock'] } });
  const conflict = conflicts[0];
  const inputs = [a.env, b.env].map((e) => {
    const d = e.data as { warehouse: string; stock: number };
    return { label: `${d.warehouse}.stock`, value: d.stock };
  });
  let undeclared: string | null = null;
  try {
    aggregate(undefined, inputs);
  } catch (error) {
    undeclared = error instanceof TrcError ? error.code : 'UNEXPECTED';
  }
  const total = aggregate({ operation: 'sum', field: 'stock', by: 'warehouse' }, inputs);
  const ok = conflicts.length === 1 && conflict?.resolution === 'unresolved' && undeclared === 'AGGREGATE_UNDECLARED' && total.value === 10;
  const sides = (conflict?.values ?? []).map((v) => `${v.source}=${JSON.stringify(v.value)}`).join(' vs ');
  return {
    step: 6,
    title: 'Two warehouses that disagree',
    calls: [a.view, b.view],
    ok,
    verdict: ok
      ? `conflict on ${conflict?.subject}.${conflict?.field}: ${sides}, resolution ${conflict?.resolution}; a total only under a declared calculation: ${total.calculation.formula} = ${total.value} (without a rule: ${undeclared})`
      : 'the disagreement was not reported as expected (see --json)',
    key_facts: `${sides}: ${conflict?.resolution ?? 'no conflict'}; ${total.calculation.formula}=${total.value}`,
    facts: { conflicts, aggregate_without_rule: undeclared, aggregate: total },
    notes: [`conflicts[] = ${JSON.stringify(conflicts)}`, `calculation = ${JSON.stringify(total.calculation)} → ${total.value}`],
  };
}

/** Step 7: check an answer's claims against the evidence the session collected. */
export function checkedAnswer(ctx: DemoContext): DemoStep {
  const order = ctx.envelopes.get(callId(ctx, 'order'));
  const list = ctx.envelopes.get(callId(ctx, 'items'));
  const orderEv = order?.evidence?.[0]?.evidence_id ?? 'ev_missing';
  const listEv = list?.evidence?.[0]?.evidence_id ?? 'ev_missing';
  const answer = `Order ord_1001 shipped at 2026-08-31 18:20 (UTC+8) [${orderEv}]. There are 20 items in total [${listEv}].`;
  const report = checkAnswer(answer, [...ctx.envelopes.values()], { assumeZone: 'UTC+8' });
  const verdicts = report.claims.map((c) => c.verdict);
  const ok = verdicts[0] === 'supported' && verdicts[1] === 'overreach';
  return {
    step: 7,
    title: "Checking the model's answer against the evidence",
    calls: [],
    ok,
    verdict: ok ? 'claim 1 supported (18:20 UTC+8 = 10:20Z); claim 2 is overreach: a total from a partial list' : `unexpected verdicts: ${verdicts.join(', ')}`,
    key_facts: verdicts.join(', '),
    facts: { answer, verdicts, claims: report.claims },
    notes: [`answer: ${answer}`, ...report.claims.map((c) => `claim ${c.index + 1}: ${c.verdict}${c.reasons.length > 0 ? ` — ${c.reasons.join('; ')}` : ''}`)],
  };
}
