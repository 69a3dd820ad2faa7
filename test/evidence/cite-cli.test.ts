import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fixturePath } from './helpers/fixtures.js';

const results = fixturePath('cli/results.jsonl');
const answer = (name: string) => fixturePath(`cli/answer-${name}.txt`);

describe('trc cite', () => {
  it('exits 0 and lists each claim when every claim is supported', async () => {
    const r = await runCli(['cite', '--results', results, '--answer', answer('supported')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ supported    #1  订单 ord_1001 已发货');
    expect(r.stdout).toContain('3 claim(s): 3 supported · 1 remark(s) without values not checked');
  });

  it('exits 1 and explains each failing claim', async () => {
    const r = await runCli(['cite', '--results', results, '--answer', answer('mixed')]);
    expect(r.code).toBe(1);
    const verdicts = r.stdout.split('\n').filter((l) => /^[✓✗] /.test(l)).map((l) => l.split(/\s+/)[1]);
    expect(verdicts).toEqual(['unsupported', 'overreach', 'overreach', 'overreach', 'uncited', 'unknown_id']);
    expect(r.stdout).toContain('datetime "18:20 UTC"');
    expect(r.stdout).toContain('completeness is "truncated"');
    expect(r.stdout).toContain('no declared calculation');
    expect(r.stdout).toContain('status is "unknown"');
  });

  it('prints the whole report as JSON with --json', async () => {
    const r = await runCli(['cite', '--results', results, '--answer', answer('mixed'), '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { results: number; ok: boolean; counts: Record<string, number>; claims: { verdict: string; cited: string[] }[] };
    expect(report.results).toBe(6);
    expect(report.ok).toBe(false);
    expect(report.counts).toEqual({ unknown_id: 1, uncited: 1, overreach: 3, unsupported: 1, stale: 0, supported: 0 });
    expect(report.claims[2]?.cited).toEqual(['ev_wh_a', 'ev_wh_b']);
  });

  it('fails on stale evidence by default and passes with --allow-stale', async () => {
    const args = ['cite', '--results', results, '--answer', answer('stale'), '--now', '2026-09-01T03:00:00Z', '--source-max-age', 'warehouse_a=5m'];
    const strict = await runCli(args);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/✗ stale .*\n.*read 1h ago; its source allows 5m/);
    const lenient = await runCli([...args, '--allow-stale']);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain('✓ stale');
    const fresh = await runCli(['cite', '--results', results, '--answer', answer('stale'), '--now', '2026-09-01T02:01:00Z', '--max-age', '1h']);
    expect(fresh.code).toBe(0);
  });

  it('judges staleness only at an RFC 3339 --now with its offset, never at a time Date.parse guessed', async () => {
    const args = ['cite', '--results', results, '--answer', answer('stale'), '--source-max-age', 'warehouse_a=5m', '--now'];
    for (const now of ['1', '2026-09-01T03:00:00', 'Sep 1 2026']) {
      const r = await runCli([...args, now]);
      expect(r.code, now).toBe(2);
      expect(r.stderr, now).toContain(`--now: "${now}" is not an RFC 3339 time with its offset`);
    }
    // A leap second is a time RFC 3339 allows (before the evidence was read: nothing is stale).
    expect((await runCli([...args, '2016-12-31T23:59:60Z'])).code).toBe(0);
    expect((await runCli([...args, '2026-09-01T11:00:00+08:00'])).code).toBe(1);
  });

  it('prints a claim the model wrote with escape sequences as text, not as terminal controls', async () => {
    const input = 'Order ord_1001 shipped \u001b[2J\u001b]0;pwned\u0007 at 2026-08-31 18:20 (UTC+8) [ev_001].';
    const r = await runCli(['cite', '--results', results, '--answer', '-'], { input });
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
    expect(r.stdout).toContain('\\u{1b}[2J\\u{1b}]0;pwned\\u{7}');
  });

  it('reads the answer from stdin and can assume a zone for zone-less times', async () => {
    const input = '订单 ord_1001 于 2026-08-31 18:20 发货 [ev_001]。';
    expect((await runCli(['cite', '--results', results, '--answer', '-'], { input })).code).toBe(1);
    expect((await runCli(['cite', '--results', results, '--answer', '-', '--assume-zone', 'UTC+8'], { input })).code).toBe(0);
  });

  it('exits 2 naming the line and pointer of a result that is not a valid envelope', async () => {
    const r = await runCli(['cite', '--results', fixturePath('cli/results-invalid.jsonl'), '--answer', answer('stale')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/results-invalid\.jsonl:1: not a valid envelope: \/evidence\/0\/evidence_id/);
  });

  it('exits 2 naming the line of a result that is not JSON', async () => {
    const r = await runCli(['cite', '--results', fixturePath('cli/results-not-json.jsonl'), '--answer', answer('stale')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/results-not-json\.jsonl:1:\d+: not JSON/);
  });

  it('exits 2 on usage errors', async () => {
    expect((await runCli(['cite', '--results', results])).code).toBe(2);
    expect((await runCli(['cite', '--results', results, '--answer', answer('stale'), '--max-age', 'soon'])).stderr).toContain('is not a duration');
    expect((await runCli(['cite', '--results', '/nonexistent/r.jsonl', '--answer', answer('stale')])).code).toBe(2);
    expect((await runCli(['cite', '--results', results, '--answer', answer('stale'), '--assume-zone', 'CST'])).stderr).toContain('is not a zone');
  });

  it('explains verdicts, marker styles and exit codes in --help', async () => {
    const r = await runCli(['cite', '--help']);
    expect(r.code).toBe(0);
    for (const word of ['unknown_id', 'uncited', 'overreach', 'unsupported', 'stale', 'supported', '[ev_001, ev_002]', 'Exit codes', '--allow-stale']) {
      expect(r.stdout).toContain(word);
    }
  });

  it('reads one pretty-printed envelope as the results', async () => {
    const lines = readFileSync(results, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const one = JSON.parse(lines.find((l) => l.includes('ord_1001')) as string) as unknown;
    const file = join(mkdtempSync(join(tmpdir(), 'trc-cite-')), 'one.json');
    writeFileSync(file, JSON.stringify(one, null, 2));
    const r = await runCli(['cite', '--results', file, '--answer', '-'], { input: '订单 ord_1001 已发货 [ev_001]。' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('✓ supported');
    const bad = join(mkdtempSync(join(tmpdir(), 'trc-cite-')), 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...(one as object), status: 'done' }, null, 2));
    const refused = await runCli(['cite', '--results', bad, '--answer', '-'], { input: 'x' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/bad\.json: not a valid envelope: \/status/);
  });
});
