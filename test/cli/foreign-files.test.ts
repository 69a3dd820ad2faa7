/**
 * The CLI around files that are not its own: a reader that stops reading, and a `--store` that
 * names another program's database or an empty file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trc-foreign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run `trc …args` with stdout read for one chunk and then closed, as `| head -c1` does. */
function runIntoClosedPipe(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8') }));
  });
}

describe('a reader that stops reading', () => {
  it('ends quietly when stdout closes mid-output, without a stack trace', async () => {
    const file = join(dir, 'many.jsonl');
    writeFileSync(file, '{"text":"hello, this is an ordinary line of text"}\n'.repeat(20_000));
    const r = await runIntoClosedPipe(['scan', '--jsonl', file]);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(r.code).toBe(0);
  }, 60_000);
});

describe('a --store that is not a trc store', () => {
  it('is refused by read-only commands and left unchanged; an empty file reads as an empty store', async () => {
    const other = join(dir, 'app.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    for (const args of [['audit'], ['diagnose', 'call_1'], ['reconcile', '--list'], ['page', 'cur_x', '--principal', 'a']]) {
      const r = await runCli([...args, '--store', other]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('is not a trc store');
    }
    // An empty file reads as an empty store, and stays empty.
    for (const args of [['audit'], ['reconcile', '--list'], ['sweep']]) {
      const r = await runCli([...args, '--store', empty]);
      expect(r.code, args.join(' ')).toBe(0);
    }
    const after = new Database(other, { readonly: true });
    try {
      expect((after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name)).toEqual(['t']);
    } finally {
      after.close();
    }
    expect(statSync(empty).size).toBe(0);
  }, 120_000);
});
