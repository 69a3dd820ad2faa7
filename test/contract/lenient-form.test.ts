/**
 * Strict on meaning, lenient on form: a list whose absence means "none" may be absent; a
 * contradiction stays an error however the envelope is written (docs/contract.md).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { validate, validateText, type Profile } from '../../src/contract/index.js';

const DIR = new URL('./fixtures/lenient/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('./fixtures/lenient-expected.json', import.meta.url), 'utf8')) as Record<string, { profile: Profile; valid: boolean; rules: [string, string][] }>;
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();
const load = (dir: URL, file: string) => JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<string, unknown>;

describe('form leniency', () => {
  it('has an expectation for every fixture', () => {
    expect(Object.keys(expected).sort()).toEqual(files);
  });

  it.each(files)('%s gives exactly its expected findings', (file) => {
    const want = expected[file];
    const r = validate(load(DIR, file), { profile: want?.profile ?? 'full' });
    expect(r.findings.map((f) => [f.rule, f.pointer])).toEqual(want?.rules);
    expect(r.valid).toBe(want?.valid);
  });

  it('fills an absent warnings list in, so readers past validate() find one', () => {
    const env = load(DIR, 'none-of-the-lists.json');
    expect('warnings' in env).toBe(false);
    expect(validate(env).valid).toBe(true);
    expect(env['warnings']).toEqual([]);
    // The other lists stay absent: absent means none, and nothing else is added.
    expect(['evidence', 'untrusted_content', 'conflicts'].filter((k) => k in env)).toEqual([]);
  });

  it('fills the minimal profile\'s lists in the same way', () => {
    const env = load(DIR, 'minimal-without-lists.json');
    expect(validate(env, { profile: 'minimal' }).valid).toBe(true);
    expect([env['evidence'], env['untrusted_content'], env['warnings']]).toEqual([[], [], []]);
  });

  it('checks a frozen envelope as a copy and leaves it as it was', () => {
    const env = Object.freeze(load(DIR, 'no-warnings.json'));
    expect(validate(env)).toEqual({ valid: true, findings: [] });
    expect('warnings' in env).toBe(false);
  });

  it('reports a value it cannot even look at (a revoked Proxy) as a finding, never a throw', () => {
    const { proxy, revoke } = Proxy.revocable(load(DIR, 'no-warnings.json'), {});
    revoke();
    const r = validate(proxy);
    expect(r.valid).toBe(false);
    expect(r.findings[0]).toMatchObject({ rule: 'SCHEMA', pointer: '' });
  });

  it('is what the published JSON Schema says to any other reader', () => {
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../schema/${name}`, import.meta.url), 'utf8')) as object;
    const full = ajv.compile(schema('agent.tool.result.v1.json'));
    const minimal = ajv.compile(schema('agent.tool.result.minimal.v1.json'));
    for (const file of files) {
      const want = expected[file];
      const check = want?.profile === 'minimal' ? minimal : full;
      const schemaOk = !(want?.rules ?? []).some(([rule]) => rule === 'SCHEMA');
      expect(check(load(DIR, file)), file).toBe(schemaOk);
    }
  });

  it('keeps every contradiction an error when the lists are left out', () => {
    const invalid = new URL('./fixtures/invalid/', import.meta.url);
    // (Not the text fixtures: re-serializing would change the number, or drop the repeated name.)
    for (const file of readdirSync(invalid).filter((f) => f.endsWith('.json') && f !== 'SCHEMA.json' && !f.startsWith('JSON.'))) {
      const text = readFileSync(new URL(file, invalid), 'utf8');
      const withLists = validateText(text);
      const env = JSON.parse(text) as Record<string, unknown>;
      delete env['warnings'];
      if (Array.isArray(env['untrusted_content']) && env['untrusted_content'].length === 0) delete env['untrusted_content'];
      const without = validateText(JSON.stringify(env));
      if (!withLists.ok || !without.ok) throw new Error(`${file} is not JSON`);
      expect(without.findings.map((f) => [f.rule, f.pointer]), file).toEqual(withLists.findings.map((f) => [f.rule, f.pointer]));
      expect(without.valid, file).toBe(withLists.valid);
    }
  });
});
