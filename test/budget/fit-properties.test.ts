import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit, measureVisible, o200kCounter, type Budget } from '../../src/budget/index.js';
import { CONTRACT_VERSION, resolvePointer, sha256Hex, validate, type Envelope, type Evidence } from '../../src/contract/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { codePoints, nodes, readStored } from './helpers.js';

const RUNS = Number(process.env['FC_RUNS'] ?? 150);
let store: Store;
beforeAll(async () => {
  store = await openSqliteStore({ path: ':memory:' });
});
afterAll(async () => {
  await store.close();
});

const json = fc.jsonValue({ maxDepth: 4, depthSize: 'small', stringUnit: 'grapheme' });
const tree = fc.oneof(fc.array(json, { maxLength: 12 }), fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 8 }));
const budgets: fc.Arbitrary<Required<Budget>> = fc.record({
  maxTokens: fc.integer({ min: 32, max: 600 }),
  maxItems: fc.integer({ min: 0, max: 6 }),
  maxStringChars: fc.integer({ min: 0, max: 40 }),
  maxDepth: fc.integer({ min: 0, max: 5 }),
  maxBytes: fc.integer({ min: 128, max: 6000 }),
});

/** The model-visible part meets every limit of the budget. */
function expectWithinBudget(env: Envelope, b: Required<Budget>): void {
  const size = measureVisible(env, o200kCounter);
  expect(size.tokens).toBeLessThanOrEqual(b.maxTokens);
  expect(size.bytes).toBeLessThanOrEqual(b.maxBytes);
  for (const n of nodes(env.data)) {
    if (Array.isArray(n.value)) expect(n.value.length).toBeLessThanOrEqual(b.maxItems);
    if (typeof n.value === 'string') expect(codePoints(n.value)).toBeLessThanOrEqual(b.maxStringChars);
    const size = Array.isArray(n.value) ? n.value.length : n.value !== null && typeof n.value === 'object' ? Object.keys(n.value).length : 0;
    if (n.depth >= b.maxDepth) expect(size).toBe(0);
  }
}

/** Every difference between input and output is booked, and every book matches both sides. */
function expectExactBooks(input: unknown, env: Envelope): void {
  const trims = new Map((env.completeness?.trimmed ?? []).map((t) => [t.pointer, t]));
  for (const t of trims.values()) {
    const before = resolvePointer(input, t.pointer.slice('/data'.length));
    const after = resolvePointer(env, t.pointer);
    expect(before.ok && after.ok).toBe(true);
    if (!before.ok || !after.ok) continue;
    const count = (v: unknown, kind: string) =>
      kind === 'chars' ? codePoints(v as string) : Array.isArray(v) ? v.length : Object.keys(v as object).length;
    expect(t.kept).toBe(count(after.value, t.kind));
    expect(t.total).toBe(count(before.value, t.kind));
    expect(t.kept).toBeLessThan(t.total);
  }
  // Nothing silent: walk both trees; wherever the output holds less, a record must say so.
  const walk = (a: unknown, b: unknown, at: string): void => {
    if (typeof a === 'string') {
      if (a !== b) expect(trims.get('/data' + at)?.kind).toBe('chars');
    } else if (Array.isArray(a) && Array.isArray(b)) {
      if (b.length < a.length) expect(trims.has('/data' + at)).toBe(true);
      b.forEach((v, i) => walk(a[i], v, `${at}/${i}`));
    } else if (a !== null && typeof a === 'object' && b !== null && typeof b === 'object') {
      const keys = Object.keys(b);
      if (keys.length < Object.keys(a).length) expect(trims.has('/data' + at)).toBe(true);
      for (const k of keys) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    } else {
      expect(b).toEqual(a);
    }
  };
  walk(input, env.data, '');
}

describe('fit on random JSON trees and budgets', () => {
  it('always validates, meets the budget, books every trim exactly and stores the input byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(tree, budgets, async (value, budget) => {
        const out = await fit(value, budget, { store, principal: 'p1', tool: 'search' });
        expect(validate(out).findings).toEqual([]);
        expectWithinBudget(out, budget);
        expectExactBooks(value, out);
        const trimmed = (out.completeness?.trimmed ?? []).length > 0;
        if (!trimmed) {
          expect(out.data).toEqual(value);
          expect(out.status).toBe('succeeded');
          expect(out.resources).toBeUndefined();
          return;
        }
        expect(out.status).toBe('partial');
        expect(out.completeness?.state).toBe('truncated');
        expect(out.summary?.label).toBe('summary');
        const ref = out.resources?.[0];
        expect(ref).toBeDefined();
        if (ref === undefined) return;
        const stored = await readStored(store, ref.uri, 'p1');
        const expected = Buffer.from(JSON.stringify(value), 'utf8');
        expect(stored.equals(expected)).toBe(true);
        expect(ref.bytes).toBe(expected.length);
        expect(ref.sha256).toBe(sha256Hex(expected));
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps evidence pointers resolving: moved to the kept node, or re-pointed at the stored resource', async () => {
    const seen = { moved: 0, repointed: 0 };
    await fc.assert(
      fc.asyncProperty(tree, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), budgets, async (value, picks, budget) => {
        const all = nodes(value).filter((n) => n.pointer !== '');
        if (all.length === 0) return;
        const chosen = [...new Set(picks.map((p) => (all[p % all.length] as { pointer: string }).pointer))];
        const evidence: Evidence[] = chosen.map((p, i) => ({ evidence_id: `ev_${i}`, supports: ['/data' + p] }));
        const input: Envelope = {
          contract_version: CONTRACT_VERSION,
          call: { tool_name: 'search', call_id: 'c1', attempt: 1 },
          status: 'succeeded',
          data: value,
          completeness: { state: 'complete', next: null },
          provenance: { source_type: 'api', source_id: 'search', retrieved_at: '2026-08-31T10:20:00Z' },
          evidence,
          side_effect: { occurred: false, operation: 'search' },
          warnings: [],
        };
        const raw = JSON.stringify(input);
        const out = await fit(input, budget, { store, principal: 'p2', raw });
        expect(validate(out).findings).toEqual([]);
        expectWithinBudget(out, budget);
        const resource = out.resources?.[0];
        const storedDoc = resource === undefined ? undefined : JSON.parse((await readStored(store, resource.uri, 'p2')).toString('utf8'));
        if (resource !== undefined) expect((await readStored(store, resource.uri, 'p2')).toString('utf8')).toBe(raw);
        out.evidence?.forEach((ev, i) => {
          const original = resolvePointer(value, (chosen[i] as string));
          expect(original.ok).toBe(true);
          if (!original.ok) return;
          for (const p of ev.supports) {
            if (p !== '/data' + chosen[i]) seen.moved++;
            const now = resolvePointer(out, p);
            expect(now.ok && now.value).toEqual(original.value);
          }
          if (ev.supports.length === 0) {
            seen.repointed++;
            expect(ev.locator?.resource_uri).toBe(resource?.uri);
            const path = ev.locator?.response_path as string;
            // Compared as JSON: the stored text cannot hold -0.
            expect(resolvePointer(storedDoc, path)).toEqual({ ok: true, value: JSON.parse(JSON.stringify(original.value)) });
          }
        });
      }),
      { numRuns: RUNS },
    );
    // Both paths were really exercised.
    expect(seen.moved).toBeGreaterThan(0);
    expect(seen.repointed).toBeGreaterThan(0);
  });
});
