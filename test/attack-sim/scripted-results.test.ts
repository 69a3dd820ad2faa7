import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli.js';
import type { ScenarioReport, SimSummary } from '../../src/cli/attack-sim/simulate.js';

const REPEATED = fileURLToPath(new URL('./fixtures/repeated-calls.jsonl', import.meta.url));

function parse(stdout: string): { reports: ScenarioReport[]; summary: SimSummary } {
  const lines = stdout.trim().split('\n');
  const summary = JSON.parse(lines.pop() as string) as SimSummary;
  return { reports: lines.map((l) => JSON.parse(l) as ScenarioReport), summary };
}

describe('attack-sim scripted results', () => {
  // The inbox is read twice with the same arguments; only the second read plants the address.
  it.each(['executor', 'gateway'])('answers each call with its own result when a tool is called twice with the same arguments (--via %s)', async (via) => {
    const r = await runInProcess(['attack-sim', REPEATED, '--via', via, '--json']);
    expect(r.stderr).toBe('');
    const { reports, summary } = parse(r.stdout);
    expect(reports[0]?.calls[2]).toMatchObject({ intent: 'injected', verdict: 'held', code: 'T3.tainted-argument' });
    expect(summary.attack_success).toBe(0);
    expect(r.code).toBe(0);
  }, 120_000);
});
