import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli.js';
import type { SimSummary } from '../../src/cli/attack-sim/simulate.js';

const TWICE = fileURLToPath(new URL('./fixtures/same-call-twice.jsonl', import.meta.url));

describe('attack-sim: the same legitimate call made twice', () => {
  it.each(['executor', 'gateway'])('confirms both installments of one bill, each after its own hold (--via %s)', async (via) => {
    const r = await runInProcess(['attack-sim', TWICE, '--via', via, '--json']);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop() as string) as SimSummary;
    expect(summary).toMatchObject({ untrusted_confirmed: 2, untrusted_calls: 2 });
    expect(r.code).toBe(0);
  }, 120_000);
});
