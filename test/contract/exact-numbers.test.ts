/**
 * Numbers a double cannot hold (docs/contract.md, "Numbers"): found with their pointers, kept
 * as their exact digits, both sides of every boundary (test/contract/fixtures/numbers/).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RULES, escapePointerToken, findInexactNumbers, isExactNumber, keepExactDigits, validateText } from '../../src/contract/index.js';
import { LINEAR_BOUND_10X, growth } from '../helpers/cpu-time.js';
import { numberText } from '../budget/json-element-arbitraries.js';

interface Case { readonly case: string; readonly exact: boolean }
const lines = readFileSync(new URL('./fixtures/numbers/cases.jsonl', import.meta.url), 'utf8').trim().split('\n');
/** The number as written on the line: the text after `"value":`. */
const written = (line: string) => /"value":([^}]+)\}$/u.exec(line)?.[1] as string;

describe('which numbers a double holds', () => {
  it.each(lines.map((l) => [(JSON.parse(l) as Case).case, l] as const))('%s', (_name, line) => {
    const { exact } = JSON.parse(line) as Case;
    const text = written(line);
    expect(isExactNumber(text)).toBe(exact);
    const found = findInexactNumbers(line);
    expect(found).toEqual(exact ? [] : [{ pointer: '/value', text, read: Number(text) }]);
    const kept = keepExactDigits(JSON.parse(line), found) as { value: unknown };
    // Never a changed number: the double that prints back the same, or the digits as written.
    if (exact) expect(JSON.stringify(kept.value)).toBe(JSON.stringify(Number(text)));
    else expect(kept.value).toBe(text);
  });

  it('holds every number JSON.stringify writes (any double)', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        expect(isExactNumber(JSON.stringify(d)), String(d)).toBe(true);
      }), { numRuns: 2000 });
  });

  it('holds an integer exactly when the double prints back its very digits (checked with BigInt)', () => {
    // The value of a JavaScript number's text, as a BigInt (it is an integer here).
    const valueOf = (t: string): bigint => {
      const m = /^(-?)(\d+)(?:\.(\d+))?(?:e\+?(\d+))?$/u.exec(t);
      if (m === null) throw new Error(t);
      const frac = m[3] ?? '';
      const digits = BigInt((m[2] as string) + frac) * 10n ** BigInt(Number(m[4] ?? 0) - frac.length);
      return m[1] === '-' ? -digits : digits;
    };
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (n) => {
        expect(isExactNumber(n.toString()), n.toString()).toBe(valueOf(String(Number(n.toString()))) === n);
      }),
      { numRuns: 3000 },
    );
  });
});

/** A JSON value whose numbers are number texts, written with its keys as given. */
type Model = { n: string } | string | boolean | null | Model[] | { o: [string, Model][] };

const modelValue: fc.Arbitrary<Model> = fc.letrec<{ value: Model }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberText.map((n) => ({ n })),
    // Strings full of what a careless scanner would take for numbers, quotes or escapes.
    fc.string({ unit: fc.constantFrom('1', '2', 'e', '.', '-', '"', '\\', 'x', ':', ',', '[', '{', ' ') }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.uniqueArray(fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', '/', '~', '"', '1', 'é') }), tie('value')), { maxLength: 4, selector: ([k]) => k }).map((o) => ({ o })),
  ),
})).value;

function write(m: Model, gap: string): string {
  if (m === null || typeof m !== 'object') return JSON.stringify(m);
  if (Array.isArray(m)) return `[${gap}${m.map((v) => write(v, gap)).join(`,${gap}`)}${gap}]`;
  if ('n' in m) return m.n;
  return `{${gap}${m.o.map(([k, v]) => `${JSON.stringify(k)}${gap}:${gap}${write(v, gap)}`).join(`,${gap}`)}${gap}}`;
}

/** The inexact numbers of a model, in document order, and the value with their digits kept. */
function expected(m: Model, pointer = ''): { found: { pointer: string; text: string }[]; value: unknown } {
  if (m === null || typeof m !== 'object') return { found: [], value: m };
  if (Array.isArray(m)) {
    const parts = m.map((v, i) => expected(v, `${pointer}/${i}`));
    return { found: parts.flatMap((p) => p.found), value: parts.map((p) => p.value) };
  }
  if ('n' in m) return isExactNumber(m.n) ? { found: [], value: JSON.parse(m.n) as number } : { found: [{ pointer, text: m.n }], value: m.n };
  const parts = m.o.map(([k, v]) => [k, expected(v, `${pointer}/${escapePointerToken(k)}`)] as const);
  return { found: parts.flatMap(([, p]) => p.found), value: Object.fromEntries(parts.map(([k, p]) => [k, p.value])) };
}

describe('findInexactNumbers and keepExactDigits on any JSON text', () => {
  it('find exactly the numbers a double cannot hold, at their pointers, and keep their digits', () => {
    fc.assert(
      fc.property(modelValue, fc.constantFrom('', ' ', '\n  '), (m, gap) => {
        const text = write(m, gap);
        const want = expected(m);
        const found = findInexactNumbers(text);
        expect(found.map(({ pointer, text: t }) => ({ pointer, text: t }))).toEqual(want.found);
        expect(keepExactDigits(JSON.parse(text), found)).toEqual(want.value);
      }),
      { numRuns: 1500 },
    );
  });

  it('follow JSON.parse on duplicate keys: the last member wins, what it shadows is not reported', () => {
    const text = '{"a":1e400,"b":{"x":[9007199254740993]},"a":2,"b":3,"c":{"d":1e999,"d":1e-999}}';
    const found = findInexactNumbers(text);
    expect(found.map((f) => f.pointer)).toEqual(['/c/d']);
    expect(keepExactDigits(JSON.parse(text), found)).toEqual({ a: 2, b: 3, c: { d: '1e-999' } });
    // A shadowed number that reads as the value kept is not mistaken for it.
    expect(findInexactNumbers('{"a":9007199254740993,"a":9007199254740992}')).toEqual([]);
  });

  it('scan 10x the text in time that grows linearly, and skip text without a candidate', () => {
    const rows = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `${i}`, note: 'x'.repeat(20) }))).replace(/"id":"(\d+)"/gu, '"id":1234567890123456789$1');
    expect(findInexactNumbers(rows(10))).toHaveLength(10);
    expect(growth(rows, findInexactNumbers, 10_000, 100_000)).toBeLessThan(LINEAR_BOUND_10X);
    expect(findInexactNumbers(JSON.stringify({ a: [1, 2.5, -3], s: 'no long digit run here' }))).toEqual([]);
  });

  it('keep a whole document that is such a number as its digits', () => {
    expect(keepExactDigits(JSON.parse('1e400'), findInexactNumbers('1e400'))).toBe('1e400');
  });
});

describe('validateText', () => {
  it('reports each number a double cannot hold at its pointer, and no digest mismatch for data holding one', () => {
    const r = validateText(readFileSync(new URL('./fixtures/invalid/JSON.number-not-exact.json', import.meta.url), 'utf8'));
    if (!r.ok) throw new Error(r.message);
    expect(r.findings.map((f) => [f.rule, f.pointer, f.severity])).toEqual([[RULES.JSON_NUMBER_NOT_EXACT, '/data/account_id', 'error']]);
    expect((r.value as { data: { account_id: unknown } }).data.account_id).toBe('12345678901234567890123');
    expect(r.findings[0]?.message).toContain('1.2345678901234568e+22');
  });

  it('says where text is not JSON', () => {
    expect(validateText('{"a": NaN}')).toMatchObject({ ok: false, line: 1, column: 7 });
  });
});
