/**
 * The demo's tools: ordinary functions over the demo world, declared with `defineTool`. They
 * return business objects; everything contract-related is the executor's job.
 */
import { page } from '../budget/index.js';
import { defineTool, type AnyTool, type ToolDefinition } from '../executor/index.js';
import type { Store } from '../store/types.js';
import { WEB_PAGE_TEXT, WEB_PAGE_URL, type World } from './world.js';

const strictObject = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** Options that let the demo stage faults (a lost payment response). */
export interface DemoToolOptions {
  readonly world: World;
  /** Base URL of the local shipping-status HTTP service. */
  readonly shippingUrl: string;
  /** Payment attempts whose response is lost after the charge committed. */
  readonly loseResponses: Set<string>;
  readonly now: () => string;
  /** The trc store holding externalized results, for paging with a cursor. */
  readonly store: Store;
  /** Items per page of `items_page`. */
  readonly pageSize: number;
}

/** The names of the demo's tools (a test holds them to {@link demoTools}). */
export const DEMO_TOOL_NAMES: ReadonlySet<string> = new Set(['order_get', 'items_list', 'items_page', 'web_fetch', 'email_send', 'payment_charge', 'shipping_status', 'stock_get']);

/** Every tool of the demo, by name. */
export function demoTools(o: DemoToolOptions): { all: AnyTool[]; byName: Record<string, AnyTool> } {
  const tools: ToolDefinition<never, unknown>[] = [
    orderGet(o),
    itemsList(o),
    itemsPage(o),
    webFetch(),
    emailSend(),
    paymentCharge(o),
    shippingStatus(o),
    stockGet(o),
  ] as unknown as ToolDefinition<never, unknown>[];
  return { all: tools, byName: Object.fromEntries(tools.map((t) => [t.name, t])) };
}

function orderGet({ world }: DemoToolOptions) {
  return defineTool<{ order_id: string }>({
    name: 'order_get',
    description: 'Look up one order by id.',
    effect: 'read',
    risk: 'low',
    timeoutMs: 2_000,
    source: { type: 'database', id: 'orders.primary' },
    input: strictObject({ order_id: { type: 'string' } }),
    // The internal note is for staff only (T6): it never reaches the model or the user.
    fields: { '/internal_note': 'internal', '/customer_email': 'user' },
    run: ({ order_id }) => {
      const row = world.order(order_id);
      if (row === undefined) throw Object.assign(new Error(`order ${order_id} not found`), { status: 404 });
      return {
        data: row,
        observed_at: row.shipped_at,
        evidence: [
          {
            evidence_id: 'ev_order_' + order_id,
            kind: 'record',
            source: { type: 'database', name: 'orders.primary' },
            locator: { table: 'orders', primary_key: order_id, columns: ['status', 'shipped_at'] },
            supports: ['/data/order_id', '/data/status', '/data/shipped_at'],
            quote: `status=${row.status}, shipped_at=${row.shipped_at ?? 'null'}`,
            ...(row.shipped_at === null ? {} : { observed_at: row.shipped_at }),
          },
        ],
      };
    },
  });
}

function itemsList({ world }: DemoToolOptions) {
  return defineTool<Record<string, never>>({
    name: 'items_list',
    description: 'List the whole catalogue (it has 10,000 rows: the result is fitted to the budget).',
    effect: 'read',
    risk: 'low',
    timeoutMs: 5_000,
    source: { type: 'database', id: 'catalogue.items' },
    input: strictObject({}),
    run: () => {
      const total = world.itemCount();
      return {
        data: { items: world.items(0, total) },
        completeness: { state: 'complete', returned_items: total, available_items: total },
        // The table backs the count of the list; the list itself may be cut to the budget, and
        // evidence for a cut node is re-pointed at the stored raw result.
        evidence: [{ evidence_id: 'ev_items', kind: 'query', source: { type: 'database', name: 'catalogue.items' }, locator: { table: 'items', columns: ['id', 'sku', 'name', 'price_cents', 'stock'] }, supports: ['/completeness/available_items'], quote: `count(*) = ${total}` }],
      };
    },
  });
}

function itemsPage({ store, pageSize }: DemoToolOptions) {
  return defineTool<{ cursor: string }>({
    name: 'items_page',
    description: 'Read the next slice of a list that was fitted to the budget, by its cursor.',
    effect: 'read',
    risk: 'low',
    timeoutMs: 5_000,
    source: { type: 'tool', id: 'items_list' },
    input: strictObject({ cursor: { type: 'string' } }),
    // The cursor is re-authorized for the calling principal on every read (Z6).
    run: async ({ cursor }, ctx) => {
      const slice = await page(cursor, ctx.principal.id, { store, pageSize });
      return { data: { items: slice.data as unknown[] }, ...(slice.completeness === undefined ? {} : { completeness: slice.completeness }) };
    },
  });
}

function webFetch() {
  return defineTool<{ url: string }>({
    name: 'web_fetch',
    description: 'Fetch a web page as text.',
    effect: 'read',
    risk: 'low',
    timeoutMs: 2_000,
    source: { type: 'web', id: WEB_PAGE_URL },
    input: strictObject({ url: { type: 'string' } }),
    untrusted: ['/text'],
    run: ({ url }) => ({ data: { url, title: 'Reviews for Trail Kettle 1.2 L', text: WEB_PAGE_TEXT }, source_id: url }),
  });
}

function emailSend() {
  return defineTool<{ to: string; subject: string; body: string }>({
    name: 'email_send',
    description: 'Send an e-mail on behalf of the shop.',
    effect: 'write',
    operation: 'email.send',
    risk: 'high',
    honoursKey: true,
    timeoutMs: 2_000,
    source: { type: 'api', id: 'mail.outbound' },
    input: strictObject({ to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } }),
    run: ({ to }) => ({ data: { queued: true, to }, external_id: 'msg_' + to.length }),
  });
}

function paymentCharge({ world, loseResponses, now }: DemoToolOptions) {
  return defineTool<{ order_id: string; amount_cents: number }>({
    name: 'payment_charge',
    description: 'Charge the customer for an order.',
    effect: 'write',
    operation: 'charge',
    risk: 'medium',
    honoursKey: true,
    reportsSend: true,
    timeoutMs: 300,
    source: { type: 'api', id: 'payments.charges' },
    input: strictObject({ order_id: { type: 'string' }, amount_cents: { type: 'integer' } }),
    resource: ({ order_id }) => `order:${order_id}`,
    run: async ({ order_id, amount_cents }, ctx) => {
      const key = ctx.idempotencyKey ?? ctx.callId;
      ctx.markSent();
      const charge = world.charge(key, order_id, amount_cents, now());
      if (loseResponses.has(order_id)) {
        loseResponses.delete(order_id);
        // The charge is committed, but the response never comes back: wait past the deadline.
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        throw ctx.signal.reason;
      }
      return { data: { charge_id: charge.id, order_id, amount_cents }, external_id: charge.id, committed_at: now() };
    },
    reconcile: async (key) => {
      const found = world.chargeByKey(key);
      return found === undefined ? { state: 'absent' } : { state: 'found', external_id: found.id, committed_at: found.created_at, data: { charge_id: found.id } };
    },
  });
}

function shippingStatus({ shippingUrl }: DemoToolOptions) {
  return defineTool<{ order_id: string }>({
    name: 'shipping_status',
    description: "Ask the carrier's API where a parcel is.",
    effect: 'read',
    risk: 'low',
    timeoutMs: 2_000,
    source: { type: 'third_party_api', id: 'carrier.tracking' },
    input: strictObject({ order_id: { type: 'string' } }),
    run: async ({ order_id }, ctx) => {
      const res = await fetch(`${shippingUrl}/tracking/${encodeURIComponent(order_id)}`, { signal: ctx.signal });
      if (!res.ok) throw Object.assign(new Error(`carrier API answered HTTP ${res.status}`), { status: res.status });
      return { data: (await res.json()) as Record<string, unknown> };
    },
  });
}

function stockGet({ world }: DemoToolOptions) {
  return defineTool<{ sku: string; warehouse: string }>({
    name: 'stock_get',
    description: 'Stock of a product in one warehouse.',
    effect: 'read',
    risk: 'low',
    timeoutMs: 2_000,
    source: { type: 'database', id: 'inventory.stock' },
    input: strictObject({ sku: { type: 'string' }, warehouse: { type: 'string' } }),
    run: ({ sku, warehouse }) => {
      const row = world.stock(sku).find((r) => r.warehouse === warehouse);
      if (row === undefined) throw Object.assign(new Error(`no stock record for ${sku} in ${warehouse}`), { status: 404 });
      return {
        data: { sku, warehouse, stock: row.stock },
        observed_at: row.counted_at,
        source_id: `inventory.${warehouse}`,
        evidence: [
          {
            evidence_id: `ev_stock_${warehouse}`,
            kind: 'record',
            locator: { table: 'stock', primary_key: { sku, warehouse }, columns: ['stock'] },
            supports: ['/data/stock'],
            observed_at: row.counted_at,
          },
        ],
      };
    },
  });
}
