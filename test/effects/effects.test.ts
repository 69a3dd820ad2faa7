import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryCandidate } from '../../src/contract/index.js';
import { applyStatePatch, argsDigest, beginWrite, decideAfterLookup, decideMemoryWrite, idempotencyKey, settleWrite, statePatch } from '../../src/effects/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-effects-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const now = '2026-11-30T00:00:00.000Z';

describe('idempotencyKey', () => {
  it('is stable under key order of the args and changes with tool, args, principal and scope', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 5 }), fc.integer()), fc.string({ minLength: 1 }), (args, principal) => {
        const reversed = Object.fromEntries(Object.entries(args).reverse());
        const k = idempotencyKey({ tool: 't', args, principal });
        expect(idempotencyKey({ tool: 't', args: reversed, principal })).toBe(k);
        expect(idempotencyKey({ tool: 'u', args, principal })).not.toBe(k);
        expect(idempotencyKey({ tool: 't', args, principal: principal + 'x' })).not.toBe(k);
        expect(idempotencyKey({ tool: 't', args, principal, scope: 's' })).not.toBe(k);
        expect(idempotencyKey({ tool: 't', args: { ...args, __extra: 1 }, principal })).not.toBe(k);
      }),
    );
  });
});

describe('decideAfterLookup', () => {
  const cases: [Parameters<typeof decideAfterLookup>[0], boolean, boolean, boolean, string][] = [
    [{ state: 'found', external_id: 'x' }, false, false, false, 'confirm'],
    [{ state: 'absent' }, true, false, true, 'retry_same_key'],
    [{ state: 'absent' }, false, true, true, 'retry_same_key'],
    [{ state: 'absent' }, false, false, true, 'report_unknown'],
    [{ state: 'absent' }, true, true, false, 'report_unknown'],
    [{ state: 'unknown' }, true, true, true, 'report_unknown'],
  ];
  for (const [lookup, idempotent, honoursKey, attemptsLeft, want] of cases) {
    it(`${lookup.state} with idempotent=${idempotent} honoursKey=${honoursKey} attemptsLeft=${attemptsLeft} ⇒ ${want}`, () => {
      expect(decideAfterLookup(lookup, { idempotent, honoursKey, attemptsLeft })).toBe(want);
    });
  }
});

const stores: [string, () => Promise<Store>][] = [
  ['memory', async () => createMemoryStore()],
  ['SQLite', async () => openSqliteStore({ path: join(dir, `s-${Math.random().toString(36).slice(2)}.db`) })],
];

for (const [name, open] of stores) {
  describe(`ledger protocol on the ${name} store`, () => {
    it('runs a new key, refuses it in flight, replays it once settled, refuses other args', async () => {
      const store = await open();
      const input = { key: 'k1', tool: 'pay', principal: 'u1', argsDigest: argsDigest({ a: 1 }), callId: 'c1', now };
      expect((await beginWrite(store, input)).kind).toBe('run');
      expect(await beginWrite(store, { ...input, callId: 'c2' })).toMatchObject({ kind: 'refuse', code: 'IDEMPOTENCY_KEY_IN_FLIGHT' });
      const envelope = { status: 'succeeded', error: null };
      await settleWrite(store, 'k1', { state: 'succeeded', envelope: envelope as never, attempts: 1, now });
      expect(await beginWrite(store, { ...input, callId: 'c3' })).toMatchObject({ kind: 'replay', envelope });
      expect(await beginWrite(store, { ...input, argsDigest: argsDigest({ a: 2 }) })).toMatchObject({ kind: 'refuse', code: 'IDEMPOTENCY_KEY_REUSED' });
      await settleWrite(store, 'k1', { state: 'unknown', attempts: 1, now });
      expect((await beginWrite(store, input)).kind).toBe('reconcile');
      await store.close();
    });

    it('refuses a stale state patch and keeps the newer value', async () => {
      const store = await open();
      const source = { call_id: 'c1', tool_name: 'order_get', retrieved_at: now };
      const first = await applyStatePatch(store, statePatch({ key: 'order', value: { v: 1 }, baseVersion: null, source }), now);
      expect(first).toMatchObject({ ok: true, entry: { version: 1 } });
      const second = await applyStatePatch(store, statePatch({ key: 'order', value: { v: 2 }, baseVersion: 1, source: { ...source, call_id: 'c2' } }), now);
      expect(second).toMatchObject({ ok: true, entry: { version: 2 } });
      const stale = await applyStatePatch(store, statePatch({ key: 'order', value: { v: 'old' }, baseVersion: 1, source: { ...source, call_id: 'c3' } }), now);
      expect(stale).toMatchObject({ ok: false, code: 'STATE_VERSION_STALE', current: { version: 2 } });
      expect((await store.getState('order'))?.value).toEqual({ v: 2 });
      const bad = await applyStatePatch(store, { ...statePatch({ key: 'order', value: 1, baseVersion: 2, source }), version: 9 }, now);
      expect(bad).toMatchObject({ ok: false, code: 'STATE_PATCH_BAD_VERSION' });
      await store.close();
    });
  });
}

describe('decideMemoryWrite (W5)', () => {
  const rows = JSON.parse(readFileSync(new URL('./fixtures/memory-decisions.json', import.meta.url), 'utf8')) as {
    source: MemoryCandidate['source'];
    origin: string;
    policy: boolean;
    decision: string;
  }[];
  for (const r of rows) {
    it(`${r.source} from ${r.origin} with inference ${r.policy ? 'allowed' : 'not allowed'} ⇒ ${r.decision}`, () => {
      const d = decideMemoryWrite({ fact: 'f', source: r.source, confidence: 'medium' }, { originSourceType: r.origin, policy: { allowInference: r.policy } });
      expect(d.decision).toBe(r.decision);
      expect(d.reason.length).toBeGreaterThan(0);
    });
  }
});
