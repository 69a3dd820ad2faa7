/**
 * Steps 1 and 2: an order read from an SQLite table with record evidence and a hidden internal
 * note; the 10,000-row catalogue fitted to the budget and paged with its cursor.
 */
import type { DemoContext } from './context.js';
import { call, callId } from './context.js';
import type { DemoStep } from './transcript.js';

/** Step 1: `order_get` on the orders table. */
export async function orderLookup(ctx: DemoContext): Promise<DemoStep> {
  const { env, view } = await call(ctx, { call_id: callId(ctx, 'order'), tool_name: 'order_get', args: { order_id: 'ord_1001' } });
  const ev = env.evidence?.[0];
  const locator = (ev?.locator ?? {}) as { table?: string; primary_key?: unknown; columns?: string[] };
  const observed = env.provenance?.observed_at ?? null;
  const retrieved = env.provenance?.retrieved_at ?? null;
  const noteRow = ctx.world.order('ord_1001')?.internal_note ?? '';
  const noteHidden = noteRow !== '' && !view.model_sees.includes(noteRow) && !JSON.stringify(env).includes(noteRow);
  const emailHidden = !view.model_sees.includes('mei@customer.example');
  const ok = env.status === 'succeeded' && locator.table === 'orders' && observed !== null && observed !== retrieved && noteHidden && emailHidden;
  return {
    step: 1,
    title: 'Order lookup in the SQLite orders table',
    calls: [view],
    ok,
    verdict: ok
      ? `record evidence ${ev?.evidence_id ?? '?'} (table ${locator.table}, key ${String(locator.primary_key)}, columns ${(locator.columns ?? []).join(', ')}); observed_at ${observed} ≠ retrieved_at ${retrieved}; internal note dropped, customer e-mail kept from the model`
      : 'the order envelope did not carry what was expected (see the envelope in --json)',
    key_facts: `status=${String((env.data as { status?: unknown } | null)?.status)}, evidence ${ev?.evidence_id ?? '-'}, note hidden`,
    facts: { evidence_id: ev?.evidence_id ?? null, locator, observed_at: observed, retrieved_at: retrieved, internal_note_hidden: noteHidden, customer_email_hidden_from_model: emailHidden },
    notes: [],
  };
}

/** Step 2: the whole catalogue fitted to the budget, then the next page by cursor. */
export async function fittedList(ctx: DemoContext): Promise<DemoStep> {
  const first = await call(ctx, { call_id: callId(ctx, 'items'), tool_name: 'items_list', args: {} });
  const c = first.env.completeness;
  const handle = first.env.resources?.[0]?.uri ?? null;
  const cursor = c?.next?.value ?? null;
  const calls = [first.view];
  let pageFacts: Record<string, unknown> = { called: false };
  let pageOk = false;
  if (cursor !== null) {
    const next = await call(ctx, { call_id: callId(ctx, 'items_page2'), tool_name: 'items_page', args: { cursor } });
    calls.push(next.view);
    const items = ((next.env.data as { items?: { id: number }[] } | null)?.items ?? []).map((i) => i.id);
    const pc = next.env.completeness;
    const returned = c?.returned_items ?? 0;
    // The page continues exactly where the fitted slice stopped.
    pageOk = next.env.status === 'partial' && items[0] === returned + 1 && pc?.returned_items === items.length && pc.available_items === (c?.available_items ?? 0) - returned && pc.next !== null;
    pageFacts = { called: true, status: next.env.status, first_id: items[0] ?? null, last_id: items.at(-1) ?? null, completeness: pc ?? null };
  }
  const summarised = first.env.summary !== undefined && first.env.summary !== null;
  const ok = first.env.status === 'partial' && c?.available_items === 10_000 && handle !== null && summarised && pageOk;
  return {
    step: 2,
    title: 'A 10,000-row list fitted to the budget, then paged',
    calls,
    ok,
    verdict: ok
      ? `${c?.state}: ${c?.returned_items} of ${c?.available_items} items shown, summary zone labelled, raw result stored as ${handle}; the cursor returned items ${String(pageFacts['first_id'])}–${String(pageFacts['last_id'])} with completeness ${String((pageFacts['completeness'] as { state?: string } | null)?.state)}`
      : 'the list was not fitted and paged as expected (see --json)',
    key_facts: `${c?.returned_items ?? '?'}/${c?.available_items ?? '?'} items, page 2 = ${String(pageFacts['first_id'])}–${String(pageFacts['last_id'])}`,
    facts: { completeness: c ?? null, resource: handle, summary: first.env.summary ?? null, page: pageFacts },
    notes: [],
  };
}
