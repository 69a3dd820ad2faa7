import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { oldestFirst } from '../../src/store/oldest-first.js';
import { createMemoryStore, type AuditRecord } from '../../src/store/index.js';

describe('the oldest-first queue of the memory store', () => {
  it('gives entries back in the order they were added, skipping those no longer live', () => {
    const q = oldestFirst<string>();
    for (const s of ['a', 'b', 'c', 'd']) q.add(s);
    const gone = new Set(['a', 'c']);
    const live = (s: string): boolean => !gone.has(s);
    expect(q.takeOldest(live)).toBe('b');
    expect(q.takeOldest(live)).toBe('d');
    expect(q.takeOldest(live)).toBeUndefined();
    expect(q.length).toBe(0);
  });

  it('forgets refused entries at once with keepOnly', () => {
    const q = oldestFirst<number>();
    for (let i = 0; i < 10; i++) q.add(i);
    q.keepOnly((n) => n % 3 === 0);
    expect(q.length).toBe(4);
    expect(q.takeOldest(() => true)).toBe(0);
    expect(q.takeOldest(() => true)).toBe(3);
  });

  it('agrees with a plain array model over any sequence of adds, takes and filters', () => {
    type Op = { kind: 'add' } | { kind: 'take'; dead: number } | { kind: 'keep'; mod: number };
    const op = fc.oneof(
      fc.constant<Op>({ kind: 'add' }),
      fc.record({ kind: fc.constant('take' as const), dead: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ kind: fc.constant('keep' as const), mod: fc.integer({ min: 2, max: 5 }) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
      const q = oldestFirst<number>();
      let model: number[] = [];
      let next = 0;
      for (const o of ops) {
        if (o.kind === 'add') { q.add(next); model.push(next++); continue; }
        // An entry is dead when its number ends in the chosen digit (mod 5).
        const live = o.kind === 'take' ? (n: number) => n % 5 !== o.dead : (n: number) => n % o.mod !== 0;
        if (o.kind === 'keep') { q.keepOnly(live); model = model.filter(live); continue; }
        const at = model.findIndex(live);
        const expected = at < 0 ? undefined : model[at];
        model = at < 0 ? [] : model.slice(at + 1);
        expect(q.takeOldest(live)).toBe(expected);
      }
      expect(q.length).toBe(model.length);
    }), { numRuns: 200 });
  });
});

const record = (id: string, second: number): AuditRecord => ({
  callId: id, tool: 'search', principal: 'alice', startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  finishedAt: '2026-01-01T01:00:00.000Z', status: 'succeeded', argsDigest: 'sha256:aa', envelopeDigest: null, detail: {},
});

describe('dropping the oldest audit records after a prune', () => {
  it('drops a call id written again after a prune by its new place, not its old one', async () => {
    const dropped: string[] = [];
    const store = createMemoryStore({ maxAuditRecords: 3, onEvict: (e) => dropped.push(e.id) });
    await store.appendAudit(record('a', 1));
    await store.appendAudit(record('b', 2));
    expect(await store.pruneAudit?.('2026-01-01T00:00:01.500Z', 100)).toBe(1); // 'a' goes
    await store.appendAudit(record('c', 3));
    await store.appendAudit(record('a', 4)); // the same id, now the newest
    await store.appendAudit(record('d', 5));
    expect(dropped).toEqual(['b']);
    expect((await store.listAudit()).map((r) => r.callId)).toEqual(['c', 'a', 'd']);
  });
});
