import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isTrcError } from '../../src/contract/index.js';
import { checkStrictSchema } from '../../src/adapters/openai/index.js';
import { defineTool } from '../../src/executor/index.js';

const fixtures = JSON.parse(readFileSync(new URL('./fixtures/strict-schemas.json', import.meta.url), 'utf8')) as {
  name: string;
  schema: Record<string, unknown>;
  violations: { rule: string; pointer: string }[];
}[];

const base = { description: 'd', effect: 'read' as const, risk: 'low' as const, timeoutMs: 100, source: { type: 'database', id: 'db' }, run: () => ({ data: { ok: true } }) };

describe('the strict-schema rules defineTool enforces (checkStrictSchema from the OpenAI adapter)', () => {
  for (const f of fixtures) {
    it(`reports exactly the strict-rule violations of "${f.name}" with their pointers`, () => {
      const got = checkStrictSchema(f.schema).map((v) => ({ rule: v.rule, pointer: v.pointer }));
      expect(got).toEqual(f.violations);
    });
  }

  it('flags nesting deeper than ten levels', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 12; i++) schema = { type: 'object', properties: { n: schema }, required: ['n'], additionalProperties: false };
    expect(checkStrictSchema(schema).map((v) => v.rule)).toContain('strict.nesting-too-deep');
  });

  it('never throws on garbage', () => {
    for (const g of [null, 1, 'x', [], { type: 'object', properties: 5 }]) expect(() => checkStrictSchema(g)).not.toThrow();
  });
});

describe('defineTool', () => {
  it('refuses a non-strict input schema with TOOL_SCHEMA_NOT_STRICT listing every violation and pointer', () => {
    const schema = fixtures[1]!.schema;
    let error: unknown;
    try {
      defineTool({ ...base, name: 'search', input: schema });
    } catch (e) {
      error = e;
    }
    expect(isTrcError(error, 'TOOL_SCHEMA_NOT_STRICT')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('(root)');
    expect(message).toContain('/properties/limit');
    expect((error as { data: { violations: unknown[] } }).data.violations).toHaveLength(2);
  });

  it('accepts a non-strict schema when strict is false and keeps the violations on the tool', () => {
    const tool = defineTool({ ...base, name: 'search', input: fixtures[1]!.schema, strict: false });
    expect(tool.strictViolations).toHaveLength(2);
  });

  it('refuses a bad name, a non-positive timeout and a schema that does not compile', () => {
    const input = fixtures[0]!.schema;
    expect(() => defineTool({ ...base, name: 'has space', input })).toThrow(/TOOL_DEFINITION_INVALID|must match/);
    expect(() => defineTool({ ...base, name: 'ok', timeoutMs: 0, input })).toThrow(/timeoutMs/);
    let error: unknown;
    try {
      defineTool({ ...base, name: 'ok', input, output: { type: 'no-such-type' } });
    } catch (e) {
      error = e;
    }
    expect(isTrcError(error, 'TOOL_SCHEMA_INVALID')).toBe(true);
  });
});
