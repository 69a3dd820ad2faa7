/**
 * The edge-input harness: every `trc` command fed the inputs that break naive readers, in a
 * child process of a freshly bundled CLI, with its exit code, its stderr and its peak RSS.
 *
 * How each command is fed (stdin, a file named by a flag, or HTTP for the servers) is part of
 * each command's entry in `test/cli/edge-inputs.test.ts`; docs/cli.md lists it.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PEAK_RSS_PROBE = fileURLToPath(new URL('../helpers/peak-rss.mjs', import.meta.url));

/** The size of the one-line input: 600 MiB, past V8's string limit (~512 MiB). */
export const HUGE_BYTES = 600 * 1024 * 1024;

/** One edge input. `huge` and `closed` are made by the runner (streamed, or no stdin at all). */
export type EdgeInput =
  | { readonly name: string; readonly kind: 'bytes'; readonly bytes: (typical: Buffer) => Buffer }
  | { readonly name: string; readonly kind: 'huge' }
  | { readonly name: string; readonly kind: 'closed' };

const utf16le = (b: Buffer) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')]);
/** The typical input with an invalid UTF-8 sequence (0xC3 0x28) inside its first string. */
const badUtf8 = (b: Buffer) => {
  const at = b.indexOf(0x22) + 1 || Math.min(1, b.length);
  return Buffer.concat([b.subarray(0, at), Buffer.from([0xc3, 0x28]), b.subarray(at)]);
};
const DEPTH = 1_000_000;

/** The edge inputs of the issue, in order. */
export const EDGE_INPUTS: readonly EdgeInput[] = [
  { name: 'empty', kind: 'bytes', bytes: () => Buffer.alloc(0) },
  { name: 'UTF-8 BOM', kind: 'bytes', bytes: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) },
  { name: 'UTF-16', kind: 'bytes', bytes: utf16le },
  { name: 'invalid UTF-8', kind: 'bytes', bytes: badUtf8 },
  { name: '10^6-deep nesting', kind: 'bytes', bytes: () => Buffer.from('['.repeat(DEPTH) + ']'.repeat(DEPTH)) },
  { name: '600 MiB line', kind: 'huge' },
  { name: 'NaN/Infinity', kind: 'bytes', bytes: () => Buffer.from('{"value":NaN,"limit":Infinity,"floor":-Infinity}\n') },
  { name: 'closed stdin', kind: 'closed' },
];

/** What one run gave. */
export interface EdgeRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak resident set size of the CLI process in MiB (null when it died before reporting). */
  readonly peakRssMiB: number | null;
  readonly seconds: number;
  /** What a server's visit found wrong (null when it passed or there was none). */
  readonly visitError: Error | null;
}

/** A scratch directory for one suite, removed (with any big file) by `cleanup()`. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'trc-edge-'));
  private n = 0;
  private readonly onExit = () => this.cleanup();

  constructor() {
    // Even a suite that dies halfway must not leave a 600 MiB file behind.
    process.once('exit', this.onExit);
  }

  /** A new file holding `bytes`. */
  file(name: string, bytes: Buffer): string {
    const path = join(this.dir, `${this.n++}-${name}`);
    writeFileSync(path, bytes);
    return path;
  }

  /** A new 600 MiB one-line file: `head`, then zero bytes (sparse, so it takes no disk). */
  hugeFile(name: string, head: Buffer): string {
    const path = join(this.dir, `${this.n++}-${name}`);
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, head);
      ftruncateSync(fd, HUGE_BYTES);
    } finally {
      closeSync(fd);
    }
    return path;
  }

  /** A fresh empty directory (a working directory for one run). */
  subdir(name: string): string {
    const path = join(this.dir, `${this.n++}-${name}`);
    mkdirSync(path);
    return path;
  }

  cleanup(): void {
    process.off('exit', this.onExit);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Bundle `src/cli/bin.ts` into `.trc/` of the repository (so packages resolve, and the
 * version is read from package.json two levels up), and return the entry and a cleanup.
 */
export async function bundleCli(): Promise<{ bin: string; remove: () => void }> {
  mkdirSync(join(ROOT, '.trc'), { recursive: true });
  const out = mkdtempSync(join(ROOT, '.trc', 'edge-cli-'));
  await build({
    entryPoints: [join(ROOT, 'src/cli/bin.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    outdir: out,
    packages: 'external',
    target: 'node20',
    logLevel: 'warning',
  });
  return { bin: join(out, 'bin.js'), remove: () => rmSync(out, { recursive: true, force: true }) };
}

/** How a run is fed and stopped. */
export interface RunOptions {
  readonly cwd: string;
  /** Bytes for stdin; `huge` streams the 600 MiB line; `closed` runs with file descriptor 0 closed. */
  readonly stdin: Buffer | 'huge' | 'closed';
  /** The first bytes of the huge line (e.g. `"` to make it one JSON string). */
  readonly hugeHead?: Buffer;
  /** The filler byte of the huge line (default `x`). */
  readonly hugeFill?: number;
  /** For servers: called with the child's stdout once `ready` matches, then the child gets SIGTERM. */
  readonly server?: { readonly ready: RegExp; readonly visit: (stdout: string, stderr: string, body: Buffer | 'huge') => Promise<void> };
  /** For servers fed over HTTP: the body to send (the input, or the 600 MiB line). */
  readonly body?: Buffer | 'huge';
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/** Run `node bin args…` with the peak-RSS probe and report what happened. */
export function runEdge(bin: string, args: readonly string[], options: RunOptions): Promise<EdgeRun> {
  const rssFile = join(options.cwd, `.peak-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const node = [process.execPath, '--import', PEAK_RSS_PROBE, bin, ...args];
  // A closed stdin is closed by the shell before node starts (`exec 0<&-`).
  const [cmd, argv] = options.stdin === 'closed' ? ['/bin/sh', ['-c', 'exec 0<&- "$@"', 'sh', ...node]] : [node[0] as string, node.slice(1)];
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', TRC_PEAK_RSS_FILE: rssFile, ...options.env },
      stdio: [options.stdin === 'closed' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let visitError: Error | null = null;
    child.stdout!.on('data', (b: Buffer) => {
      // Keep the head of a long output only: the verdict is in the exit code and stderr.
      if (outBytes < 1 << 20) out.push(b);
      outBytes += b.length;
    });
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      let peak: number | null = null;
      try {
        peak = Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024);
        rmSync(rssFile, { force: true });
      } catch {
        peak = null;
      }
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        peakRssMiB: peak,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        visitError,
      });
    });
    if (options.server !== undefined) {
      const { ready, visit } = options.server;
      let visited = false;
      const check = () => {
        const text = Buffer.concat(out).toString('utf8') + Buffer.concat(err).toString('utf8');
        if (visited || !ready.test(text)) return;
        visited = true;
        visit(Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8'), options.body ?? Buffer.alloc(0))
          .catch((e: unknown) => (visitError = e as Error))
          .finally(() => child.kill('SIGTERM'));
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
    }
    if (child.stdin === null) return;
    child.stdin.on('error', () => undefined); // EPIPE: the command stopped reading, as it may
    if (options.stdin === 'huge') void streamHuge(child.stdin, options.hugeHead ?? Buffer.alloc(0), options.hugeFill ?? 0x78);
    else if (options.stdin !== 'closed') child.stdin.end(options.stdin);
  });
}

/** Write the 600 MiB line to `sink`, respecting backpressure, stopping when the reader goes. */
async function streamHuge(sink: NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean }, head: Buffer, fill: number): Promise<void> {
  const chunk = Buffer.alloc(1 << 20, fill);
  let sent = 0;
  let closed = false;
  sink.once('close', () => (closed = true));
  sink.once('error', () => (closed = true));
  const write = (b: Buffer) => new Promise<void>((done) => (sink.write(b) ? done() : sink.once('drain', done), closed ? done() : undefined));
  if (head.length > 0) {
    await write(head);
    sent += head.length;
  }
  while (!closed && sent < HUGE_BYTES) {
    const part = HUGE_BYTES - sent >= chunk.length ? chunk : chunk.subarray(0, HUGE_BYTES - sent);
    await write(part);
    sent += part.length;
  }
  if (!closed) sink.end();
}

/** POST `body` to `url` and return the status (or null when the connection failed). */
export function post(url: string, body: Buffer | 'huge', headers: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
      res.on('error', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
    if (body === 'huge') void streamHuge(req, Buffer.from('"'), 0x78);
    else req.end(body);
  });
}

/** GET `url` (with headers) and return the status. */
export function get(url: string, headers: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
    req.end();
  });
}

/** What a stack trace looks like in stderr: `    at fn (file:line:col)` or a Node internal frame. */
export const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(node:internal)|node:internal\/|^\w*Error: .*\n\s+at /mu;
