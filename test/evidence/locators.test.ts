import { describe, expect, it } from 'vitest';
import { createAjv2020, isTrcError } from '../../src/contract/index.js';
import { EvidenceSchema } from '../../src/contract/typebox.js';
import { apiEvidence, documentEvidence, recordEvidence, urlEvidence } from '../../src/evidence/index.js';

const schemaValid = createAjv2020().compile(EvidenceSchema);

function thrownCode(fn: () => unknown): { code: string; pointer: unknown } | null {
  try {
    fn();
    return null;
  } catch (e) {
    return isTrcError(e) ? { code: e.code, pointer: e.data?.['pointer'] } : { code: 'not a TrcError', pointer: undefined };
  }
}

describe('evidence locator builders', () => {
  it('builds record evidence pointing at each column of the record', () => {
    const ev = recordEvidence({ id: 'ev_001', table: 'orders', primaryKey: 'ord_1001', columns: ['status', 'shipped_at'], source: 'orders.primary', observedAt: '2026-08-31T10:20:00Z' });
    expect(ev).toEqual({
      evidence_id: 'ev_001',
      kind: 'record',
      source: 'orders.primary',
      observed_at: '2026-08-31T10:20:00Z',
      locator: { table: 'orders', primary_key: 'ord_1001', columns: ['status', 'shipped_at'] },
      supports: ['/data/status', '/data/shipped_at'],
    });
    expect(schemaValid(ev)).toBe(true);
  });

  it('escapes column names and nests under a record pointer', () => {
    const ev = recordEvidence({ id: 'ev_2', table: 't', primaryKey: { a: 1, b: 2 }, columns: ['a/b', 'c~d'], recordPointer: '/data/items/3' });
    expect(ev.supports).toEqual(['/data/items/3/a~1b', '/data/items/3/c~0d']);
  });

  it('builds document, URL and API evidence that is schema-valid', () => {
    const all = [
      documentEvidence({ id: 'ev_doc', document: 'refund-policy.md', version: '2026-07', paragraph: 3, line: 12, supports: ['/data/refundable'] }),
      urlEvidence({ id: 'ev_web', url: 'https://example.com/report', version: 'v3', supports: ['/data/revenue'] }),
      urlEvidence({ id: 'ev_web2', url: 'https://example.com/report', retrievedAt: '2026-09-01T02:00:00Z', supports: ['/data/revenue'] }),
      apiEvidence({ id: 'ev_api', endpoint: 'GET /v1/orders/ord_1001', responsePath: '/order/status', supports: ['/data/status'] }),
    ];
    for (const ev of all) expect(schemaValid(ev), JSON.stringify(ev)).toBe(true);
    expect(all[0]?.locator).toEqual({ document: 'refund-policy.md', version: '2026-07', paragraph: 3, line: 12 });
    expect(all[3]?.locator).toEqual({ url: 'GET /v1/orders/ord_1001', response_path: '/order/status' });
  });

  it('refuses locators too coarse to check against, with a stable code and a pointer', () => {
    expect(thrownCode(() => documentEvidence({ id: 'ev', document: 'd', version: '1', supports: ['/data/x'] }))).toEqual({ code: 'EVIDENCE_INVALID', pointer: '/locator' });
    expect(thrownCode(() => urlEvidence({ id: 'ev', url: 'https://x', supports: ['/data/x'] } as never))).toEqual({ code: 'EVIDENCE_INVALID', pointer: '/locator' });
    expect(thrownCode(() => recordEvidence({ id: 'ev', table: 't', primaryKey: 1, columns: [] }))).toEqual({ code: 'EVIDENCE_INVALID', pointer: '/supports' });
    expect(thrownCode(() => apiEvidence({ id: 'ev', endpoint: 'GET /', responsePath: 'order', supports: ['/data'] }))).toEqual({ code: 'EVIDENCE_INVALID', pointer: '/locator/response_path' });
    expect(thrownCode(() => documentEvidence({ id: 'ev', document: 'd', version: '1', page: 1, supports: ['data/x'] }))).toEqual({ code: 'EVIDENCE_INVALID', pointer: '/supports/0' });
  });

  it('refuses an id or timestamp the schema would reject', () => {
    expect(thrownCode(() => recordEvidence({ id: 'ev 1', table: 't', primaryKey: 1, columns: ['a'] }))?.code).toBe('EVIDENCE_INVALID');
    expect(thrownCode(() => recordEvidence({ id: 'ev1', table: 't', primaryKey: 1, columns: ['a'], observedAt: 'yesterday' }))?.code).toBe('EVIDENCE_INVALID');
  });
});
