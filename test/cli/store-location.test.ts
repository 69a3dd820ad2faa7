/**
 * Where the CLI and the gateway put their store when nobody says: the user data directory,
 * whatever the working directory (an MCP host may start the gateway with cwd `/`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(root, 'src/cli/bin.ts');
// An absolute loader: `--import tsx` would resolve from the working directory, here `/`.
const TSX = import.meta.resolve('tsx');
const MEMORY = join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'trc-location-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of this process without the variables that choose a store. */
function env(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TRC_STORE' && k !== 'XDG_DATA_HOME') out[k] = v;
  return { ...out, ...extra };
}

function trc(args: readonly string[], options: { cwd: string; env: Record<string, string>; input?: string }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, BIN, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

const ROWS = JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ id: i })));
const DATA = '.local/share/tool-result-contract/trc.sqlite';
const rootHadTrc = existsSync('/.trc');

describe('the default store', () => {
  it('is created in ~/.local/share/tool-result-contract from cwd /, and nothing is written to /', async () => {
    const home = mkdtempSync(join(dir, 'home-'));
    const before = readdirSync('/').sort();
    const r = await trc(['fit', '-', '--max-items', '5', '--principal', 'ada'], { cwd: '/', env: env({ HOME: home }), input: ROWS });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(home, DATA))).toBe(true);
    expect(readdirSync('/').sort()).toEqual(before);
    if (!rootHadTrc) expect(existsSync('/.trc')).toBe(false);
  });

  it('follows XDG_DATA_HOME, and trc --help names the path it will use', async () => {
    const home = mkdtempSync(join(dir, 'home-'));
    const xdg = join(home, 'xdg');
    const help = await trc(['--help'], { cwd: '/', env: env({ HOME: home, XDG_DATA_HOME: xdg }) });
    expect(help.stdout).toContain(join(xdg, 'tool-result-contract/trc.sqlite'));
    const r = await trc(['fit', '-', '--max-items', '5'], { cwd: '/', env: env({ HOME: home, XDG_DATA_HOME: xdg }), input: ROWS });
    expect(r.code).toBe(0);
    expect(existsSync(join(xdg, 'tool-result-contract/trc.sqlite'))).toBe(true);
    expect(existsSync(join(home, '.local'))).toBe(false);
  });

  it('is overridden by TRC_STORE, and --store beats TRC_STORE; a relative path is the project-local store asked for', async () => {
    const home = mkdtempSync(join(dir, 'home-'));
    const project = mkdtempSync(join(dir, 'project-'));
    const viaEnv = await trc(['fit', '-', '--max-items', '5'], { cwd: project, env: env({ HOME: home, TRC_STORE: 'env.sqlite' }), input: ROWS });
    expect(viaEnv.code).toBe(0);
    expect(existsSync(join(project, 'env.sqlite'))).toBe(true);
    const viaFlag = await trc(['fit', '-', '--max-items', '5', '--store', '.trc/trc.sqlite'], { cwd: project, env: env({ HOME: home, TRC_STORE: 'env.sqlite' }), input: ROWS });
    expect(viaFlag.code).toBe(0);
    expect(existsSync(join(project, '.trc/trc.sqlite'))).toBe(true);
    expect(existsSync(join(home, '.local'))).toBe(false);
  });

  it('of the gateway started by an MCP host with cwd / is in the user data directory', async () => {
    const home = mkdtempSync(join(dir, 'home-'));
    mkdirSync(join(home, 'memory'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', TSX, BIN, 'gateway', '--', process.execPath, MEMORY],
      cwd: '/',
      env: env({ HOME: home, MEMORY_FILE_PATH: join(home, 'memory/memory.jsonl') }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'host-at-root', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'read_graph', arguments: {} });
    expect(result['_meta']).toHaveProperty(['dev.tool-result-contract/envelope', 'status'], 'succeeded');
    await client.close();
    const path = join(home, DATA);
    expect(existsSync(path)).toBe(true);
    const store = await openSqliteStore({ path });
    try {
      const calls = await store.listAudit({});
      expect(calls.map((c) => c.tool)).toContain('read_graph');
    } finally {
      await store.close();
    }
    if (!rootHadTrc) expect(existsSync('/.trc')).toBe(false);
  });
});
