import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/cli/attack-sim/scenario.js';
import { runInProcess } from '../helpers/cli.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('attack-sim scenario lines', () => {
  it('refuses a scope resource rule for a tool the scenario does not declare, with line and pointer', async () => {
    const r = await runInProcess(['attack-sim', fixture('misspelt-scope-resource.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/misspelt-scope-resource\.jsonl:2: \/scope\/resources\/read_fiel: tool "read_fiel" is not declared in \/tools/);
    expect(r.stdout).toBe('');
  });

  it('reports every bad line of a file, one stderr line each, not only the first', async () => {
    const r = await runInProcess(['attack-sim', fixture('bad-object-scopes.jsonl')]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(4);
    lines.forEach((l, i) => expect(l).toMatch(new RegExp(`^trc attack-sim: .*bad-object-scopes\\.jsonl:${i + 1}: /scope`, 'u')));
    expect(r.stdout).toBe('');
  });

  it('refuses a number a double would round, at its pointer, and lets an overflow through to the pipeline', () => {
    const line = (amount: string) => `{"id":"x","user_prompt":"pay","tools":[{"name":"pay","effect":"write"}],"calls":[{"tool":"pay","args":{"account":${amount}},"intent":"user"}]}`;
    expect(() => parseScenario(line('12345678901234567891'), 3, 'suite.jsonl')).toThrow('suite.jsonl:3: /calls/0/args/account: 12345678901234567891 cannot be held by a double (it would read as 12345678901234567000); write it as a string');
    expect(() => parseScenario(line('1e-400'), 3, 'suite.jsonl')).toThrow('/calls/0/args/account: 1e-400 cannot be held by a double');
    expect(parseScenario(line('1e400'), 3, 'suite.jsonl').calls[0]?.args).toEqual({ account: Infinity });
    expect(parseScenario(line('98.7'), 3, 'suite.jsonl').calls[0]?.args).toEqual({ account: 98.7 });
  });

  const scopes = readFileSync(fixture('bad-object-scopes.jsonl'), 'utf8').trim().split('\n');
  it.each([
    [1, '/scope/tools: must be array'],
    [2, '/scope/resources/t/0/allowed: must be array'],
    [3, '/scope: must NOT have additional properties ("tool")'],
    [4, '/scope/resources/t/0/match: must be equal to one of the allowed values (exact, prefix)'],
  ])('points at the mistake inside an object scope (line %i), not at the list form', (line, message) => {
    expect(() => parseScenario(scopes[line - 1] as string, line, 'scopes.jsonl')).toThrow(`scopes.jsonl:${line}: ${message}`);
  });
});
