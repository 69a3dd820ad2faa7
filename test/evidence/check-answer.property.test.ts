/**
 * Property: an answer written from an envelope's own data, with correct markers, is fully
 * supported; changing the meaning of one value in it flips exactly that claim.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { checkAnswer } from '../../src/evidence/index.js';

type Field =
  | { kind: 'int'; value: number; style: number; delta: number }
  | { kind: 'decimal'; cents: number; style: number; delta: number }
  | { kind: 'id'; prefix: string; n: number; delta: number }
  | { kind: 'time'; minute: number; zone: number; style: number; delta: number }
  | { kind: 'quote'; words: string[]; style: number };

const LABELS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const WORDS = ['handle', 'with', 'care', 'fragile', 'blue', 'green', 'north', 'river', '易碎', '轻放'];
const ZONES = [0, 480, 540, -300];
const BASE_MINUTE = Date.UTC(2020, 0, 1) / 60_000;

const delta = fc.integer({ min: 1, max: 5000 }).chain((d) => fc.constantFrom(d, -d));
const field: fc.Arbitrary<Field> = fc.oneof(
  fc.record({ kind: fc.constant('int' as const), value: fc.integer({ min: -1_000_000, max: 2_000_000_000 }), style: fc.nat(3), delta }),
  fc.record({ kind: fc.constant('decimal' as const), cents: fc.integer({ min: 1, max: 10_000_000 }), style: fc.nat(1), delta }),
  fc.record({ kind: fc.constant('id' as const), prefix: fc.constantFrom('ord', 'sku', 'inv', 'usr'), n: fc.integer({ min: 100, max: 999_999 }), delta }),
  fc.record({ kind: fc.constant('time' as const), minute: fc.integer({ min: 0, max: 5_000_000 }), zone: fc.nat(3), style: fc.nat(3), delta }),
  fc.record({ kind: fc.constant('quote' as const), words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), style: fc.nat(1) }),
);

const pad = (n: number) => String(n).padStart(2, '0');

function isoOf(minute: number): string {
  return new Date((BASE_MINUTE + minute) * 60_000).toISOString().replace('.000Z', 'Z');
}

function zoneName(offset: number, style: number): string {
  if (offset === 0) return style % 2 === 0 ? 'UTC' : '(UTC)';
  if (offset === 480) return ['（中国标准时间）', '(UTC+8)', '北京时间', 'GMT+08:00'][style] ?? '(UTC+8)';
  if (offset === 540) return style % 2 === 0 ? 'JST' : '(UTC+9)';
  return '(UTC-5)';
}

function renderTime(minute: number, zoneIndex: number, style: number): string {
  const offset = ZONES[zoneIndex] ?? 0;
  const d = new Date((BASE_MINUTE + minute + offset) * 60_000);
  const [y, mo, da, h, mi] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()];
  const date = style === 3 ? `${y}年${mo}月${da}日` : `${y}-${pad(mo)}-${pad(da)}`;
  return `${date} ${pad(h)}:${pad(mi)} ${zoneName(offset, style)}`;
}

function dataValue(f: Field): unknown {
  switch (f.kind) {
    case 'int':
      return f.value;
    case 'decimal':
      return f.cents / 100;
    case 'id':
      return `${f.prefix}_${f.n}`;
    case 'time':
      return isoOf(f.minute);
    case 'quote':
      return f.words.join(' ');
  }
}

/** The value as the answer states it; `mutate` changes its meaning, not only its format. */
function render(f: Field, mutate: boolean): string {
  switch (f.kind) {
    case 'int': {
      const v = mutate ? f.value + f.delta : f.value;
      return [String(v), v.toLocaleString('en-US'), `${v} units`, `${v.toLocaleString('en-US')} 件`][f.style] ?? String(v);
    }
    case 'decimal': {
      const v = ((mutate ? f.cents + f.delta : f.cents) / 100).toFixed(2);
      return f.style === 0 ? v : `${v} kg`;
    }
    case 'id':
      return `${f.prefix}_${mutate ? f.n + Math.abs(f.delta) : f.n}`;
    case 'time':
      return renderTime(mutate ? f.minute + f.delta : f.minute, f.zone, f.style);
    case 'quote': {
      const s = mutate ? [...f.words, 'zulu'].join(' ') : f.words.join(' ');
      return f.style === 0 ? `"${s}"` : `「${s}」`;
    }
  }
}

function envelopeOf(fields: readonly Field[]): Envelope {
  const data: Record<string, unknown> = {};
  fields.forEach((f, i) => (data[`f${i}`] = dataValue(f)));
  return {
    contract_version: 'agent.tool.result.v1',
    call: { tool_name: 'lookup', call_id: 'call_prop', attempt: 1 },
    status: 'succeeded',
    data,
    completeness: { state: 'complete', returned_items: 1, available_items: 1, next: null },
    provenance: { source_type: 'database', source_id: 'records', retrieved_at: '2031-01-01T00:00:00Z', observed_at: null },
    evidence: fields.map((_, i) => ({ evidence_id: `ev_${i}`, kind: 'record', locator: { table: 'records', primary_key: 1, columns: [`f${i}`] }, supports: [`/data/f${i}`] })),
    side_effect: { occurred: false, operation: 'read' },
    warnings: [],
  };
}

function answerOf(fields: readonly Field[], mutated: number, chinese: readonly boolean[]): string {
  return fields
    .map((f, i) => {
      const value = render(f, i === mutated);
      const label = LABELS[i] ?? `x`;
      return chinese[i] === true ? `${label}为 ${value} [ev_${i}]。` : `Field ${label} is ${value} [ev_${i}].`;
    })
    .join(' ');
}

const scenario = fc
  .array(field, { minLength: 1, maxLength: LABELS.length })
  .chain((fields) => fc.tuple(fc.constant(fields), fc.nat(fields.length - 1), fc.array(fc.boolean(), { minLength: fields.length, maxLength: fields.length })));

describe('checkAnswer on answers generated from their own data', () => {
  it('reports every claim supported when the answer restates the data with correct markers', () => {
    fc.assert(
      fc.property(scenario, ([fields, , chinese]) => {
        const env = envelopeOf(fields);
        expect(validate(env).valid).toBe(true);
        const report = checkAnswer(answerOf(fields, -1, chinese), [env]);
        expect(report.claims.map((c) => c.verdict)).toEqual(fields.map(() => 'supported'));
        expect(report.ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('flips exactly the claim whose value was changed to unsupported', () => {
    fc.assert(
      fc.property(scenario, ([fields, k, chinese]) => {
        const report = checkAnswer(answerOf(fields, k, chinese), [envelopeOf(fields)]);
        expect(report.claims.map((c) => c.verdict)).toEqual(fields.map((_, i) => (i === k ? 'unsupported' : 'supported')));
        expect(report.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
