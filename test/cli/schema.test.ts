import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const committed = (file: string) => JSON.parse(readFileSync(new URL(`../../schema/${file}`, import.meta.url), 'utf8')) as unknown;

describe.concurrent('trc schema', () => {
  it('prints the published full envelope schema', async () => {
    const r = await runCli(['schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(committed('agent.tool.result.v1.json'));
  });

  it('prints the minimal profile with --minimal', async () => {
    const r = await runCli(['schema', '--minimal']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(committed('agent.tool.result.minimal.v1.json'));
  });

  it('rejects unknown flags and stray arguments with exit 2', async () => {
    expect((await runCli(['schema', '--full'])).code).toBe(2);
    expect((await runCli(['schema', 'extra'])).code).toBe(2);
  });

  it('explains itself with --help', async () => {
    const r = await runCli(['schema', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: trc schema [--minimal]');
    expect(r.stdout).toContain('draft 2020-12');
  });
});
