import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('attack-sim scenario lines', () => {
  it('refuses a scope resource rule for a tool the scenario does not declare, with line and pointer', async () => {
    const r = await runInProcess(['attack-sim', fixture('misspelt-scope-resource.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/misspelt-scope-resource\.jsonl:2: \/scope\/resources\/read_fiel: tool "read_fiel" is not declared in \/tools/);
    expect(r.stdout).toBe('');
  });
});
