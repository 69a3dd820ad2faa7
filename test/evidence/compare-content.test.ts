import { describe, expect, it } from 'vitest';
import { compareContent } from '../../src/evidence/index.js';

const structured = { order_id: 'ord_1001', status: 'shipped', shipped_at: '2026-08-31T10:20:00Z', quantity: 17, amount: 1000 };

describe('compareContent (E7)', () => {
  it('accepts JSON text that is the same value in another key order and spacing', () => {
    const text = JSON.stringify({ quantity: 17, amount: 1000, status: 'shipped', order_id: 'ord_1001', shipped_at: '2026-08-31T10:20:00Z' }, null, 2);
    expect(compareContent(text, structured)).toEqual({ verdict: 'consistent', mode: 'json', citable: true, findings: [] });
  });

  it('rejects JSON text that differs in one field and names the field', () => {
    const r = compareContent(JSON.stringify({ ...structured, quantity: 18 }), structured);
    expect(r.verdict).toBe('mismatch');
    expect(r.citable).toBe(false);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]?.rule).toBe('E7.json-mismatch');
    expect(r.findings[0]?.message).toContain('/quantity');
  });

  it('treats 1000 and 1000.0 as the same JSON number', () => {
    expect(compareContent('{"n": 1000.0}', { n: 1000 }).verdict).toBe('consistent');
  });

  it('accepts prose whose every value agrees, whatever the format', () => {
    const r = compareContent('Order ord_1001 shipped at 2026-08-31 18:20 (UTC+8): 17 units, 1,000 in total.', structured);
    expect(r.verdict).toBe('consistent');
    expect(r.mode).toBe('values');
  });

  it('accepts Chinese prose that agrees', () => {
    expect(compareContent('订单 ord_1001 已发货，发货时间为 2026-08-31 18:20（中国标准时间），共 17 件。', structured).verdict).toBe('consistent');
  });

  it('reports each value of the prose that structuredContent does not contain', () => {
    const r = compareContent('Order ord_1001 shipped at 18:20 UTC, 12 units.', structured, { textPointer: '/content/1/text' });
    expect(r.verdict).toBe('mismatch');
    expect(r.citable).toBe(false);
    expect(r.findings.map((f) => [f.rule, f.pointer])).toEqual([
      ['E7.value-mismatch', '/content/1/text'],
      ['E7.value-mismatch', '/content/1/text'],
    ]);
    expect(r.findings.map((f) => f.message).join(' ')).toMatch(/18:20 UTC[\s\S]*"12"/);
  });

  it('accepts prose that counts a list or quotes a JSON snippet of the same data', () => {
    const list = { items: [{ id: 'itm_001' }, { id: 'itm_002' }, { id: 'itm_003' }] };
    expect(compareContent('Found 3 items: itm_001, itm_002 and itm_003.', list).verdict).toBe('consistent');
    expect(compareContent('Found 4 items.', list).verdict).toBe('mismatch');
    expect(compareContent('Result: {"quantity": 17}', structured).verdict).toBe('consistent');
  });

  it('calls prose with nothing checkable unverifiable, not a mismatch', () => {
    expect(compareContent('Done.', structured)).toMatchObject({ verdict: 'unverifiable', citable: true });
  });

  it('does not crash on malformed JSON-looking text or on values JSON cannot hold', () => {
    expect(compareContent('{"a": 1', { a: 1 }).mode).toBe('values');
    expect(compareContent('{"a": 1}', { a: Number.NaN }).verdict).toBe('mismatch');
  });
});
