/**
 * What a client can send the stdio gateway that is not a good message: a line that is not JSON
 * or not JSON-RPC gets an error answer (JSON-RPC 2.0 §5) instead of silence; arguments with no
 * canonical form and a `_meta` too deep to forward end in an envelope and an audit record, never
 * an internal error, nor a write reported "may have happened" that was never sent.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { eventually, gatewayArgv, tempDir } from './helpers.js';

const FAULTY = fileURLToPath(new URL('./fixtures/faulty-server.mjs', import.meta.url));
const dir = tempDir('trc-stdio-bad-');
const config = join(dir, 'gateway.yaml');
// echo declared a write: the cases below must not leave it "possibly applied".
writeFileSync(config, 'defaults:\n  effect: read\nupstreams:\n  - name: faulty\n    tools:\n      echo:\n        effect: write\n');
const procs: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const p of procs) p.kill('SIGKILL');
});

/** The gateway over raw stdio, not yet initialized: send lines, read every answer. */
function spawnRaw(store: string): { send(line: string): void; answers: Record<string, unknown>[] } {
  const argv = gatewayArgv([process.execPath, FAULTY], ['--config', config, '--store', join(dir, store)]);
  const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  procs.push(proc);
  const answers: Record<string, unknown>[] = [];
  let buffer = '';
  proc.stdout.on('data', (b: Buffer) => {
    buffer += b.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      answers.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      buffer = buffer.slice(nl + 1);
    }
  });
  return { send: (line) => void proc.stdin.write(line + '\n'), answers };
}

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** The gateway over raw stdio, initialized. */
async function rawGateway(): Promise<{ send(line: string): void; answers: Record<string, unknown>[] }> {
  const g = spawnRaw(`${procs.length}.sqlite`);
  g.send(JSON.stringify(INIT));
  await eventually(() => g.answers.some((a) => a['id'] === 0), 30_000);
  g.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return g;
}

const errorOf = (a: Record<string, unknown> | undefined) => a?.['error'] as { code: number; message: string; data?: Record<string, unknown> } | undefined;

describe('lines that are not good messages, over stdio', () => {
  it('answers each with a JSON-RPC error, its id when it has one', async () => {
    const g = await rawGateway();
    g.send('{bad json');
    g.send('[]');
    g.send('{"jsonrpc":"1.0","id":6,"method":"tools/list"}');
    g.send('{"id":7,"method":"tools/list"}');
    g.send('42');
    g.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }));
    await eventually(() => g.answers.some((a) => a['id'] === 8), 20_000);
    const errors = g.answers.filter((a) => a['error'] !== undefined);
    expect(errors.map((a) => [a['id'], errorOf(a)?.code])).toEqual([[null, -32700], [null, -32600], [6, -32600], [7, -32600], [null, -32600]]);
  }, 60_000);

  it('ends arguments with no canonical form in an envelope, and an unsendable write as not sent', async () => {
    const g = await rawGateway();
    g.send('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"message":1e400}}}');
    // A `_meta` nested 100,000 deep parses, but no JSON.stringify can write it upstream again.
    g.send(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"},"_meta":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}}`);
    await eventually(() => [10, 11].every((id) => g.answers.some((a) => a['id'] === id)), 30_000);
    const answer = (id: number) => g.answers.find((a) => a['id'] === id) as Record<string, unknown>;
    const envOf = (id: number) => (((answer(id)['result'] as Record<string, unknown>)['_meta']) as Record<string, unknown>)[ENVELOPE_META_KEY] as Envelope;
    expect(errorOf(answer(10))).toBeUndefined();
    expect(envOf(10).error?.code).toBe('ARGUMENTS_NOT_JSON');
    expect(errorOf(answer(11))).toBeUndefined();
    expect(envOf(11).status).toBe('failed');
    expect(envOf(11).side_effect.occurred).toBe(false);
  }, 60_000);
});

describe('a client that pipelines', () => {
  it('gets the upstream\'s tools for a tools/list and a call sent before initialize was answered', async () => {
    const g = spawnRaw('pipelined.sqlite');
    g.send([
      INIT,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { ms: 1 } } },
    ].map((m) => JSON.stringify(m)).join('\n'));
    await eventually(() => [1, 2].every((id) => g.answers.some((a) => a['id'] === id)), 30_000);
    const list = g.answers.find((a) => a['id'] === 1)?.['result'] as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toContain('echo');
    expect(g.answers.find((a) => a['id'] === 2)?.['error']).toBeUndefined();
  }, 60_000);
});
