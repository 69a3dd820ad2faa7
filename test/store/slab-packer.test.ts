import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSlabPacker, type Packed } from '../../src/store/slab-packer.js';
import { createMemoryStore, type AuditRecord } from '../../src/store/index.js';

const record = (i: number, note: string): AuditRecord => ({
  callId: `c${i}`, tool: 'echo', principal: 'p', startedAt: new Date(1_700_000_000_000 + i).toISOString(), finishedAt: new Date(1_700_000_000_000 + i).toISOString(),
  status: 'succeeded', argsDigest: 'sha256:' + '0'.repeat(64), envelopeDigest: null, detail: { i, note },
});

describe('the slab packer of audit texts', () => {
  it('never writes over a text that was not released, whatever is packed and released around it', () => {
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('pack' as const), text: fc.string({ unit: 'grapheme', maxLength: 12 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat(), twice: fc.boolean() }) },
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
      // Small slabs, so texts share them and slabs empty and come back often.
      const packer = createSlabPacker({ slabBytes: 96, keepFree: 2 });
      const live: { packed: Packed; text: string }[] = [];
      for (const o of ops) {
        if (o.kind === 'pack') live.push({ packed: packer.pack(o.text), text: o.text });
        else if (live.length > 0) {
          const [gone] = live.splice(o.pick % live.length, 1);
          if (gone === undefined) continue;
          packer.release(gone.packed);
          // A second release of the same text must not free room that another text holds.
          if (o.twice) packer.release(gone.packed);
        }
        for (const { packed, text } of live) expect(packed.bytes.toString('utf8')).toBe(text);
      }
    }), { numRuns: 300 });
  });

  it('uses emptied slabs again instead of allocating new ones', () => {
    const packer = createSlabPacker({ slabBytes: 4096, keepFree: 4 });
    const window: Packed[] = [];
    for (let i = 0; i < 20_000; i++) {
      window.push(packer.pack(`{"record":${i},"text":"${'x'.repeat(100)}"}`));
      if (window.length > 50) packer.release(window.shift() as Packed);
    }
    // 50 live texts of ~120 bytes fit in two slabs; without reuse this takes ~600.
    expect(packer.stats.made).toBeLessThanOrEqual(4);
  });

  it('gives a text that may not fit a quarter of a slab a buffer of its own', () => {
    const packer = createSlabPacker({ slabBytes: 64 });
    const big = packer.pack('y'.repeat(40));
    expect(big.slab).toBeNull();
    expect(big.bytes.toString('utf8')).toBe('y'.repeat(40));
    packer.release(big);
    expect(packer.stats.made).toBe(0);
  });

  it('keeps the memory store reading back every record it still holds while it drops the oldest', async () => {
    const store = createMemoryStore({ maxAuditRecords: 300, onEvict: () => undefined });
    for (let i = 0; i < 3000; i++) await store.appendAudit(record(i, `note ${i} ✓ ${'z'.repeat(i % 200)}`));
    await store.pruneAudit?.(new Date(1_700_000_000_000 + 2800).toISOString(), 100);
    const kept = await store.listAudit({ limit: 1000 });
    expect(kept).toHaveLength(200);
    for (const r of kept) {
      const i = (r.detail as { i: number }).i;
      expect(i).toBeGreaterThanOrEqual(2800);
      expect(r).toEqual(record(i, `note ${i} ✓ ${'z'.repeat(i % 200)}`));
    }
  });
});
