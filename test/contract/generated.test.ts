import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractArtifacts } from '../../scripts/contract-artifacts.js';
import { createAjv2020, envelopeJsonSchema, minimalJsonSchema, schemaDocuments, validate } from '../../src/contract/index.js';
import { EnvelopeSchema, MinimalEnvelopeSchema, deriveSchemaDocuments } from '../../src/contract/typebox.js';
import { full, minimal } from '../../src/contract/generated/envelope-validators.js';

type Check = ((data: unknown) => boolean) & { errors?: unknown };

const ROOT = new URL('../../', import.meta.url);
const EXAMPLES = new URL('examples/', ROOT);
const INVALID = new URL('fixtures/invalid/', import.meta.url);
const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as unknown;
const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort().map((f) => readJson(new URL(f, EXAMPLES)));
const invalid = readdirSync(INVALID).filter((f) => f.endsWith('.json')).sort().map((f) => readJson(new URL(f, INVALID)));

// What validate() used before the validators were generated: Ajv compiling the TypeBox objects.
const ajv = createAjv2020();
const runtime: Record<'full' | 'minimal', Check> = { full: ajv.compile(EnvelopeSchema), minimal: ajv.compile(MinimalEnvelopeSchema) };
const generated: Record<'full' | 'minimal', Check> = { full: full as Check, minimal: minimal as Check };

/**
 * The verdict and the complete Ajv error list of one check, but for `schemaPath`: the generated
 * code reaches each top-level member through a `$defs` entry (see splitForCodegen), so its paths
 * name that entry. Nothing reads them: findings use the instance path, keyword and message.
 */
function outcome(check: Check, value: unknown): { ok: boolean; errors: unknown } {
  const ok = check(value);
  const errors = ok ? null : (check.errors as Record<string, unknown>[]).map(({ schemaPath: _s, ...rest }) => structuredClone(rest));
  return { ok, errors };
}

/** Where two texts first differ, with a little context from each. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `first difference at offset ${i}: committed ${JSON.stringify(a.slice(i, i + 40))}, fresh ${JSON.stringify(b.slice(i, i + 40))}`;
}

/** Every path (as keys) to a node of a JSON value, the root included. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

/** A copy of `doc` with the node at `path` replaced (or deleted when `value` is undefined). */
function mutate(doc: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = value;
  return copy;
}

// Values that hit the interesting keywords: wrong types, empty strings (minLength), bad and good
// timestamps (format), enum members and near misses (const unions), negative counts, deletion.
const PROBES: readonly unknown[] = [
  '', 'x', '2026-09-01T02:10:00Z', '2026-13-01T00:00:00Z', 'succeeded', 'Succeeded', 'truncated', 'retry', 'sha256:00',
  -1, 0, 1.5, true, null, [], {}, [1], { x: 1 }, undefined,
];
const replacement = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...PROBES));
const mutated = fc
  .constantFrom(...examples)
  .chain((doc) => fc.tuple(fc.constant(doc), fc.constantFrom(...paths(doc)), replacement))
  .map(([doc, path, value]) => mutate(doc, path, value));

describe('the generated files', () => {
  it.each([...contractArtifacts().keys()])('%s equals a fresh generation from the TypeBox definition (no drift)', (path) => {
    const committed = readFileSync(new URL(path, ROOT), 'utf8');
    const fresh = contractArtifacts().get(path)!;
    // The validators are one long line: name the first difference instead of printing both.
    expect(committed === fresh, `${path} is out of date, run \`npm run schema\` (${firstDifference(committed, fresh)})`).toBe(true);
  });

  it('give the same schema documents as the TypeBox definition, a fresh copy per call', () => {
    expect(schemaDocuments()).toEqual(deriveSchemaDocuments());
    expect(Object.keys(envelopeJsonSchema())[0]).toBe('$schema');
    const first = envelopeJsonSchema();
    first['title'] = 'changed';
    expect(envelopeJsonSchema()['title']).toBe('agent.tool.result.v1');
    expect(minimalJsonSchema()).not.toBe(minimalJsonSchema());
  });
});

describe('the generated envelope validators', () => {
  const cases = [...examples, ...invalid, null, 42, 'text', [], {}, { status: 'succeeded' }];

  it.each(['full', 'minimal'] as const)('%s: report exactly the errors Ajv reports when compiling the TypeBox schema at run time', (profile) => {
    for (const value of cases) expect(outcome(generated[profile], value)).toEqual(outcome(runtime[profile], value));
  });

  it.each(['full', 'minimal'] as const)('%s: agree with run-time Ajv on every example with any one node replaced or deleted', (profile) => {
    let compared = 0;
    for (const doc of examples) {
      for (const path of paths(doc)) {
        for (const value of PROBES) {
          const broken = mutate(doc, path, value);
          expect(outcome(generated[profile], broken), `${profile} at /${path.join('/')} = ${JSON.stringify(value)}`).toEqual(outcome(runtime[profile], broken));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it.each(['full', 'minimal'] as const)('%s: agree with run-time Ajv on randomly broken envelopes, error for error', (profile) => {
    fc.assert(
      fc.property(mutated, (value) => {
        expect(outcome(generated[profile], value)).toEqual(outcome(runtime[profile], value));
      }),
      { numRuns: 400 },
    );
  });

  it('are split into one function per top-level member, each small enough for V8 to optimize', () => {
    // One ~80 KB function (over V8's 60 KB bytecode limit for optimizing) ran unoptimized.
    const source = readFileSync(new URL('src/contract/generated/envelope-validators.ts', ROOT), 'utf8');
    const functions = source.match(/function [A-Za-z_$][\w$]*\(/g) ?? [];
    expect(functions.length).toBeGreaterThan(20);
    const starts = [...source.matchAll(/function [A-Za-z_$][\w$]*\(/g)].map((m) => m.index);
    const longest = Math.max(...starts.map((at, i) => (starts[i + 1] ?? source.length) - at));
    expect(longest).toBeLessThan(40_000);
  });

  it('catch the broken envelopes the run-time Ajv catches (the comparison is not vacuous)', () => {
    const verdicts = fc.sample(mutated, { numRuns: 300, seed: 7 }).map((v) => generated.full(v));
    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
  });

  it('leave validate() findings intact: pointers and messages of schema errors', () => {
    const broken = mutate(examples[0], ['call', 'attempt'], 0);
    expect(validate(broken)).toEqual({
      valid: false,
      findings: [{ rule: 'SCHEMA', pointer: '/call/attempt', message: 'must be >= 1', severity: 'error' }],
    });
    const extra = mutate(examples[0], ['surprise'], true);
    expect(validate(extra).findings).toEqual([{ rule: 'SCHEMA', pointer: '/surprise', message: 'is not an allowed property', severity: 'error' }]);
  });
});
