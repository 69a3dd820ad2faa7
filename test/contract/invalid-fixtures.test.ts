import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES, validateText } from '../../src/contract/index.js';

const DIR = new URL('./fixtures/invalid/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('./fixtures/invalid-expected.json', import.meta.url), 'utf8')) as Record<string, { rule: string; pointer: string }>;
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();
/** Validate a fixture as the text readers do (trc validate): numbers are read from the text. */
const check = (file: string) => {
  const r = validateText(readFileSync(new URL(file, DIR), 'utf8'));
  if (!r.ok) throw new Error(`${file} is not JSON: ${r.message}`);
  return r;
};

describe('the invalid fixtures', () => {
  it('cover every rule in RULES, one file per rule', () => {
    expect(files).toEqual(Object.values(RULES).map((r) => `${r}.json`).sort());
    expect(Object.keys(expected).sort()).toEqual(files);
  });

  it.each(files)('%s breaks exactly its own rule, at the expected pointer', (file) => {
    const want = expected[file];
    const result = check(file);
    expect(result.findings.map((f) => [f.rule, f.pointer])).toEqual([[want?.rule, want?.pointer]]);
    const finding = result.findings[0];
    expect(finding?.message.length).toBeGreaterThan(10);
    // Warnings are reported but do not make the envelope invalid.
    expect(result.valid).toBe(finding?.severity === 'warning');
  });

  it('has exactly one warning-severity rule among them (W1 idempotency key mismatch)', () => {
    const warnings = files.filter((file) => check(file).valid);
    expect(warnings).toEqual([`${RULES.W1_IDEMPOTENCY_KEY_MISMATCH}.json`]);
  });
});
