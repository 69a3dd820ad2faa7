import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit, counterFrom, measureVisible, o200kCounter, page } from '../../src/budget/index.js';
import { isTrcError, validate, type Envelope } from '../../src/contract/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { readStored } from './helpers.js';

const fixture = (name: string): Envelope => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Envelope;
const NOW = () => new Date('2026-09-01T00:00:00Z');

let store: Store;
beforeAll(async () => {
  store = await openSqliteStore({ path: ':memory:' });
});
afterAll(async () => {
  await store.close();
});

describe('fit', () => {
  it('fits the seed case (25 items, budget 20, upstream cursor) to partial/truncated with the cursor kept', async () => {
    const out = await fit(fixture('seed-25-items.json'), { maxItems: 20 }, { store, principal: 'alice', now: NOW });
    expect(out.status).toBe('partial');
    expect(out.completeness).toMatchObject({
      state: 'truncated',
      reason: 'context_budget',
      returned_items: 20,
      available_items: null,
      next: { type: 'cursor', value: 'cursor_002' },
      trimmed: [{ pointer: '/data/items', kind: 'items', kept: 20, total: 25 }],
    });
    expect((out.data as { items: unknown[] }).items).toHaveLength(20);
    expect(validate(out).valid).toBe(true);
  });

  it('reports the known total when the upstream result was complete', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: i, price: i * 2 }));
    const out = await fit(rows, { maxItems: 20 }, { store, principal: 'alice', tool: 'list', now: NOW });
    expect(out.completeness).toMatchObject({ state: 'truncated', returned_items: 20, available_items: 25 });
    expect(out.completeness?.next?.value).toMatch(/^[\w-]{22}$/);
  });

  it('labels a deterministic summary of the omitted items with their numeric column stats', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: i, price: i * 2, name: `n${i}` }));
    const a = await fit(rows, { maxItems: 6 }, { now: NOW });
    const b = await fit(rows, { maxItems: 6 }, { now: NOW });
    expect(a.summary).toEqual(b.summary);
    expect(a.summary?.label).toBe('summary');
    expect(a.summary?.text).toContain('not the original data');
    expect(a.summary?.stats).toMatchObject({
      lists: [{ pointer: '/data', total: 10, kept: 6, omitted: { count: 4, fields: { id: { min: 6, max: 9, sum: 30 }, price: { min: 12, max: 18, sum: 60 } } } }],
    });
  });

  it('returns a result that already fits unchanged and stores nothing', async () => {
    const input = fixture('seed-25-items.json');
    const out = await fit(input, { maxItems: 50 }, { store, principal: 'alice' });
    expect(out).toEqual(input);
  });

  it('cuts strings at code-point boundaries, never inside a surrogate pair', async () => {
    const out = await fit({ text: '😀😀😀😀' }, { maxStringChars: 3 }, { now: NOW });
    expect((out.data as { text: string }).text).toBe('😀😀😀');
    expect(out.completeness?.trimmed).toEqual([{ pointer: '/data/text', kind: 'chars', kept: 3, total: 4 }]);
  });

  it('keeps an evidence-supported item that lies past the item limit, at its new index', async () => {
    const input = fixture('seed-25-items.json');
    input.evidence = [{ evidence_id: 'ev_1', supports: ['/data/items/23/name'] }];
    const out = await fit(input, { maxItems: 5 }, { store, principal: 'alice', now: NOW });
    const items = (out.data as { items: { id: number }[] }).items;
    expect(items.map((i) => i.id)).toEqual([0, 1, 2, 3, 23]);
    expect(out.evidence?.[0]?.supports).toEqual(['/data/items/4/name']);
  });

  it('re-points evidence at the stored resource when its node must go', async () => {
    const input = fixture('seed-25-items.json');
    input.evidence = [{ evidence_id: 'ev_1', supports: ['/data/items/23/name'], locator: { url: 'https://api.example.com/items' } }];
    const out = await fit(input, { maxItems: 5, maxDepth: 1 }, { store, principal: 'alice', now: NOW });
    const ev = out.evidence?.[0];
    expect(ev?.supports).toEqual([]);
    expect(ev?.locator).toMatchObject({ url: 'https://api.example.com/items', resource_uri: out.resources?.[0]?.uri, response_path: '/data/items/23/name' });
    const stored = JSON.parse((await readStored(store, out.resources?.[0]?.uri ?? '', 'alice', NOW())).toString('utf8'));
    expect(stored.data.items[23].name).toBe('item-23');
  });

  it('meets a token budget with the default o200k counter, counting data and summary', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, title: `A fairly long title for row number ${i}`, tags: ['alpha', 'beta'] }));
    const out = await fit(rows, { maxTokens: 500, maxItems: 1000 }, { now: NOW });
    const size = measureVisible(out, o200kCounter);
    expect(size.tokens).toBeLessThanOrEqual(500);
    // The search keeps as much as fits, not a token.
    expect((out.data as unknown[]).length).toBeGreaterThan(5);
  });

  it('accepts a pluggable token counter', async () => {
    const chars = counterFrom('chars', (t) => t.length);
    const out = await fit({ text: 'x'.repeat(500) }, { maxTokens: 200 }, { counter: chars, now: NOW });
    expect(measureVisible(out, chars).tokens).toBeLessThanOrEqual(200);
  });

  it('runs the visibility hook before summarizing and storing, so internal fields reach neither', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i, internal_score: i * 100 }));
    const hook = (env: Envelope): Envelope => ({
      ...env,
      data: (env.data as { id: number }[]).map(({ id }) => ({ id })),
    });
    const out = await fit(rows, { maxItems: 3 }, { store, principal: 'alice', now: NOW, dropFields: hook });
    expect(JSON.stringify(out.summary)).not.toContain('internal_score');
    const stored = (await readStored(store, out.resources?.[0]?.uri ?? '', 'alice', NOW())).toString('utf8');
    expect(stored).not.toContain('internal_score');
    expect(JSON.parse(stored)).toHaveLength(30);
  });

  it('warns when it trimmed but had no store to keep the full result', async () => {
    const out = await fit([1, 2, 3], { maxItems: 1 }, { now: NOW });
    expect(out.warnings).toContainEqual(expect.objectContaining({ code: 'BUDGET_NOT_EXTERNALIZED' }));
    expect(out.completeness?.next).toBeNull();
  });

  it('refuses an envelope that breaks the contract, naming the pointer', async () => {
    const bad = { ...fixture('seed-25-items.json'), status: 'succeeded' };
    await expect(fit(bad, {})).rejects.toSatisfy((e: unknown) => isTrcError(e, 'FIT_INVALID_ENVELOPE') && typeof e.data?.['pointer'] === 'string');
  });

  it('refuses a budget below the minimum with the pointer of the bad limit', async () => {
    await expect(fit([1], { maxTokens: 5 })).rejects.toSatisfy((e: unknown) => isTrcError(e, 'BUDGET_INVALID') && e.data?.['pointer'] === '/maxTokens');
    await expect(fit([1], { maxItems: -1 })).rejects.toSatisfy((e: unknown) => isTrcError(e, 'BUDGET_INVALID') && e.data?.['pointer'] === '/maxItems');
  });

  it('refuses a raw null instead of inventing a success', async () => {
    await expect(fit(null)).rejects.toSatisfy((e: unknown) => isTrcError(e, 'FIT_NULL_RESULT'));
  });

  it('lists the member names of a wide object once per fit, not once per trim attempt (linear in the members)', async () => {
    // The search trims the value at ~16 scales; listing 20,000 names (and escaping each as a
    // pointer token) at every scale made a 1M-member object take ~12 s against ~1 s for a 100 MB array.
    const members: Record<string, number> = {};
    for (let i = 0; i < 20_000; i++) members[`k/${i}`] = i;
    let listings = 0;
    const wide = new Proxy(members, { ownKeys: (t) => (listings++, Reflect.ownKeys(t)) });
    const out = await fit(wide, {}, { now: NOW });
    expect(out.completeness?.trimmed).toEqual([{ pointer: '/data', kind: 'field', kept: expect.any(Number) as number, total: 20_000 }]);
    expect(Object.keys(out.data as object)[0]).toBe('k/0');
    // One for the trim, one for the raw result's JSON.
    expect(listings).toBeLessThanOrEqual(2);
  });

  it('stores a result nested 20,000 levels deep byte for byte, as JSON.stringify writes shallower ones', async () => {
    // JSON.parse reads any depth; JSON.stringify overflows the stack at a few thousand levels,
    // which made fit throw a RangeError while storing the raw result.
    const text = `${'{"z":0,"a":'.repeat(20_000)}[1,"é😀"]${'}'.repeat(20_000)}`;
    const out = await fit(JSON.parse(text) as unknown, {}, { store, principal: 'alice', tool: 'deep', now: NOW });
    expect(out.completeness?.trimmed?.[0]).toMatchObject({ kind: 'depth' });
    expect((await readStored(store, out.resources?.[0]?.uri ?? '', 'alice', NOW())).toString('utf8') === text).toBe(true);
  });

  it('points a cursor into stored raw bytes only where they hold the data, so every cursor pages', async () => {
    const rows = { rows: Array.from({ length: 50 }, (_, id) => ({ id })) };
    // Raw bytes that are the value itself (an MCP result's JSON text): the list is at /rows in them.
    const same = await fit(rows, { maxItems: 10 }, { store, principal: 'alice', now: NOW, raw: JSON.stringify(rows), rawMimeType: 'application/json' });
    const p = await page(same.completeness?.next?.value as string, 'alice', { store, now: NOW, pageSize: 5 });
    expect(p.data).toEqual([10, 11, 12, 13, 14].map((id) => ({ id })));
    // Raw bytes that say something else hold no list to page: no cursor rather than a dead one.
    const other = await fit(rows, { maxItems: 10 }, { store, principal: 'alice', now: NOW, raw: 'a text beside the rows', rawMimeType: 'text/plain' });
    expect(other.completeness?.state).toBe('truncated');
    expect(other.completeness?.next ?? null).toBeNull();
    expect(other.resources?.length).toBe(1);
  });
});
