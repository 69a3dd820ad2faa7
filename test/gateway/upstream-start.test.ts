/**
 * An upstream that cannot start: over stdio the client gets the error as the answer to
 * `initialize` and the gateway exits 2 with the reason on stderr (it served an empty tool list
 * before); over HTTP the failed session is not kept, so it holds no `--max-sessions` slot; a
 * 2026-07-28 client is told the reason too.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { eventually, gatewayArgv, tempDir } from './helpers.js';

const dir = tempDir('trc-upstream-start-');
const NO_SUCH = ['/nonexistent/trc-test-server'];
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const kills: (() => void)[] = [];
afterAll(() => kills.forEach((k) => k()));

describe('an upstream that cannot start', () => {
  it('ends the stdio gateway with exit code 2 after answering initialize with the error', async () => {
    const argv = gatewayArgv(NO_SUCH, ['--store', join(dir, 'stdio.sqlite')]);
    const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    kills.push(() => proc.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    proc.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    proc.stdin.write(JSON.stringify(INIT) + '\n');
    expect(await exited).toBe(2);
    const answer = JSON.parse(stdout.split('\n')[0] as string) as { id: number; error?: { message: string } };
    expect(answer.id).toBe(0);
    expect(answer.error?.message).toMatch(/start|spawn|ENOENT/i);
    expect(stderr).toMatch(/trc gateway: /);
  }, 60_000);

  it('keeps no HTTP session for a failed initialize, so the next one is not refused for lack of slots', async () => {
    const argv = gatewayArgv(NO_SUCH, ['--http', '0', '--max-sessions', '1', '--store', join(dir, 'http.sqlite')]);
    const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    kills.push(() => proc.kill('SIGKILL'));
    let stderr = '';
    proc.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    await eventually(() => /listening on (http:\S+)/.test(stderr), 30_000);
    const url = (/listening on (http:\S+)/.exec(stderr) as RegExpExecArray)[1] as string;
    const post = () => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INIT) });
    const first = await post();
    expect(await first.text()).toMatch(/error/);
    // The failed session closes in the background.
    let second = await post();
    for (let i = 0; i < 20 && second.status === 503; i++) {
      await new Promise((r) => setTimeout(r, 200));
      second = await post();
    }
    expect(second.status).not.toBe(503);
    await second.text();
  }, 60_000);
  it('tells a 2026-07-28 client which upstream did not start and why, on every request', async () => {
    const gw = await serveHttp({ store: createMemoryStore(), config: { upstreams: [{ name: 'missing', command: NO_SUCH[0] as string }] } }, { port: 0 });
    kills.push(() => void gw.close());
    // Stateless requests with the 2026-07-28 envelope, as the revision writes them (the v2 SDK
    // client reads any error to server/discover as "version not offered" and drops the message).
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1' } };
    for (const [id, method] of [[1, 'server/discover'], [2, 'tools/list'], [3, 'tools/list']] as const) {
      const res = await fetch(gw.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: envelope } }),
      });
      const answer = (await res.json()) as { id?: unknown; error?: { code: number; message: string } };
      expect(answer.id).toBe(id);
      expect(answer.error?.code).toBe(-32603);
      expect(answer.error?.message).toMatch(/upstream "missing" did not start: .*ENOENT/);
    }
  }, 60_000);
});

describe('a tool policy in the config for a tool the upstream does not offer', () => {
  it('is named on stderr with its config pointer once the upstream answers', async () => {
    const faulty = fileURLToPath(new URL('./fixtures/faulty-server.mjs', import.meta.url));
    const config = join(dir, 'typo.yaml');
    writeFileSync(config, 'defaults:\n  effect: read\nupstreams:\n  - name: faulty\n    tools:\n      ecoh:\n        effect: write\n        confirmation_required: true\n      echo:\n        effect: read\n');
    const argv = gatewayArgv([process.execPath, faulty], ['--config', config, '--store', join(dir, 'typo.sqlite')]);
    const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    kills.push(() => proc.kill('SIGKILL'));
    let stderr = '';
    proc.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    proc.stdin.write(JSON.stringify(INIT) + '\n');
    await eventually(() => stderr.includes('warning'), 30_000);
    expect(stderr).toMatch(/warning: config \/upstreams\/\d+\/tools\/ecoh: upstream "faulty" offers no tool "ecoh"/);
    expect(stderr).not.toContain('tools/echo');
  }, 60_000);
});
