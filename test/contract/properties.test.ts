import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINEAR_BOUND_10X, growth } from '../helpers/cpu-time.js';
import {
  ERROR_ACTIONS,
  ERROR_CATEGORIES,
  RULES,
  accepted,
  digest,
  failed,
  formatPointer,
  needsInput,
  partial,
  succeeded,
  unknown,
  validate,
  type Envelope,
  type ErrorInfo,
  type Evidence,
  type ValidationResult,
} from '../../src/contract/index.js';

const RETRIEVED = '2026-09-01T02:10:00.000Z';
const now = () => RETRIEVED;

/** Every JSON Pointer (below the root) of a JSON value, as token lists. */
function paths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (Array.isArray(value)) value.forEach((v, i) => (out.push([...prefix, String(i)]), paths(v, [...prefix, String(i)], out)));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...prefix, k]);
      paths(v, [...prefix, k], out);
    }
  }
  return out;
}

const id = fc.stringMatching(/^[\w.:-]{1,12}$/);
const code = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/);
const text = fc.string({ maxLength: 40 });
const count = fc.option(fc.nat({ max: 1000 }), { nil: null });
const call = fc.record({ tool_name: fc.constantFrom('order.get', 'refund.create', 'catalog.list'), call_id: id, attempt: fc.integer({ min: 1, max: 5 }) });
const observedAt = fc.option(fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date(RETRIEVED), noInvalidDate: true }).map((d) => d.toISOString()), { nil: null });
const provenance = fc.record({ source_type: fc.constantFrom('database', 'api', 'file', 'web'), source_id: id, observed_at: observedAt });
const errorInfo = fc.record({
  category: fc.constantFrom(...ERROR_CATEGORIES),
  code,
  message: text,
  retryable: fc.boolean(),
  action: fc.constantFrom(...ERROR_ACTIONS),
}) as fc.Arbitrary<ErrorInfo>;
const sideEffect = fc.oneof(
  fc.record({ occurred: fc.constant(false as const), operation: fc.constantFrom('read', 'refund'), possibly_occurred: fc.constant(false as const) }, { requiredKeys: ['occurred', 'operation'] }),
  fc.record({ occurred: fc.constant(true as const), operation: fc.constantFrom('refund.create', 'invoice.create'), external_id: id }),
);
/** Non-null data, an object so it has fields for evidence to point at. */
const data = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 6 });
const untrusted = fc.uniqueArray(
  fc.record({
    content_id: id,
    mime_type: fc.constant('text/plain'),
    text,
    trust: fc.constantFrom('untrusted' as const, 'low' as const),
    source: fc.constant<string>('ticket'),
    instructional: fc.boolean(),
    allowed_uses: fc.constant<string[]>(['summarize']),
    forbidden_uses: fc.constant<string[]>(['authorize_tool_call']),
  }),
  { selector: (u) => u.content_id, maxLength: 3 },
);

/** Evidence whose `supports` point at fields that exist in `/data`. */
function evidenceFor(d: unknown): fc.Arbitrary<Evidence[]> {
  const pointers = paths(d).map((p) => formatPointer(['data', ...p]));
  return fc.uniqueArray(
    fc.record({
      evidence_id: id,
      kind: fc.constant('record'),
      supports: fc.subarray(pointers.length > 0 ? pointers : ['/data'], { minLength: 1 }),
      observed_at: observedAt,
    }),
    { selector: (e) => e.evidence_id, maxLength: 4 },
  );
}

function expectValid(env: Envelope): void {
  const r = validate(env);
  expect(r.findings.filter((f) => f.severity === 'error'), JSON.stringify(env)).toEqual([]);
  expect(r.valid).toBe(true);
}

describe('every builder output validates', () => {
  it('succeeded, with random data, completeness and evidence', () => {
    const completeness = fc.oneof(
      fc.record({ state: fc.constant('complete' as const), next: fc.constant(null) }),
      // Counts agree (0 would contradict any array in the data: S5.zero-available-with-items).
      fc.integer({ min: 1, max: 1000 }).chain((n) => fc.record({ state: fc.constant('complete' as const), returned_items: fc.constant(n), available_items: fc.constant(n) })),
      fc.record({ state: fc.constant('unknown' as const), reason: fc.option(text, { nil: null }), returned_items: count, available_items: fc.constant(null) }),
    );
    fc.assert(
      fc.property(
        data.chain((d) => fc.record({ d: fc.constant(d), evidence: evidenceFor(d) })),
        call, provenance, completeness, sideEffect, untrusted,
        ({ d, evidence }, c, p, comp, se, u) => {
          expectValid(succeeded({ call: c, data: d, provenance: p, completeness: comp, side_effect: se, evidence, untrusted_content: u, now }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('partial, with a cursor or dropped items', () => {
    const completeness = fc.record({
      state: fc.constantFrom('truncated' as const, 'partial' as const, 'unknown' as const),
      reason: fc.constantFrom('context_budget', 'upstream_limit'),
      returned_items: fc.nat({ max: 50 }),
      available_items: fc.option(fc.integer({ min: 51, max: 500 }), { nil: null }),
      next: fc.option(fc.record({ type: fc.constant('cursor' as const), value: id }), { nil: null }),
    });
    fc.assert(
      fc.property(data.chain((d) => fc.record({ d: fc.constant(d), evidence: evidenceFor(d) })), call, provenance, completeness, ({ d, evidence }, c, p, comp) => {
        expectValid(partial({ call: c, data: d, provenance: p, completeness: comp, evidence, now }));
      }),
      { numRuns: 200 },
    );
  });

  it('failed, unknown, accepted and needsInput', () => {
    fc.assert(
      fc.property(call, errorInfo, sideEffect, provenance, code, text, (c, e, se, p, k, m) => {
        expectValid(failed({ call: c, error: e, side_effect: se, provenance: p, now }));
        expectValid(
          unknown({
            call: c,
            error: { ...e, retryable: false, code: 'COMMIT_STATUS_UNKNOWN', action: 'query_by_idempotency_key' },
            side_effect: { operation: 'charge', possibly_occurred: true, idempotency_key: k },
            reconciliation: { required: true, idempotency_key: k },
          }),
        );
        expectValid(accepted({ call: c, data: { job_id: k }, side_effect: se }));
        expectValid(needsInput({ call: c, code: k, message: m, missing: ['/departure_date'] }));
      }),
      { numRuns: 200 },
    );
  });
});

const ruleIds = new Set<string>(Object.values(RULES));

function wellFormed(r: ValidationResult): void {
  expect(typeof r.valid).toBe('boolean');
  for (const f of r.findings) {
    expect(ruleIds.has(f.rule)).toBe(true);
    expect(typeof f.pointer).toBe('string');
    expect(['error', 'warning']).toContain(f.severity);
  }
}

const examples = readdirSync(new URL('../../examples/', import.meta.url))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(new URL(`../../examples/${f}`, import.meta.url), 'utf8')) as Record<string, unknown>);

/** Replace the value at `tokens` inside a deep copy of `env`. */
function mutate(env: unknown, tokens: string[], value: unknown): unknown {
  const copy = structuredClone(env) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  tokens.slice(0, -1).forEach((t) => (node = node[t] as Record<string, unknown>));
  node[tokens[tokens.length - 1] as string] = value;
  return copy;
}

describe('validate never throws', () => {
  it('on any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => wellFormed(validate(v))), { numRuns: 1000 });
  });

  it('on anything at all (symbols, functions, null prototypes, getters-free oddities)', () => {
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withBigInt: true, withDate: true, withTypedArray: true, withSparseArray: true }), (v) => wellFormed(validate(v))), { numRuns: 1000 });
  });

  it('on a valid envelope with any field replaced by any JSON value', () => {
    const cases = fc.constantFrom(...examples).chain((env) => fc.tuple(fc.constant(env), fc.constantFrom(...paths(env)), fc.jsonValue({ maxDepth: 3 })));
    fc.assert(fc.property(cases, ([env, path, value]) => wellFormed(validate(mutate(env, path, value)))), { numRuns: 1000 });
  });

  it('on 10,000 levels of nesting in data, in typed fields, in extensions and at the root', () => {
    let deepArray: unknown = 1;
    let deepObject: unknown = 1;
    for (let i = 0; i < 10_000; i++) {
      deepArray = [deepArray];
      deepObject = { a: deepObject };
    }
    const base = examples[0] as Record<string, unknown>;
    const inputs = [
      deepArray,
      deepObject,
      { ...base, data: deepObject },
      { ...base, data: deepArray, result_digest: undefined },
      { ...base, extensions: { x: deepArray } },
      { ...base, call: deepObject },
      { ...base, evidence: [{ evidence_id: 'e', supports: ['/data'], locator: deepObject }] },
      // The same, after a trip through JSON text, as the CLI would see it.
      JSON.parse(`{"contract_version":"agent.tool.result.v1","data":${'['.repeat(10_000)}1${']'.repeat(10_000)}}`) as unknown,
    ];
    for (const input of inputs) {
      let r: ValidationResult | undefined;
      expect(() => (r = validate(input))).not.toThrow();
      wellFormed(r as ValidationResult);
    }
    // Deep data is legal and its digest is recomputed (past the recursive walk's stack, by the
    // iterative writer): the example's digest is of other data, so it is a mismatch, reported.
    expect(validate({ ...base, evidence: [], data: deepObject }).findings.map((f) => f.rule)).toEqual([RULES.S9_DIGEST_MISMATCH]);
    expect(validate({ ...base, evidence: [], data: deepObject, result_digest: digest(deepObject) }).findings).toEqual([]);
  });

  it('on a 10 MB string in data and in pattern- and format-checked fields, in time that grows linearly', () => {
    const base = examples[0] as Record<string, unknown>;
    const inputsOf = (big: string): unknown[] => [
      { ...base, data: { note: big }, result_digest: undefined },
      { ...base, result_digest: 'sha256:' + big },
      { ...base, call: { tool_name: big, call_id: big, attempt: 1 } },
      { ...base, provenance: { source_type: 'api', source_id: 'x', retrieved_at: big } },
      { ...base, evidence: [{ evidence_id: big, supports: ['/' + big] }] },
      { ...base, evidence: [{ evidence_id: 'e', supports: ['/data/' + 'a/'.repeat(1024 * 1024)] }] },
      { ...base, error: { category: 'internal', code: big, message: big, retryable: false, action: 'abort' } },
      big,
    ];
    const MB = 1024 * 1024;
    for (const input of inputsOf('a'.repeat(10 * MB))) {
      let r: ValidationResult | undefined;
      expect(() => (r = validate(input))).not.toThrow();
      wellFormed(r as ValidationResult);
    }
    // CPU time of 10 MB against 1 MB, per input: linear stays near 10x, a backtracking
    // pattern or a quadratic check near 100x.
    const count = inputsOf('').length;
    for (let i = 0; i < count; i++) {
      expect(growth((mb) => inputsOf('a'.repeat(mb * MB))[i], (input) => validate(input), 1, 10, 2), `input ${i}`).toBeLessThan(LINEAR_BOUND_10X);
    }
    // Seconds of CPU on a busy machine: the timeout only guards against a hang.
  }, 120_000);
});

describe('S6 observed-after-retrieved compares instants, however they are written', () => {
  const instant = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true });
  // UTC with and without milliseconds, and offsets: the text comparison applies to only some pairs.
  const written = fc.tuple(instant, fc.constantFrom('ms', 's', '+02:00', '-05:30')).map(([d, form]) => {
    const iso = d.toISOString();
    if (form === 'ms') return iso;
    if (form === 's') return iso.slice(0, 19) + 'Z';
    const minutes = (form[0] === '+' ? 1 : -1) * (Number(form.slice(1, 3)) * 60 + Number(form.slice(4, 6)));
    return new Date(d.getTime() + minutes * 60_000).toISOString().slice(0, 19) + form;
  });
  it('reports S6 exactly when observed_at is a later instant than retrieved_at', () => {
    fc.assert(fc.property(written, written, (observed, retrieved) => {
      const built = succeeded({ call: { tool_name: 'order.get', call_id: 'c1', attempt: 1 }, data: { a: 1 }, provenance: { source_type: 'database', source_id: 'db', observed_at: null }, now });
      const env = { ...built, provenance: { ...built.provenance, observed_at: observed, retrieved_at: retrieved } };
      const flagged = validate(env).findings.some((f) => f.rule === RULES.S6_OBSERVED_AFTER_RETRIEVED);
      expect(flagged).toBe(Date.parse(observed) > Date.parse(retrieved));
    }), { numRuns: 2000 });
  });
});
