import { describe, expect, it } from 'vitest';
import { createAjv2020, isTrcError, type Envelope } from '../../src/contract/index.js';
import { ConflictSchema } from '../../src/contract/typebox.js';
import { aggregate, detectConflicts } from '../../src/evidence/index.js';
import { envelope } from './helpers/fixtures.js';

const conflictValid = createAjv2020().compile(ConflictSchema);
const a = envelope('warehouse-a');
const b = envelope('warehouse-b');

describe('detectConflicts (E5)', () => {
  it('keeps the seed\'s two warehouse stocks side by side, unresolved', () => {
    const conflicts = detectConflicts([a, b], { identity: { subject: '/product_id', fields: ['stock'] } });
    expect(conflicts).toEqual([
      {
        field: 'stock',
        subject: 'sku_001',
        values: [
          { value: 10, source: 'warehouse_a', retrieved_at: '2026-09-01T02:00:00Z', evidence_id: 'ev_wh_a' },
          { value: 0, source: 'warehouse_b', retrieved_at: '2026-09-01T02:05:00Z', evidence_id: 'ev_wh_b' },
        ],
        resolution: 'unresolved',
      },
    ]);
    for (const c of conflicts) expect(conflictValid(c)).toBe(true);
  });

  it('reports nothing when the sources agree or the subjects differ', () => {
    const same: Envelope = { ...b, data: { ...(b.data as object), stock: 10 } };
    expect(detectConflicts([a, same], { identity: { subject: '/product_id', fields: ['stock'] } })).toEqual([]);
    const other: Envelope = { ...b, data: { ...(b.data as object), product_id: 'sku_002' } };
    expect(detectConflicts([a, other], { identity: { subject: '/product_id', fields: ['stock'] } })).toEqual([]);
  });

  it('compares every primitive field by default and finds records inside lists', () => {
    const list = (source: string, rows: unknown[]): Envelope => ({ ...a, provenance: { ...a.provenance!, source_id: source }, data: { rows }, evidence: [] });
    const conflicts = detectConflicts(
      [list('crm', [{ id: 'c1', email: 'x@a.com', tier: 'gold' }]), list('billing', [{ id: 'c1', email: 'x@a.com', tier: 'silver' }])],
      { identity: { subject: '/id', records: '/data/rows' } },
    );
    expect(conflicts.map((c) => [c.subject, c.field, c.values.map((v) => [v.source, v.value])])).toEqual([
      ['c1', 'tier', [['crm', 'gold'], ['billing', 'silver']]],
    ]);
  });

  it('resolves only under a declared rule', () => {
    const latest = detectConflicts([a, b], { identity: { subject: '/product_id', fields: ['stock'] }, rules: { stock: { kind: 'latest_retrieved' } } });
    expect(latest[0]).toMatchObject({ resolution: 'resolved', rule: 'latest_retrieved', resolved_value: 0 });
    const preferred = detectConflicts([a, b], { identity: { subject: '/product_id', fields: ['stock'] }, rules: { stock: { kind: 'prefer_source', order: ['warehouse_a'] } } });
    expect(preferred[0]).toMatchObject({ resolution: 'resolved', resolved_value: 10 });
    const noMatch = detectConflicts([a, b], { identity: { subject: '/product_id', fields: ['stock'] }, rules: { stock: { kind: 'prefer_source', order: ['erp'] } } });
    expect(noMatch[0]?.resolution).toBe('unresolved');
    for (const c of [...latest, ...preferred, ...noMatch]) expect(conflictValid(c)).toBe(true);
  });

  it('accepts a subject function', () => {
    const conflicts = detectConflicts([a, b], { identity: { subject: (r) => `product:${String((r as { product_id: string }).product_id)}`, fields: ['stock'] } });
    expect(conflicts[0]?.subject).toBe('product:sku_001');
  });
});

describe('aggregate (E6)', () => {
  it('sums stock over warehouses under a declared calculation, as in the seed', () => {
    const r = aggregate({ operation: 'sum', field: 'stock', by: 'warehouse', resultPointer: '/data/total_stock' }, [
      { label: 'warehouse_a.stock', value: 10 },
      { label: 'warehouse_b.stock', value: 0 },
    ]);
    expect(r).toEqual({
      value: 10,
      calculation: { formula: 'sum(stock by warehouse)', inputs: ['warehouse_a.stock', 'warehouse_b.stock'], result_pointer: '/data/total_stock' },
    });
  });

  it('computes min, max, count and mean', () => {
    const inputs = [{ label: 'a', value: 4 }, { label: 'b', value: 1 }, { label: 'c', value: 7 }];
    expect(['min', 'max', 'count', 'mean'].map((op) => aggregate({ operation: op as 'min', field: 'x' }, inputs).value)).toEqual([1, 7, 3, 4]);
  });

  it('refuses to aggregate without a declared rule or with a non-number, naming the input', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
        return null;
      } catch (e) {
        return isTrcError(e) ? [e.code, e.data?.['pointer']] : ['other'];
      }
    };
    expect(code(() => aggregate(undefined, [{ label: 'a', value: 1 }]))).toEqual(['AGGREGATE_UNDECLARED', '/rule']);
    expect(code(() => aggregate({ operation: 'sum', field: 'stock' }, [{ label: 'a', value: 1 }, { label: 'b', value: '2' }]))).toEqual(['AGGREGATE_INPUT', '/inputs/1/value']);
    expect(code(() => aggregate({ operation: 'sum', field: 'stock' }, [{ label: 'a', value: 1 }, { label: 'a', value: 2 }]))).toEqual(['AGGREGATE_INPUT', '/inputs/1/label']);
    expect(code(() => aggregate({ operation: 'sum', field: 'stock' }, []))).toEqual(['AGGREGATE_INPUT', '/inputs']);
  });
});
