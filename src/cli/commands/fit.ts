/**
 * `trc fit [FILE|-]`: fit a tool result to a size budget, storing the full raw result.
 */
import { stat } from 'node:fs/promises';
import { fileChunks, fitStream, type Budget } from '../../budget/index.js';
import type { Envelope } from '../../contract/index.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { parseFlags } from '../flags.js';
import { formatBytes, requireFile, skipUtf8Bom } from '../input.js';

/**
 * What `trc fit` holds whole (one element or line, or a value that is not a top-level array):
 * 256 MiB, the library's default — fit is made for large raw results.
 */
const MAX_HELD_BYTES = 256 * 1024 * 1024;
import { openOrCreateStore, storePath } from '../store.js';

const HELP = `Usage: trc fit [FILE|-] [--max-tokens N] [--max-items N] [--max-string N]
               [--max-depth N] [--max-bytes N] [--store PATH] [--principal P]
               [--tool NAME] [--jsonl] [--json]

Fit a tool result to a size budget without ever cutting JSON as text. FILE (or stdin when
FILE is "-" or absent) holds one JSON value: an agent.tool.result.v1 envelope, or a raw tool
result that is wrapped as the data of a "succeeded" envelope.

What happens:
  - lists lose items, strings are cut at character boundaries, deep subtrees are emptied,
    and every such node is listed in completeness.trimmed with what it kept of its total;
  - the status becomes "partial", completeness says "truncated" with reason
    "context_budget", and a labelled summary says what was left out (counts, fields,
    min/max/sum of numeric columns);
  - nodes that evidence points at are kept first; evidence whose node had to go is
    re-pointed at the stored raw result;
  - the full raw input is stored byte for byte in the SQLite store and referenced from
    resources[] as trc://resource/<handle>; read it back with "trc resource get".
A top-level array is streamed element by element, so files far larger than memory work;
so is JSON Lines (one value per line, taken as a list): with --jsonl, or a FILE ending in
.jsonl or .ndjson. Blank lines are skipped, however long. What is held whole — one element,
one line, or an input that is not a top-level array — may have up to ${formatBytes(MAX_HELD_BYTES)}.
Nothing is stored when the input already fits or is not valid JSON. The store is opened
first all the same (the input is spooled to it as it arrives, and dropped if it fits), so the
SQLite driver (better-sqlite3) must be installed.

The input must be UTF-8 (a byte order mark is skipped, and not stored); UTF-16 is refused.
A number a double cannot hold (1e400, 12345678901234567890123) is never changed: the fitted
data keeps its exact digits as a string, with a NUMBER_KEPT_AS_TEXT warning at its pointer,
and the stored raw result keeps the bytes as they were.
To page a fitted list, give its cursor to "trc page".

Options:
  --max-tokens N   tokens (o200k_base) of data + summary (default 8000, min 32)
  --max-items N    items kept per list (default 100)
  --max-string N   characters kept per string (default 4000)
  --max-depth N    nesting depth kept below data (default 16)
  --max-bytes N    UTF-8 bytes of data + summary (default 262144, min 128)
  --store PATH     SQLite store (default $TRC_STORE, else trc.sqlite in the user
                   data directory: see "trc --help")
  --principal P    who may read the stored result back (default $TRC_PRINCIPAL, else "local")
  --tool NAME      tool name for a wrapped raw result (default "cli")
  --jsonl          the input is JSON Lines (automatic for .jsonl and .ndjson files)
  --json           print the fitted envelope as JSON instead of a readable report
  -h, --help       show this help

Exit codes: 0 fitted, 2 usage error, unreadable file, input that is not JSON (the message
gives the line and column), not UTF-8, or over the size limit.

Examples:
  trc fit rows.json --max-items 20 --principal alice
  trc fit export.ndjson --max-tokens 4000
  curl -s https://api.example.com/export | trc fit - --max-tokens 8000 --json > envelope.json`;

export { storePath } from '../store.js';

function intFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} expects a non-negative integer, got "${value}"`);
  return Number(value);
}

function progressBar(io: CliIO, total: number | null): { update(n: number): void; done(): void } {
  if (!io.isTTY) return { update() {}, done() {} };
  let last = 0;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  return {
    update(n) {
      const t = Date.now();
      if (t - last < 100) return;
      last = t;
      if (total !== null && total > 0) {
        const share = Math.min(1, n / total);
        const filled = Math.round(share * 30);
        io.stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(30 - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${mb(n)}/${mb(total)} MB`);
      } else {
        io.stderr.write(`\r${mb(n)} MB read`);
      }
    },
    done() {
      io.stderr.write('\r\x1b[K');
    },
  };
}

/** The readable report of a fitted (or paged) envelope, with the commands that read on. */
export function report(env: Envelope, principal: string): string {
  const c = env.completeness;
  const lines = [`status: ${env.status}${c ? ` (completeness: ${c.state}${c.reason ? `, reason: ${c.reason}` : ''})` : ''}`];
  if (c?.returned_items !== undefined && c.returned_items !== null) {
    lines.push(`items: ${c.returned_items} returned of ${c.available_items ?? 'an unknown number'} available`);
  }
  for (const t of c?.trimmed ?? []) lines.push(`trimmed: ${t.pointer || '/'} ${t.kind} kept ${t.kept} of ${t.total}`);
  if (env.summary) lines.push(`summary: ${env.summary.text}`);
  for (const r of env.resources ?? []) {
    lines.push(`resource: ${r.uri} (${r.bytes} bytes, sha256 ${r.sha256}, expires ${r.expires_at ?? 'never'})`);
    lines.push(`  read back: trc resource get ${r.uri} --principal ${principal}`);
  }
  if (c?.next) {
    lines.push(`next cursor: ${c.next.value}`);
    lines.push(`  next page: trc page ${c.next.value} --principal ${principal}`);
  }
  for (const w of env.warnings) lines.push(`warning: ${typeof w === 'string' ? w : `${w.code}${w.pointer === undefined ? '' : ` at ${w.pointer}`}: ${w.message}`}`);
  lines.push('data:', JSON.stringify(env.data, null, 2));
  return lines.join('\n');
}

/**
 * The input's chunks after a UTF-8 byte order mark (RFC 8259 §8.1 allows ignoring it); UTF-16
 * is refused. A pipe may deliver fewer than three bytes at first, so they are gathered.
 */
async function* withoutUtf8Bom(chunks: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<Uint8Array> {
  let head: Buffer | null = Buffer.alloc(0);
  for await (const chunk of chunks) {
    if (head === null) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < 3) continue;
    const rest = skipUtf8Bom(head, source);
    head = null;
    if (rest.length > 0) yield rest;
  }
  if (head !== null && head.length > 0) yield skipUtf8Bom(head, source);
}

/** `trc fit`. */
export const command: Command = {
  name: 'fit',
  summary: 'fit a tool result to a size budget, storing the full raw result',
  help: HELP,
  async run(argv, io) {
    const parsed = parseFlags({
        args: [...argv],
        options: {
          'max-tokens': { type: 'string' },
          'max-items': { type: 'string' },
          'max-string': { type: 'string' },
          'max-depth': { type: 'string' },
          'max-bytes': { type: 'string' },
          store: { type: 'string' },
          principal: { type: 'string' },
          tool: { type: 'string' },
          json: { type: 'boolean', default: false },
          jsonl: { type: 'boolean', default: false },
        },
        allowPositionals: true,
        strict: true,
      });
    const { values, positionals } = parsed;
    if (positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${positionals.length}`);
    const budget: { -readonly [K in keyof Budget]: Budget[K] } = {};
    const set = (key: keyof Budget, flag: string, v: string | undefined) => {
      const n = intFlag(flag, v);
      if (n !== undefined) budget[key] = n;
    };
    set('maxTokens', 'max-tokens', values['max-tokens']);
    set('maxItems', 'max-items', values['max-items']);
    set('maxStringChars', 'max-string', values['max-string']);
    set('maxDepth', 'max-depth', values['max-depth']);
    set('maxBytes', 'max-bytes', values['max-bytes']);
    const file = positionals[0] ?? '-';
    const principal = values.principal ?? io.env['TRC_PRINCIPAL'] ?? 'local';
    if (principal === '') throw new UsageError('--principal must not be empty');

    let size: number | null = null;
    let filePath = '';
    if (file !== '-') {
      filePath = await requireFile(file, io);
      size = (await stat(filePath)).size;
    }
    const store = await openOrCreateStore(storePath(values.store, io), io.env);
    const bar = progressBar(io, size);
    try {
      // fileChunks reuses one buffer; a read stream leaves ~35 MB of dead buffers for the GC on 100 MB.
      const source = withoutUtf8Bom(file === '-' ? (io.stdin as AsyncIterable<Uint8Array>) : fileChunks(filePath), file === '-' ? '<stdin>' : file);
      const env = await fitStream(source, budget, {
        store, principal, tool: values.tool ?? 'cli', onProgress: (n) => bar.update(n), maxBufferBytes: MAX_HELD_BYTES,
        ...(values.jsonl || /\.(jsonl|ndjson)$/iu.test(file) ? { format: 'jsonl' as const } : {}),
      });
      bar.done();
      println(io.stdout, values.json ? JSON.stringify(env, null, 2) : report(env, principal));
      return 0;
    } finally {
      bar.done();
      await store.close();
    }
  },
};
