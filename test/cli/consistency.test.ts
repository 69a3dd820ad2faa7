/**
 * What every command does the same way (docs/cli.md): the wording for a missing file, a
 * missing store refused (never created), parse errors in our words, `--host` with IPv6
 * literals; and `trc page`, which pages a fitted list from the CLI, re-authorized.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { runInProcess } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const missing = join(dir, 'no-such-file.json');
const answer = join(dir, 'answer.txt');
writeFileSync(answer, 'Nothing to check.\n');
const results = join(dir, 'results.jsonl');
writeFileSync(results, JSON.stringify(JSON.parse(readFileSync(new URL('../../examples/order-lookup.json', import.meta.url), 'utf8'))) + '\n');

describe('a missing file', () => {
  it.each([
    ['validate', ['validate', missing]],
    ['scan', ['scan', missing]],
    ['fit', ['fit', missing, '--store', ':memory:']],
    ['cite --results', ['cite', '--results', missing, '--answer', answer]],
    ['cite --answer', ['cite', '--results', results, '--answer', missing]],
    ['gateway --config', ['gateway', '--config', missing, '--', 'node', 'x.js']],
  ])('is reported by %s in the same words, with exit code 2', async (_name, args) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^trc \\w+: cannot read ${missing.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}: no such file$`, 'u'));
  });
});

describe('a missing store', () => {
  it.each([
    ['audit', ['audit']],
    ['diagnose', ['diagnose', 'call_1']],
    ['resource get', ['resource', 'get', 'h_1', '--principal', 'p']],
    ['page', ['page', 'c_1', '--principal', 'p']],
    ['sweep', ['sweep']],
    ['reconcile --list', ['reconcile', '--list']],
    ['inspect', ['inspect']],
  ])('is refused by %s, and not created', async (_name, args) => {
    const cwd = mkdtempSync(join(dir, 'empty-'));
    const home = mkdtempSync(join(dir, 'home-'));
    const r = await runInProcess(args, { cwd, env: { HOME: home } });
    expect(r.code).toBe(2);
    const expected = join(home, '.local/share/tool-result-contract/trc.sqlite');
    expect(r.stderr).toContain(`no store at ${process.platform === 'linux' ? expected : ''}`);
    expect(r.stderr).toContain('(use --store PATH or TRC_STORE)');
    expect(existsSync(join(cwd, '.trc'))).toBe(false);
    expect(existsSync(join(home, '.local'))).toBe(false);
  });

  it('points trc inspect at the store trc demo writes', async () => {
    const home = mkdtempSync(join(dir, 'home-'));
    const r = await runInProcess(['inspect'], { cwd: mkdtempSync(join(dir, 'empty-')), env: { HOME: home, XDG_DATA_HOME: join(home, 'data') } });
    const demo = join(home, 'data/tool-result-contract/demo.sqlite');
    expect(r.stderr).toContain(`"trc demo" writes its calls to ${demo}: trc inspect --store ${demo}`);
  });
});

describe('flag errors', () => {
  const commands = ['validate', 'schema', 'fit', 'page', 'resource', 'sweep', 'scan', 'cite', 'demo', 'reconcile', 'diagnose', 'audit', 'inspect', 'gateway'];

  it.each(commands)('trc %s says "unknown option" in our words', async (command) => {
    const r = await runInProcess([command, '--nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`trc ${command}: unknown option --nope\nRun "trc ${command} --help" for usage.`);
    expect(r.stderr).not.toMatch(/To specify a positional|ERR_PARSE_ARGS|TypeError/u);
  });

  it('says that a flag needs a value, or takes none', async () => {
    expect((await runInProcess(['audit', '--store'])).stderr).toContain('trc audit: --store needs a value');
    expect((await runInProcess(['validate', '--json=yes'])).stderr).toContain('trc validate: --json takes no value');
    expect((await runInProcess(['schema', 'extra'])).stderr).toContain('trc schema: unexpected argument "extra"');
    expect((await runInProcess(['audit', '--store', '--json'])).stderr).toContain('--store needs a value; to give one that starts with "-", write --store=VALUE');
  });
});

/** Start `trc args…` from the sources, wait for `ready` on its output, stop it with SIGTERM. */
function serve(args: readonly string[], ready: RegExp): Promise<{ seen: string; code: number | null }> {
  const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    // From the repository, where tsx resolves; every path given is absolute.
    const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { cwd: fileURLToPath(new URL('../../', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    let matched = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const on = (b: Buffer) => {
      seen += b.toString('utf8');
      if (!matched && ready.test(seen)) {
        matched = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ seen, code });
    });
  });
}

describe('--host', () => {
  it('takes an IPv6 literal in brackets for trc gateway --http', async () => {
    const r = await serve(['gateway', '--http', '0', '--host', '[::1]', '--store', join(dir, 'gw.sqlite'), '--', process.execPath, '-e', ''], /listening on http:\/\/\[::1\]:\d+\/mcp/u);
    expect(r.seen).toMatch(/listening on http:\/\/\[::1\]:\d+\/mcp/u);
    expect(r.seen).not.toMatch(/ENOTFOUND|\n\s+at /u);
    expect(r.code).toBe(0);
  }, 40_000);

  it('takes an IPv6 literal with or without brackets for trc inspect', async () => {
    const store = join(dir, 'inspect.sqlite');
    await runInProcess(['fit', '-', '--store', store], { input: '[1]' });
    for (const host of ['[::1]', '::1']) {
      const r = await serve(['inspect', '--store', store, '--host', host, '--port', '0'], /open http:\/\/\[::1\]:\d+\/#token=/u);
      expect(r.seen).toMatch(/open http:\/\/\[::1\]:\d+\/#token=/u);
      expect(r.code).toBe(0);
    }
  }, 60_000);

  it('refuses what is no address or host name, as a usage error', async () => {
    for (const host of ['[::1', 'a b', '[example.com]']) {
      const r = await runInProcess(['inspect', '--host', host]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--host needs an IP address (127.0.0.1, ::1 or [::1]) or a host name, got "${host}"`);
    }
  });
});

describe('trc page', () => {
  const store = join(dir, 'page.sqlite');
  const rows = JSON.stringify(Array.from({ length: 250 }, (_, i) => ({ id: i, name: `item ${i}` })));
  const fitJson = async (): Promise<Envelope> => JSON.parse((await runInProcess(['fit', '-', '--max-items', '20', '--principal', 'alice', '--store', store, '--json'], { input: rows })).stdout) as Envelope;

  it('pages a fitted list to its end, with exact counts, for the principal it was stored for', async () => {
    let env = await fitJson();
    expect(env.completeness).toMatchObject({ returned_items: 20, available_items: 250 });
    const seen: unknown[] = [...(env.data as unknown[])];
    for (let pages = 0; env.completeness?.next && pages < 10; pages++) {
      const r = await runInProcess(['page', env.completeness.next.value, '--principal', 'alice', '--page-size', '100', '--store', store, '--json']);
      expect(r.code).toBe(0);
      env = JSON.parse(r.stdout) as Envelope;
      seen.push(...(env.data as unknown[]));
    }
    expect(seen.length).toBe(250);
    expect(seen.slice(20)).toEqual((JSON.parse(rows) as unknown[]).slice(20));
    expect(env).toMatchObject({ status: 'succeeded', completeness: { state: 'complete', returned_items: 30, available_items: 30, next: null } });
  });

  it('re-authorizes the cursor: another principal, a resource handle and an unknown cursor are refused with their codes', async () => {
    const env = await fitJson();
    const cursor = env.completeness?.next?.value as string;
    const bob = await runInProcess(['page', cursor, '--principal', 'bob', '--store', store]);
    expect([bob.code, bob.stderr.trim()]).toEqual([2, 'trc page: HANDLE_WRONG_PRINCIPAL: this handle belongs to another principal']);
    const handle = (env.resources?.[0]?.uri as string).replace('trc://resource/', '');
    expect((await runInProcess(['page', handle, '--principal', 'alice', '--store', store])).stderr).toContain('HANDLE_WRONG_KIND');
    expect((await runInProcess(['page', 'no-such-cursor', '--principal', 'alice', '--store', store])).stderr).toContain('HANDLE_UNKNOWN');
  });

  it('takes a cursor that starts with "-" after "--", and says so when it is given without', async () => {
    const bare = await runInProcess(['page', '-Mq4cUuHh0bKQfVBXK5Gdw', '--principal', 'alice', '--store', store]);
    expect([bare.code, bare.stderr.split('\n')[0]]).toEqual([2, 'trc page: unknown option -M (an argument that starts with "-" goes after "--")']);
    const after = await runInProcess(['page', '--principal', 'alice', '--store', store, '--', '-Mq4cUuHh0bKQfVBXK5Gdw']);
    expect([after.code, after.stderr.trim()]).toEqual([2, 'trc page: HANDLE_UNKNOWN: no such handle (it may never have existed)']);
  });

  it('is named in the readable report of trc fit', async () => {
    const r = await runInProcess(['fit', '-', '--max-items', '20', '--principal', 'alice', '--store', store], { input: rows });
    expect(r.stdout).toMatch(/ {2}next page: trc page \S+ --principal alice/u);
  });
});

describe('numbers a double cannot hold, through the CLI', () => {
  const input = '{"big":1e400,"id":12345678901234567890123}';

  it('are kept as their exact digits by trc fit, with a warning at each pointer', async () => {
    const r = await runInProcess(['fit', '-', '--json', '--store', ':memory:'], { input });
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout) as Envelope;
    expect(env.data).toEqual({ big: '1e400', id: '12345678901234567890123' });
    expect(env.warnings.map((w) => (typeof w === 'string' ? w : [w.code, w.pointer]))).toEqual([
      ['NUMBER_KEPT_AS_TEXT', '/data/big'],
      ['NUMBER_KEPT_AS_TEXT', '/data/id'],
    ]);
  });

  it('reach the stored raw result byte for byte', async () => {
    const store = join(dir, 'numbers.sqlite');
    const list = `[${input},{"id":9007199254740993},{"id":1}]`;
    const env = JSON.parse((await runInProcess(['fit', '-', '--max-items', '1', '--principal', 'p', '--store', store, '--json'], { input: list })).stdout) as Envelope;
    const raw = await runInProcess(['resource', 'get', env.resources?.[0]?.uri as string, '--principal', 'p', '--store', store]);
    expect(raw.stdout).toBe(list);
  });

  it('are errors for trc validate (exit 1), at their pointer', async () => {
    const file = fileURLToPath(new URL('../contract/fixtures/invalid/JSON.number-not-exact.json', import.meta.url));
    const r = await runInProcess(['validate', file, '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { findings: { rule: string; pointer: string }[] };
    expect(report.findings.map((f) => [f.rule, f.pointer])).toEqual([['JSON.number-not-exact', '/data/account_id']]);
  });

  it('are checked by trc cite against their exact digits, with a warning', async () => {
    const file = fileURLToPath(new URL('../contract/fixtures/invalid/JSON.number-not-exact.json', import.meta.url));
    const claim = join(dir, 'claim.txt');
    writeFileSync(claim, 'The account id is 12345678901234567890123 [ev_acct].\n');
    const env = JSON.parse((await runInProcess(['fit', file, '--json', '--store', ':memory:'])).stdout) as Envelope;
    const withEvidence = { ...env, evidence: [{ evidence_id: 'ev_acct', supports: ['/data/account_id'] }] };
    const withDigits = join(dir, 'digits.jsonl');
    // The envelope as text again, with the id as a number, as a producer would send it.
    writeFileSync(withDigits, JSON.stringify(withEvidence).replace('"account_id":"12345678901234567890123"', '"account_id":12345678901234567890123') + '\n');
    const r = await runInProcess(['cite', '--results', withDigits, '--answer', claim]);
    expect(r.stdout).toContain('✓ supported');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('JSON.number-not-exact /data/account_id');
  });

  it('keep their digits in the id that trc scan --jsonl echoes', async () => {
    const r = await runInProcess(['scan', '--jsonl'], { input: '{"id":12345678901234567890123,"text":"hello"}\n' });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: '12345678901234567890123', warnings: [{ code: 'NUMBER_KEPT_AS_TEXT', pointer: '/id' }] });
  });
});
