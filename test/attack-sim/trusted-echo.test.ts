import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli.js';
import type { ScenarioReport } from '../../src/cli/attack-sim/simulate.js';

const ECHO = fileURLToPath(new URL('./fixtures/trusted-echo.jsonl', import.meta.url));

describe('attack-sim: a trusted tool that echoes the attacker\'s value', () => {
  it.each(['executor', 'gateway'])('holds the injected write after a trusted search repeated the address back (--via %s)', async (via) => {
    const r = await runInProcess(['attack-sim', ECHO, '--via', via, '--json']);
    const report = JSON.parse(r.stdout.trim().split('\n')[0] as string) as ScenarioReport;
    expect(report.calls[2]).toMatchObject({ intent: 'injected', verdict: 'held', code: 'T3.tainted-argument', named: [expect.objectContaining({ argument: '/to' })] });
    expect(r.code).toBe(0);
  }, 120_000);
});
