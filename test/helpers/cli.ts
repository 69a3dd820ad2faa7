/**
 * Run the `trc` CLI in a child process from the TypeScript sources (no build needed), or in
 * this process through the same `main()` the binary calls.
 */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

/** What one CLI run printed and returned. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `trc ...args`, optionally feeding `input` on stdin. */
export function runCli(args: readonly string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Run `trc` in this process (the same `main()` the binary calls): fast, for many runs. */
export async function runInProcess(args: readonly string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const code = await main(args, { stdin, stdout, stderr, env: options.env ?? {}, cwd: options.cwd ?? process.cwd(), isTTY: false });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
