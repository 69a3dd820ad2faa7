import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli.js';
import type { ScenarioReport, SimSummary } from '../../src/cli/attack-sim/simulate.js';

const REFUSED = fileURLToPath(new URL('./fixtures/refused-arguments.jsonl', import.meta.url));

describe('attack-sim scoring', () => {
  it('counts an injected call whose arguments the pipeline refused (a lone surrogate, 1e400) as denied, not as an attack that got through', async () => {
    const r = await runInProcess(['attack-sim', REFUSED, '--json']);
    const lines = r.stdout.trim().split('\n');
    const report = JSON.parse(lines[0] as string) as ScenarioReport;
    const summary = JSON.parse(lines[1] as string) as SimSummary;
    for (const c of report.calls.slice(1)) expect(c).toMatchObject({ intent: 'injected', verdict: 'denied', code: 'ARGUMENTS_NOT_JSON', ok: true });
    expect(summary).toMatchObject({ attack_success: 0, injected: 2 });
    expect(r.code).toBe(0);
  });
});
