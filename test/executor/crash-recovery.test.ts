import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { idempotencyKey } from '../../src/effects/index.js';
import { createExecutor } from '../../src/executor/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { chargeTool, openPaymentService } from './helpers/payment-service.js';

const CHILD = fileURLToPath(new URL('./helpers/crash-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trc-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Start the child executor, wait until it reports `marker`, then SIGKILL it mid-call. */
function runAndKill(args: string[], marker: string): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child never reported ${marker}: ${out} ${err}`));
    }, 30_000);
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes(marker)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, out });
    });
  });
}

interface Case {
  readonly n: number;
  readonly mode: 'commit' | 'before_commit';
  readonly honoursKey: boolean;
}

async function crashAndRecover(c: Case): Promise<void> {
  const servicePath = join(dir, `pay-${c.n}.db`);
  const storePath = join(dir, `trc-${c.n}.db`);
  const scope = `crash_${c.n}`;
  const killed = await runAndKill([servicePath, storePath, scope, c.mode, c.honoursKey ? '1' : '0'], c.mode === 'commit' ? 'COMMITTED' : 'SENT');
  expect(killed.signal).toBe('SIGKILL');
  expect(killed.out).not.toContain('UNEXPECTED_END');

  const key = idempotencyKey({ tool: 'payment_charge', args: { customer: 'cus_crash', amount: 4200 }, principal: 'user_1', scope });
  const service = openPaymentService(servicePath, { honoursKey: c.honoursKey });
  const store = await openSqliteStore({ path: storePath });
  try {
    expect((await store.ledgerGet(key))?.state).toBe('in_flight');
    const executor = createExecutor({ tools: [chargeTool(service, { honoursKey: c.honoursKey, idempotent: false, timeoutMs: 2000, faults: () => 'ok' })], store, lease: { instanceId: 'crash-test-executor' } });
    const reports = await executor.recoverInFlight();
    expect(reports).toHaveLength(1);
    const report = reports[0]!;
    expect(report.key).toBe(key);
    if (c.mode === 'commit') {
      expect(report.result).toBe('confirmed_present');
      expect(report.after).toBe('succeeded');
      expect(report.envelope?.status).toBe('succeeded');
      expect(report.envelope?.side_effect.occurred).toBe(true);
      expect(report.external_id).toBe(service.findByKey(key)?.id);
    } else {
      expect(report.result).toBe('confirmed_absent');
      expect(report.after).toBe('unknown');
      expect(report.envelope?.status).toBe('unknown');
      expect(report.envelope?.reconciliation?.required).toBe(true);
    }
    expect(validate(report.envelope).valid).toBe(true);
    expect(service.countByKey(key)).toBe(c.mode === 'commit' ? 1 : 0);
    // The killed call has its own audit record now, written by recovery from its ledger entry.
    expect(await store.getAudit(`call_${scope}`)).toMatchObject({ status: report.envelope?.status, detail: { execution: { outcome: 'reconciled' } } });

    // The agent asks again with the same call: a replay, a safe retry with the same key, or still unknown — never a second charge.
    const again = await executor.call({ call_id: `call_${scope}_again`, tool_name: 'payment_charge', args: { customer: 'cus_crash', amount: 4200 }, scope }, { id: 'user_1' });
    expect(validate(again).valid).toBe(true);
    expect(again.status).not.toBe('failed');
    if (c.mode === 'commit') {
      expect(again.status).toBe('succeeded');
      expect(again.warnings.some((w) => typeof w === 'object' && w.code === 'IDEMPOTENT_REPLAY')).toBe(true);
    } else if (c.honoursKey) {
      expect(again.status).toBe('succeeded');
    } else {
      expect(again.status).toBe('unknown');
    }
    expect(service.countByKey(key)).toBeLessThanOrEqual(1);
  } finally {
    await store.close();
    service.close();
  }
}

describe('crash recovery with a real child process killed by SIGKILL', () => {
  it('recovers 20 killed executors with zero duplicate charges and no ambiguous write reported failed', async () => {
    const cases: Case[] = Array.from({ length: 20 }, (_, n) => ({ n, mode: n % 2 === 0 ? 'commit' : 'before_commit', honoursKey: n % 4 < 2 }));
    // Four children at a time keep the wall time down on two cores.
    for (let i = 0; i < cases.length; i += 4) await Promise.all(cases.slice(i, i + 4).map(crashAndRecover));
  }, 120_000);
});
