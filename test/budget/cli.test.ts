import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { runCli } from '../helpers/cli.js';

let dir: string;
let db: string;
let rowsFile: string;
const ROWS = Array.from({ length: 60 }, (_, i) => ({ id: i, name: `row ${i} ✓`, amount: i * 3 }));
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trc-fit-cli-'));
  db = join(dir, 'store.sqlite');
  rowsFile = join(dir, 'rows.json');
  writeFileSync(rowsFile, JSON.stringify(ROWS, null, 2));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const resourceCount = (): number => {
  const conn = new Database(db, { readonly: true });
  try {
    return (conn.prepare('SELECT count(*) AS n FROM resources').get() as { n: number }).n;
  } finally {
    conn.close();
  }
};

// Each case spawns the CLI through tsx; allow for a busy machine.
describe('trc fit and trc resource get', { timeout: 120_000 }, () => {
  it('prints a fitted envelope and stores the raw file, readable back byte for byte by the same principal', async () => {
    const fitRun = await runCli(['fit', rowsFile, '--max-items', '7', '--store', db, '--principal', 'alice', '--json']);
    expect(fitRun.code).toBe(0);
    // stderr is not a terminal here, so no progress bar.
    expect(fitRun.stderr).toBe('');
    const env = JSON.parse(fitRun.stdout) as Envelope;
    expect(validate(env).valid).toBe(true);
    expect(env.completeness).toMatchObject({ state: 'truncated', returned_items: 7, available_items: 60 });
    const uri = env.resources?.[0]?.uri ?? '';
    const get = await runCli(['resource', 'get', uri, '--principal', 'alice', '--store', db]);
    expect(get.code).toBe(0);
    expect(get.stdout).toBe(JSON.stringify(ROWS, null, 2));
    const stranger = await runCli(['resource', 'get', uri, '--principal', 'bob', '--store', db]);
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain('HANDLE_WRONG_PRINCIPAL');
    expect(stranger.stdout).toBe('');
  });

  it('fits JSON Lines: by file extension, or from stdin with --jsonl', async () => {
    const lines = ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const ndjson = join(dir, 'rows.ndjson');
    writeFileSync(ndjson, lines);
    const run = await runCli(['fit', ndjson, '--max-items', '5', '--store', db, '--principal', 'alice', '--json']);
    expect(run.code).toBe(0);
    const env = JSON.parse(run.stdout) as Envelope;
    expect(env.completeness).toMatchObject({ returned_items: 5, available_items: 60 });
    expect(env.data).toEqual(ROWS.slice(0, 5));
    expect(env.resources?.[0]?.mime_type).toBe('application/jsonl');
    const get = await runCli(['resource', 'get', env.resources?.[0]?.uri ?? '', '--principal', 'alice', '--store', db]);
    expect(get.stdout).toBe(lines);
    const piped = await runCli(['fit', '-', '--jsonl', '--max-items', '2', '--store', db, '--json'], { input: lines });
    expect((JSON.parse(piped.stdout) as Envelope).completeness).toMatchObject({ returned_items: 2, available_items: 60 });
    // Without --jsonl, two values are not one JSON document.
    expect((await runCli(['fit', '-', '--store', db], { input: lines })).code).toBe(2);
  });

  it('reads stdin, uses TRC_STORE, and prints a readable report by default', async () => {
    const run = await runCli(['fit', '-', '--max-items', '3'], { input: JSON.stringify(ROWS), env: { TRC_STORE: db, TRC_PRINCIPAL: 'carol' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('status: partial');
    expect(run.stdout).toContain('items: 3 returned of 60 available');
    expect(run.stdout).toMatch(/trc resource get trc:\/\/resource\/\S+ --principal carol/);
  });

  it('exits 2 with line and column on input that is not JSON, writing nothing to the store', async () => {
    await runCli(['fit', rowsFile, '--max-items', '1', '--store', db, '--principal', 'alice']);
    const before = resourceCount();
    const run = await runCli(['fit', '-', '--store', db], { input: '[{"id": 1},\n {"id": 2 "x": 3}]' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('INPUT_NOT_JSON');
    expect(run.stderr).toContain('line 2, column 11');
    expect(resourceCount()).toBe(before);
  });

  it('fails resource get with a clear code for an unknown handle', async () => {
    const run = await runCli(['resource', 'get', 'AAAAAAAAAAAAAAAAAAAAAA', '--principal', 'alice', '--store', db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('HANDLE_UNKNOWN');
  });

  it('rejects bad flags as usage errors', async () => {
    expect((await runCli(['fit', rowsFile, '--max-items', 'ten', '--store', db])).code).toBe(2);
    expect((await runCli(['fit', rowsFile, '--max-tokens', '3', '--store', db])).stderr).toContain('BUDGET_INVALID');
    expect((await runCli(['resource', 'get', 'x', '--store', db])).stderr).toContain('--principal is required');
    expect((await runCli(['resource', 'list', '--principal', 'a', '--store', db])).code).toBe(2);
  });

  it('explains itself in --help', async () => {
    const fitHelp = await runCli(['fit', '--help']);
    expect(fitHelp.code).toBe(0);
    expect(fitHelp.stdout).toContain('--max-tokens');
    expect(fitHelp.stdout).toContain('trc resource get');
    const resHelp = await runCli(['resource', '--help']);
    expect(resHelp.stdout).toContain('HANDLE_WRONG_PRINCIPAL');
  });
});
