/**
 * The gateway's own stdio framing: the messages of any chunking, a per-message limit with a
 * clear error, and time linear in the line length (the SDK's ReadBuffer is quadratic).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { lineFramer, MessageTooLargeError } from '../../src/gateway/index.js';
import { connectStdio, gatewayArgv, SERVERS, tempDir, type TestClient } from './helpers.js';
import { LINEAR_BOUND_10X, growth } from '../helpers/cpu-time.js';

function collect(limit: number, chunks: readonly Buffer[]): { messages: unknown[]; bad: number; tooLarge: MessageTooLargeError | null } {
  const messages: unknown[] = [];
  let bad = 0;
  let tooLarge: MessageTooLargeError | null = null;
  const f = lineFramer(limit, 'client', { onMessage: (m) => messages.push(m), onBadLine: () => bad++, onTooLarge: (e) => (tooLarge = e) });
  for (const c of chunks) f.push(c);
  return { messages, bad, tooLarge };
}

const message = (i: number, s: string) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'x', arguments: { s } } });

describe('the stdio line framer', () => {
  it('yields the same messages however the bytes are cut into chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }), (texts, cuts) => {
        const sent = texts.map((t, i) => message(i, t));
        const bytes = Buffer.from(sent.map((m) => JSON.stringify(m) + (m.id % 2 === 0 ? '\n' : '\r\n')).join(''));
        const chunks: Buffer[] = [];
        let at = 0;
        for (let k = 0; at < bytes.length; k++) {
          const n = cuts[k % cuts.length] as number;
          chunks.push(bytes.subarray(at, at + n));
          at += n;
        }
        const got = collect(1 << 20, chunks);
        expect(got.messages).toEqual(sent);
        expect(got.bad).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('skips a line that is not a JSON-RPC message and goes on', () => {
    const got = collect(1024, [Buffer.from('not json\n{"jsonrpc":"2.0","id":1,"result":{}}\n')]);
    expect(got.bad).toBe(1);
    expect(got.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('skips a line of JSON that is no JSON-RPC message, saying so without quoting it', () => {
    const errors: Error[] = [];
    const messages: unknown[] = [];
    const f = lineFramer(1024, 'upstream', { onMessage: (m) => messages.push(m), onBadLine: (e) => errors.push(e), onTooLarge: () => undefined });
    f.push(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{},"secret":"sk-proj-abc"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
    expect(errors.map((e) => e.message)).toEqual(['not a JSON-RPC 2.0 message (request, notification, result or error), 59 characters']);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
  });

  it('refuses a line over the limit as soon as the limit is passed, with an error that says so, and stops', () => {
    const line = JSON.stringify(message(1, 'a'.repeat(5000)));
    const got = collect(4096, [Buffer.from(line.slice(0, 3000)), Buffer.from(line.slice(3000) + '\n' + JSON.stringify(message(2, 'b')) + '\n')]);
    expect(got.tooLarge).toBeInstanceOf(MessageTooLargeError);
    expect(got.tooLarge?.message).toMatch(/exceeded maximum size: more than 4096 bytes in one line/);
    expect(got.messages).toEqual([]);
    // A line without its newline yet is refused too, before it is buffered whole.
    expect(collect(4096, [Buffer.alloc(5000, 0x61)]).tooLarge).toBeInstanceOf(MessageTooLargeError);
  });

  it('takes time linear in the line length: 10 MiB costs about ten times 1 MiB (quadratic framing: 100×)', () => {
    const chunked = (mib: number): Buffer[] => {
      const bytes = Buffer.from(JSON.stringify(message(1, 'x'.repeat(mib * 1024 * 1024))) + '\n');
      const out: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 65536) out.push(bytes.subarray(i, i + 65536));
      return out;
    };
    const frame = (chunks: Buffer[]): void => {
      expect(collect(64 << 20, chunks).messages).toHaveLength(1);
    };
    expect(growth(chunked, frame, 1, 10, 5)).toBeLessThan(LINEAR_BOUND_10X);
  });
});

describe('the gateway with a message limit on its upstream', () => {
  const dir = tempDir('trc-framing-');
  const open: TestClient[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  });

  it('answers the call whose answer is over the limit with a failed envelope, restarts the upstream, and serves the next call', async () => {
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(100_000));
    writeFileSync(join(dir, 'small.txt'), 'tiny');
    const config = join(dir, 'limit.yaml');
    writeFileSync(config, 'upstreams:\n  - name: fs\n    max_message_bytes: 40000\n');
    const c = await connectStdio('v1', gatewayArgv(SERVERS.filesystem(dir), ['--store', join(dir, 's.sqlite'), '--config', config]));
    open.push(c);
    await c.listTools();
    const big = await c.callTool('read_text_file', { path: join(dir, 'big.txt') });
    expect(big['isError']).toBe(true);
    const env = (big['_meta'] as Record<string, { status: string; error: { code: string; message: string } }>)['dev.tool-result-contract/envelope'];
    expect(env?.status).toBe('failed');
    expect(env?.error.code).toBe('CONNECTION_RESET');
    // The client is told why, not only that the connection closed.
    expect(env?.error.message).toContain('over the gateway\'s limit of 40000 bytes');
    const small = await c.callTool('read_text_file', { path: join(dir, 'small.txt') });
    expect(small['isError']).toBeUndefined();
    expect(JSON.stringify(small['content'])).toContain('tiny');
  });
});
