import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runInProcess } from '../helpers/cli.js';

const INVALID = fileURLToPath(new URL('../contract/fixtures/invalid/', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const expected = JSON.parse(readFileSync(new URL('../contract/fixtures/invalid-expected.json', import.meta.url), 'utf8')) as Record<string, { rule: string; pointer: string }>;
const fixtures = readdirSync(INVALID).filter((f) => f.endsWith('.json')).sort();
const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort();
const oneLine = (path: string) => JSON.stringify(JSON.parse(readFileSync(path, 'utf8')));
const tmp = mkdtempSync(join(tmpdir(), 'trc-validate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('trc validate on the invalid fixtures', () => {
  it.each(fixtures)('reports %s with its rule id and pointer', async (file) => {
    const want = expected[file];
    const r = await runInProcess(['validate', join(INVALID, file)]);
    const line = r.stdout.split('\n').find((l) => l.includes(`  ${want?.rule ?? '?'}  `));
    expect(line, r.stdout + r.stderr).toBeDefined();
    expect(line).toContain(`  ${want?.pointer}  `);
    if (want?.rule === 'W1.idempotency-key-mismatch') {
      // A warning is shown but does not fail the envelope.
      expect(line).toContain('warning');
      expect(r.code).toBe(0);
    } else {
      expect(line).toContain('error');
      expect(r.code).toBe(1);
    }
  });
});

describe.concurrent('trc validate', () => {
  it('reports a broken fixture the same way from the real binary', async () => {
    const r = await runCli(['validate', join(INVALID, 'W2.unknown-marked-retryable.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  error  W2.unknown-marked-retryable  /error/retryable  ');
  });

  it('prints OK and exits 0 for a valid envelope file', async () => {
    const r = await runCli(['validate', join(EXAMPLES, 'order-lookup.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${join(EXAMPLES, 'order-lookup.json')}  OK\n`);
  });

  it('checks several files in turn and exits with the worst result', async () => {
    const good = join(EXAMPLES, 'order-lookup.json');
    const bad = join(INVALID, 'S5.cursor-but-complete.json');
    const all = await runInProcess(['validate', ...examples.map((f) => join(EXAMPLES, f))]);
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n')).toHaveLength(examples.length);
    const mixed = await runInProcess(['validate', good, bad]);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toContain(`${good}  OK`);
    expect(mixed.stdout).toContain('S5.cursor-but-complete  /completeness/state');
    const missing = await runInProcess(['validate', join(tmp, 'nope.json'), good]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain(`${good}  OK`);
    expect(missing.stderr).toContain('no such file');
  });

  it('reads one envelope from stdin with "-" and with no FILE', async () => {
    const input = readFileSync(join(EXAMPLES, 'payment-unknown.json'));
    for (const args of [['validate', '-'], ['validate']]) {
      const r = await runCli(args, { input });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('<stdin>  OK\n');
    }
  });

  it('validates a JSONL stream line by line, with line numbers, skipping blank lines', async () => {
    const lines = [...examples.map((f) => oneLine(join(EXAMPLES, f))), '', oneLine(join(INVALID, 'S5.cursor-but-complete.json'))];
    const r = await runCli(['validate', '-'], { input: lines.join('\n') + '\n' });
    expect(r.code).toBe(1);
    const out = r.stdout.trim().split('\n');
    expect(out.slice(0, 7)).toEqual(examples.map((_, i) => `<stdin>:${i + 1}  OK`));
    expect(out[7]).toBe('<stdin>:9  error  S5.cursor-but-complete  /completeness/state  a result with a next cursor is never complete');
    expect(r.stderr).toContain('8 envelopes: 7 valid, 1 invalid');
  });

  it('prints one JSON object per envelope with --json', async () => {
    const lines = [oneLine(join(EXAMPLES, 'order-lookup.json')), oneLine(join(INVALID, 'E2.unresolved-support.json'))];
    const r = await runCli(['validate', '--json'], { input: lines.join('\r\n') });
    expect(r.code).toBe(1);
    const reports = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(reports).toEqual([
      { source: '<stdin>', line: 1, valid: true, findings: [] },
      {
        source: '<stdin>',
        line: 2,
        valid: false,
        findings: [{ rule: 'E2.unresolved-support', pointer: '/evidence/0/supports/1', message: expect.stringContaining('/data/status/length') as unknown, severity: 'error' }],
      },
    ]);
  });

  it('gives a pretty-printed document no line number in --json', async () => {
    const r = await runCli(['validate', '--json', join(EXAMPLES, 'ticket-untrusted.json')]);
    expect(JSON.parse(r.stdout)).toEqual({ source: join(EXAMPLES, 'ticket-untrusted.json'), line: null, valid: true, findings: [] });
  });

  it('exits 2 with the line and column when a document is not JSON', async () => {
    const r = await runCli(['validate', '-'], { input: '{\n  "status": "succeeded",\n  "data": }\n' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("<stdin>:3:11  not JSON: Unexpected token '}'\n");
  });

  it('exits 2 naming the broken line of a JSONL stream, and still checks the other lines', async () => {
    const good = oneLine(join(EXAMPLES, 'order-lookup.json'));
    const r = await runCli(['validate', '--json', '-'], { input: `${good}\n{"status": tru}\n${good}\n` });
    expect(r.code).toBe(2);
    const reports = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { line: number; valid: boolean; error?: unknown });
    expect(reports.map((x) => [x.line, x.valid])).toEqual([[1, true], [2, false], [3, true]]);
    expect(reports[1]?.error).toEqual({ code: 'NOT_JSON', message: "Unexpected token '}'", line: 2, column: 15 });
  });

  it('exits 2 for a missing file, a directory, empty input and a bad flag', async () => {
    const missing = await runCli(['validate', join(tmp, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const dir = await runCli(['validate', tmp]);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toContain('directory');
    const empty = await runCli(['validate', '-'], { input: '\n  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no envelope');
    const flag = await runCli(['validate', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('trc validate --help');
  });

  it('checks the minimal profile with --minimal', async () => {
    const minimal = {
      status: 'succeeded',
      data: { temperature_c: 27.4 },
      completeness: { state: 'complete', next: null },
      provenance: { source_type: 'api', source_id: 'weather', observed_at: '2026-09-01T02:00:00Z', retrieved_at: '2026-09-01T02:01:00Z' },
      evidence: [],
      untrusted_content: [],
      side_effect: { occurred: false, operation: 'read' },
      warnings: [],
    };
    const path = join(tmp, 'minimal.json');
    writeFileSync(path, JSON.stringify(minimal));
    expect((await runCli(['validate', '--minimal', path])).code).toBe(0);
    const full = await runCli(['validate', path]);
    expect(full.code).toBe(1);
    expect(full.stdout).toContain('SCHEMA  /contract_version');
  });

  it('streams a large JSONL input without holding it whole', async () => {
    const line = oneLine(join(EXAMPLES, 'truncated-list.json'));
    const path = join(tmp, 'big.jsonl');
    writeFileSync(path, (line + '\n').repeat(5000));
    const r = await runCli(['validate', '--json', path]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(5000);
  });

  it('validates a 40 MB JSONL file inside a 40 MB heap, so it never holds the input whole', async () => {
    const line = oneLine(join(EXAMPLES, 'truncated-list.json')) + '\n';
    const path = join(tmp, 'huge.jsonl');
    const copies = Math.ceil(40e6 / line.length);
    writeFileSync(path, line.repeat(copies));
    const r = await runCli(['validate', path], { env: { NODE_OPTIONS: '--max-old-space-size=40' }, timeoutMs: 120_000 });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stderr).toContain(`${copies} envelopes: ${copies} valid, 0 invalid`);
  }, 120_000);

  it('explains itself with --help', async () => {
    const r = await runCli(['validate', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: trc validate [FILE...|-] [--json] [--minimal]');
    expect(r.stdout).toContain('Exit codes');
    expect(r.stdout).toContain('JSONL');
  });
});

describe('validate on JSONL with a bad line up front or an oversized one later', () => {
  const good = oneLine(join(EXAMPLES, 'order-lookup.json'));

  it('reports every line when the first one has invalid UTF-8', async () => {
    const file = join(tmp, 'bad-first.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}\n{}\n'), Buffer.from(`${good}\n`)]));
    const r = await runInProcess(['validate', file]);
    expect(r.stdout).toMatch(/bad-first\.jsonl:1:7 +not JSON: invalid UTF-8/);
    expect(r.stdout).toMatch(/bad-first\.jsonl:2 +error +SCHEMA/);
    expect(r.stdout).toMatch(/bad-first\.jsonl:3 +OK/);
  });

  it('prints the first line\'s report before refusing a second line over the size limit', async () => {
    const file = join(tmp, 'huge-second.jsonl');
    writeFileSync(file, `${good}\n{"a":"${'x'.repeat(65 * 1024 * 1024)}"}\n`);
    const r = await runInProcess(['validate', file]);
    expect(r.stdout).toMatch(/huge-second\.jsonl:1 +OK/);
    expect(r.stderr).toContain('larger than 64 MiB');
    expect(r.code).toBe(2);
  }, 60_000);
});
