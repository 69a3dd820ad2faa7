/**
 * Every `trc` command fed the inputs that break naive readers: empty input, a UTF-8 byte order
 * mark, UTF-16, invalid UTF-8, 10^6-deep nesting, a 600 MiB single line (streamed, or a sparse
 * file: generated on the fly and deleted after), NaN/Infinity tokens, and a closed stdin. Each
 * run must end with the exit code documented for it (0, 1 or 2), print no stack trace, and a
 * refusal for size is one line naming the limit. Peak RSS per run is printed at the end.
 *
 * Commands that read stdin are fed there; commands that read a store or a file are fed the
 * input as that file (`--store FILE`, `--config FILE`, `--results FILE`…); the two servers
 * (`gateway --http`, `inspect`) are started and fed over HTTP, then stopped with SIGTERM.
 *
 * The CLI is bundled from the sources first (esbuild, under .trc/, removed after). To compare
 * with another build (e.g. an older release), set TRC_EDGE_BIN to its bin.js: the table of
 * peak RSS is printed whatever the verdicts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EDGE_INPUTS, HUGE_BYTES, ROOT, STACK_TRACE, Scratch, bundleCli, get, post, runEdge, type EdgeInput, type EdgeRun, type RunOptions } from './edge-harness.js';

type Code = 0 | 1 | 2;
/** Exit code per input name (every input must be listed). */
type Expect = Readonly<Record<string, Code>>;

/** One command, how it is fed, its typical valid input and the exit code each input must give. */
interface Subject {
  readonly name: string;
  /**
   * `stdin`: the input is stdin; `file`: the input is the file named by `args(path)`;
   * `http`: the input is the body of a request to the running server.
   */
  readonly feed: 'stdin' | 'file' | 'http';
  readonly args: (input: string) => string[];
  readonly typical: Buffer;
  readonly expect: Expect;
  /** First bytes of the 600 MiB line (default none: all `x`). */
  readonly hugeHead?: string;
  readonly hugeFill?: number;
  readonly server?: RunOptions['server'];
  /** The 600 MiB input hits a size limit of this command: the refusal must name it. */
  readonly sizeLimit?: boolean;
  /** With `closed stdin`, the file a file-fed command gets (default: the typical input). */
  readonly env?: NodeJS.ProcessEnv;
}

const example = readFileSync(join(ROOT, 'examples/order-lookup.json'));
const exampleLine = Buffer.from(JSON.stringify(JSON.parse(example.toString('utf8'))) + '\n');
const faultyServer = join(ROOT, 'test/gateway/fixtures/faulty-server.mjs');
const attackScenario = Buffer.from(readFileSync(join(ROOT, 'examples/attack-sim/suite.jsonl'), 'utf8').split('\n')[0] + '\n');
const mcpHello = Buffer.from(
  [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'edge', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ].map((m) => JSON.stringify(m) + '\n').join(''),
);

const all = (code: Code, overrides: Partial<Record<string, Code>> = {}): Expect =>
  Object.fromEntries(EDGE_INPUTS.map((i) => [i.name, overrides[i.name] ?? code]));

let scratch: Scratch;
let bin: string;
let removeBundle: () => void;
let results: string;
let answer: string;
const rows: { command: string; input: string; code: number | null; rss: number | null; seconds: number }[] = [];

/** The subjects: every command of `trc --help`, some in two ways of feeding. */
function subjects(): Subject[] {
  const store = (p: string) => ['--store', p];
  return [
    { name: 'validate -', feed: 'stdin', args: () => ['validate', '-'], typical: example, sizeLimit: true, expect: all(2, { 'UTF-8 BOM': 0, '10^6-deep nesting': 1 }) },
    { name: 'validate FILE', feed: 'file', args: (p) => ['validate', p], typical: example, sizeLimit: true, expect: all(2, { 'UTF-8 BOM': 0, '10^6-deep nesting': 1, 'closed stdin': 0 }) },
    { name: 'schema', feed: 'stdin', args: () => ['schema'], typical: Buffer.alloc(0), expect: all(0) },
    { name: 'fit -', feed: 'stdin', args: () => ['fit', '-', '--store', 'fit.sqlite'], typical: Buffer.from('[{"id":1,"name":"a"},{"id":2,"name":"b"}]'), hugeHead: '"', sizeLimit: true, expect: all(2, { 'UTF-8 BOM': 0, '10^6-deep nesting': 0 }) },
    { name: 'fit - --jsonl', feed: 'stdin', args: () => ['fit', '-', '--jsonl', '--store', 'fit.sqlite'], typical: Buffer.from('{"id":1}\n{"id":2}\n'), hugeFill: 0x20, expect: all(2, { empty: 0, 'UTF-8 BOM': 0, '10^6-deep nesting': 0, '600 MiB line': 0, 'closed stdin': 0 }) },
    { name: 'page', feed: 'file', args: (p) => ['page', 'cursor_x', '--principal', 'p', ...store(p)], typical: Buffer.alloc(0), expect: all(2) },
    { name: 'resource get', feed: 'file', args: (p) => ['resource', 'get', 'h_x', '--principal', 'p', ...store(p)], typical: Buffer.alloc(0), expect: all(2) },
    { name: 'sweep', feed: 'file', args: (p) => ['sweep', ...store(p)], typical: Buffer.alloc(0), expect: all(2, { empty: 0, 'closed stdin': 0 }) },
    { name: 'attack-sim -', feed: 'stdin', args: () => ['attack-sim', '-'], typical: attackScenario, sizeLimit: true, expect: all(2, { 'UTF-8 BOM': 0 }) },
    { name: 'scan -', feed: 'stdin', args: () => ['scan', '-'], typical: Buffer.from('Quarterly revenue rose 4%.'), expect: all(0) },
    { name: 'scan --jsonl', feed: 'stdin', args: () => ['scan', '--jsonl'], typical: Buffer.from('{"id":"a","text":"Quarterly revenue rose 4%."}\n'), hugeHead: '{"text":"', sizeLimit: true, expect: all(2, { empty: 0, 'UTF-8 BOM': 0, 'closed stdin': 0 }) },
    { name: 'cite --results -', feed: 'stdin', args: () => ['cite', '--results', '-', '--answer', answer], typical: exampleLine, hugeHead: '"', sizeLimit: true, expect: all(2, { 'UTF-8 BOM': 0 }) },
    { name: 'cite --answer -', feed: 'stdin', args: () => ['cite', '--results', results, '--answer', '-'], typical: Buffer.from('Order ord_1001 was shipped on 2026-08-31 [ev_001].'), sizeLimit: true, expect: all(0, { '600 MiB line': 2, 'invalid UTF-8': 2, 'NaN/Infinity': 1 }) },
    { name: 'demo', feed: 'file', args: (p) => ['demo', ...store(p)], typical: Buffer.alloc(0), expect: all(2, { empty: 0, 'closed stdin': 0 }) },
    { name: 'reconcile --list', feed: 'file', args: (p) => ['reconcile', '--list', ...store(p)], typical: Buffer.alloc(0), expect: all(2, { empty: 0, 'closed stdin': 0 }) },
    { name: 'diagnose', feed: 'file', args: (p) => ['diagnose', 'call_x', ...store(p)], typical: Buffer.alloc(0), expect: all(2) },
    { name: 'audit', feed: 'file', args: (p) => ['audit', ...store(p)], typical: Buffer.alloc(0), expect: all(2, { empty: 0, 'closed stdin': 0 }) },
    {
      name: 'inspect',
      feed: 'file',
      args: (p) => ['inspect', ...store(p), '--port', '0'],
      typical: Buffer.alloc(0),
      expect: all(2, { empty: 0, 'closed stdin': 0 }),
      server: {
        ready: /open http:\/\/\S+#token=\S+/u,
        visit: async (stdout) => {
          const url = /open (http:\/\/[^/]+)\/#token=(\S+)/u.exec(stdout);
          if (url === null) return;
          const auth = { authorization: `Bearer ${url[2]}` };
          for (const q of ['?limit=%FF', '?since=NaN', `?tool=${'x'.repeat(100_000)}`, '?limit=Infinity']) expect(await get(`${url[1]}/api/calls${q}`, auth)).not.toBe(500);
        },
      },
    },
    { name: 'gateway (stdio)', feed: 'stdin', args: () => ['gateway', '--store', 'gw.sqlite', '--', process.execPath, faultyServer], typical: mcpHello, sizeLimit: true, expect: all(0, { '600 MiB line': 2 }) },
    { name: 'gateway --config', feed: 'file', args: (p) => ['gateway', '--config', p, '--store', 'gw.sqlite', '--', process.execPath, faultyServer], typical: Buffer.from('{}'), sizeLimit: true, expect: all(2, { empty: 0, 'UTF-8 BOM': 0, 'closed stdin': 0 }) },
    {
      name: 'gateway --http',
      feed: 'http',
      args: () => ['gateway', '--http', '0', '--store', 'gw.sqlite', '--', process.execPath, faultyServer],
      typical: mcpHello.subarray(0, mcpHello.indexOf(0x0a)),
      expect: all(0),
      server: {
        ready: /listening on (http:\/\/\S+)/u,
        visit: async (_stdout, stderr, body) => {
          const url = /listening on (http:\/\/\S+)/u.exec(stderr)?.[1];
          if (url === undefined) throw new Error('no URL');
          // A client error (4xx) or an answer, never a server error; a huge body may be cut off.
          const status = await post(url, body);
          expect(status === null ? body === 'huge' : status >= 200 && status < 500, `HTTP ${status}`).toBe(true);
        },
      },
    },
  ];
}

/** Run one subject on one input. */
async function run(s: Subject, input: EdgeInput): Promise<EdgeRun> {
  const cwd = scratch.subdir(s.name.replace(/\W+/gu, '-'));
  const base = { cwd, timeoutMs: 300_000, ...(s.server === undefined ? {} : { server: s.server }), ...(s.env === undefined ? {} : { env: s.env }) };
  if (s.feed === 'http') {
    const body = input.kind === 'bytes' ? input.bytes(s.typical) : input.kind === 'huge' ? ('huge' as const) : s.typical;
    return runEdge(bin, s.args(''), { ...base, stdin: input.kind === 'closed' ? 'closed' : Buffer.alloc(0), body });
  }
  if (s.feed === 'stdin') {
    const stdin = input.kind === 'bytes' ? input.bytes(s.typical) : input.kind === 'huge' ? ('huge' as const) : ('closed' as const);
    return runEdge(bin, s.args(''), { ...base, stdin, ...(s.hugeHead === undefined ? {} : { hugeHead: Buffer.from(s.hugeHead) }), ...(s.hugeFill === undefined ? {} : { hugeFill: s.hugeFill }) });
  }
  const path =
    input.kind === 'bytes' ? scratch.file('input', input.bytes(s.typical))
    : input.kind === 'huge' ? scratch.hugeFile('input', Buffer.from(s.hugeHead ?? 'x'.repeat(1 << 20)))
    : scratch.file('input', s.typical);
  return runEdge(bin, s.args(path), { ...base, stdin: input.kind === 'closed' ? 'closed' : Buffer.alloc(0) });
}

beforeAll(async () => {
  scratch = new Scratch();
  const other = process.env['TRC_EDGE_BIN'];
  ({ bin, remove: removeBundle } = other === undefined || other === '' ? await bundleCli() : { bin: other, remove: () => undefined });
  results = scratch.file('results.jsonl', exampleLine);
  answer = scratch.file('answer.txt', Buffer.from('Order ord_1001 was shipped on 2026-08-31 [ev_001].'));
}, 60_000);

afterAll(() => {
  removeBundle?.();
  scratch?.cleanup();
  const width = Math.max(...rows.map((r) => r.command.length));
  const lines = rows.map((r) => `  ${r.command.padEnd(width)}  ${r.input.padEnd(18)}  exit ${String(r.code).padStart(4)}  ${r.rss === null ? '   ?' : String(r.rss).padStart(4)} MiB  ${r.seconds.toFixed(1).padStart(5)} s`);
  console.log(`\nEdge inputs: peak RSS per run (the 600 MiB line is ${HUGE_BYTES / 2 ** 20} MiB)\n${lines.join('\n')}`);
});

describe('every command on edge inputs', () => {
  for (const s of subjects()) {
    describe(s.name, () => {
      for (const input of EDGE_INPUTS) {
        it(`${input.name}: exits ${s.expect[input.name]} without a stack trace`, async () => {
          const r = await run(s, input);
          rows.push({ command: s.name, input: input.name, code: r.code, rss: r.peakRssMiB, seconds: r.seconds });
          const said = `stderr: ${r.stderr.slice(0, 2000)}`;
          expect(r.signal, said).toBe(null);
          expect(r.visitError, said).toBe(null);
          expect(r.stderr, said).not.toMatch(STACK_TRACE);
          expect(r.stderr, said).not.toMatch(/internal error/u);
          expect(r.code, said).toBe(s.expect[input.name]);
          if (input.kind === 'huge' && r.code === 2) {
            // A refusal is one line; one for size names the limit.
            const own = r.stderr.split('\n').filter((l) => l.startsWith('trc '));
            expect(own, said).toHaveLength(1);
            if (s.sizeLimit === true) expect(own[0], said).toMatch(/larger than \d+ MiB/u);
          }
        }, 300_000);
      }
    });
  }
});
