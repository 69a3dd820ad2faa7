import { describe, expect, it } from 'vitest';
import { isTrcError, type Envelope, type Evidence } from '../../src/contract/index.js';
import { checkAnswer, lintEvidence, type EvidenceFinding } from '../../src/evidence/index.js';
import { envelope } from './helpers/fixtures.js';

const order = envelope('order-shipped');
const withEvidence = (ev: Evidence[], extra: Partial<Envelope> = {}): Envelope => ({ ...order, ...extra, evidence: ev });
const rules = (f: readonly EvidenceFinding[]) => f.map((x) => [x.rule, x.pointer]);

describe('lintEvidence', () => {
  it('finds nothing wrong with the seed order evidence', () => {
    expect(lintEvidence(order)).toEqual([]);
  });

  it('reports the seed\'s "ev_all" (bare source name supporting /data) as too coarse and bare', () => {
    const f = lintEvidence(withEvidence([{ evidence_id: 'ev_all', source: 'order_database', supports: ['/data'], observed_at: '2026-08-31T10:20:00Z' }]));
    expect(rules(f)).toEqual([
      ['E2.too-coarse', '/evidence/0/supports/0'],
      ['E2.bare-source', '/evidence/0/locator'],
    ]);
    expect(f.find((x) => x.rule === 'E2.bare-source')?.message).toContain('order_database');
  });

  it('accepts /data for a single-field record', () => {
    const f = lintEvidence(withEvidence([{ evidence_id: 'ev', locator: { table: 't', primary_key: 1 }, supports: ['/data'], observed_at: null }], { data: { stock: 10 }, provenance: { ...order.provenance!, observed_at: null } }));
    expect(f).toEqual([]);
  });

  it('reports a URL without version, retrieval time or position, but not a pinned one', () => {
    const bare = lintEvidence(withEvidence([{ evidence_id: 'ev_url', source: 'https://example.com/report', supports: ['/data/status'], observed_at: '2026-08-31T10:20:00Z' }]));
    expect(rules(bare)).toEqual([
      ['E2.bare-source', '/evidence/0/locator'],
      ['E2.url-unpinned', '/evidence/0/locator'],
    ]);
    const pinned = [
      { url: 'https://example.com/report', version: 'v3' },
      { url: 'https://example.com/report', retrieved_at: '2026-09-01T02:00:00Z' },
      { url: 'https://example.com/report#section-4' },
    ];
    for (const locator of pinned) {
      expect(lintEvidence(withEvidence([{ evidence_id: 'ev_url', locator, supports: ['/data/status'], observed_at: '2026-08-31T10:20:00Z' }]))).toEqual([]);
    }
  });

  it('reports supports that do not resolve, using strict pointer rules', () => {
    const f = lintEvidence(withEvidence([
      { evidence_id: 'ev', locator: { table: 'orders', primary_key: 'ord_1001' }, supports: ['/data/missing', '/data/constructor', '/data/status~2', '/data/status'], observed_at: '2026-08-31T10:20:00Z' },
    ]));
    expect(rules(f)).toEqual([
      ['E2.unresolved-support', '/evidence/0/supports/0'],
      ['E2.unresolved-support', '/evidence/0/supports/1'],
      ['E2.unresolved-support', '/evidence/0/supports/2'],
    ]);
    expect(f.every((x) => x.severity === 'error')).toBe(true);
  });

  it('reports missing observed_at when the source records event times', () => {
    const ev: Evidence = { evidence_id: 'ev', locator: { table: 'orders', primary_key: 'ord_1001' }, supports: ['/data/status'] };
    expect(rules(lintEvidence(withEvidence([ev])))).toEqual([['E4.observed-at-missing', '/evidence/0/observed_at']]);
    const noEventTime = withEvidence([ev], { provenance: { ...order.provenance!, observed_at: null } });
    expect(lintEvidence(noEventTime)).toEqual([]);
    expect(rules(lintEvidence(noEventTime, { observedAtSources: ['orders.primary'] }))).toEqual([['E4.observed-at-missing', '/evidence/0/observed_at']]);
  });

  it('reports observed_at later than retrieved_at as swapped', () => {
    const f = lintEvidence(withEvidence([{ evidence_id: 'ev', locator: { table: 'orders', primary_key: 'ord_1001' }, supports: ['/data/status'], observed_at: '2026-09-02T00:00:00Z' }]));
    expect(rules(f)).toEqual([['E4.observed-after-retrieved', '/evidence/0/observed_at']]);
  });

  it('reports stale evidence under a per-source freshness policy and a now', () => {
    const wh = envelope('warehouse-a');
    const policy = { freshness: { sources: { warehouse_a: 5 * 60_000 }, default: 86_400_000 } };
    expect(lintEvidence(wh, { ...policy, now: '2026-09-01T02:04:00Z' })).toEqual([]);
    const f = lintEvidence(wh, { ...policy, now: '2026-09-01T03:00:00Z' });
    expect(rules(f)).toEqual([['E4.stale', '/provenance/retrieved_at']]);
    expect(f[0]?.message).toMatch(/1h ago.*allows 5m/);
    // Another source falls back to the default.
    expect(lintEvidence(order, { ...policy, now: '2026-09-01T03:00:00Z' })).toEqual([]);
    expect(rules(lintEvidence(order, { ...policy, now: '2026-09-03T03:00:00Z' }))).toEqual([['E4.stale', '/provenance/retrieved_at']]);
  });

  it('reports a result with data but no evidence', () => {
    expect(rules(lintEvidence({ ...order, evidence: [] }))).toEqual([['E1.no-evidence', '/evidence']]);
  });
});

describe('bad policy input', () => {
  it('refuses an invalid now with a stable code instead of judging nothing stale', () => {
    for (const run of [() => lintEvidence(order, { now: 'soon', freshness: { default: 1 } }), () => checkAnswer('x 1 [ev_001].', [order], { now: 'soon' })]) {
      let code: string | undefined;
      try {
        run();
      } catch (e) {
        code = isTrcError(e) ? e.code : 'other';
      }
      expect(code).toBe('EVIDENCE_BAD_NOW');
    }
  });
});
