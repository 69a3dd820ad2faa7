/**
 * dispatchDirectly: messages of the gateway's own stdio transports go straight to the SDK
 * Protocol's handlers, by kind, instead of through its four Zod checks. It must dispatch exactly
 * as the SDK's wrapper would (same handler, same message), only for the module's transports, and
 * leave the SDK's path alone when the SDK no longer has those handlers.
 */
import { PassThrough } from 'node:stream';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asJsonRpcMessage } from '../../src/gateway/jsonrpc-shape.js';
import { dispatchDirectly, lineTransport } from '../../src/gateway/stdio-transports.js';

/** The kind the SDK's wrapper dispatches a message as (its order of checks). */
function sdkKind(m: unknown): string {
  if (isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m)) return 'response';
  if (isJSONRPCRequest(m)) return 'request';
  if (isJSONRPCNotification(m)) return 'notification';
  return 'unknown';
}

/** A protocol whose handlers record what they got. */
function recorder(): { protocol: object; got: [string, unknown][] } {
  const got: [string, unknown][] = [];
  const protocol = {
    _onresponse: (m: unknown) => got.push(['response', m]),
    _onrequest: (m: unknown) => got.push(['request', m]),
    _onnotification: (m: unknown) => got.push(['notification', m]),
  };
  return { protocol, got };
}

const scalar = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null), fc.boolean());
const id = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(1.5));
const meta = fc.option(fc.record({ progressToken: fc.option(id, { nil: undefined }) }, { requiredKeys: [] }), { nil: undefined });
const body = fc.oneof(fc.record({ _meta: meta, x: fc.option(scalar, { nil: undefined }) }, { requiredKeys: [] }), scalar);
const error = fc.oneof(fc.record({ code: fc.oneof(fc.integer(), fc.constant(1.5)), message: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(1)), data: fc.option(scalar, { nil: undefined }) }, { requiredKeys: ['code'] }), scalar);
// Each kind's members, some left out or of the wrong type, plus a stray member now and then.
const kinds: fc.Arbitrary<Record<string, unknown>>[] = [
  fc.record({ id, method: fc.constantFrom('tools/call', 'ping'), params: body }, { requiredKeys: [] }),
  fc.record({ method: fc.constantFrom('notifications/progress', 'notifications/initialized'), params: body }, { requiredKeys: [] }),
  fc.record({ id, result: body }, { requiredKeys: [] }),
  fc.record({ id, error }, { requiredKeys: [] }),
];
const message = fc
  .tuple(
    fc.oneof(...kinds),
    fc.constantFrom('2.0', '2.0', '2.0', '1.0'),
    fc.option(fc.constantFrom(['id', 1], ['method', 'x'], ['result', {}], ['extra', 1]), { nil: undefined, freq: 4 }),
  )
  .map(([m, jsonrpc, stray]) => ({ jsonrpc, ...m, ...(stray === undefined ? {} : { [stray[0] as string]: stray[1] }) }));

describe('dispatchDirectly', () => {
  it('replaces the wrapper of this SDK version: four Zod checks, then _onresponse / _onrequest / _onnotification', () => {
    // A canary for SDK upgrades: if the wrapper does more than this, dispatchDirectly must too.
    const source = Protocol.prototype.connect.toString().replace(/\s+/g, ' ');
    expect(source).toContain('_onmessage?.(message, extra); if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) { this._onresponse(message); } else if (isJSONRPCRequest(message)) { this._onrequest(message, extra); } else if (isJSONRPCNotification(message)) { this._onnotification(message); }');
  });

  it('dispatches every message the framer accepts as the SDK would, the same object', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(message, (raw) => {
        const parsed = JSON.parse(JSON.stringify(raw)) as unknown;
        const m = asJsonRpcMessage(parsed);
        if (m === null) return;
        const t = lineTransport(new PassThrough(), new PassThrough(), { maxMessageBytes: 1 << 20, side: 'client' });
        t.onmessage = () => undefined; // as Protocol.connect leaves it
        const { protocol, got } = recorder();
        expect(dispatchDirectly(protocol, t)).toBe(true);
        t.onmessage?.(m);
        expect(got).toEqual([[sdkKind(m), m]]);
        expect(got[0]?.[1]).toBe(m);
        seen.add(sdkKind(m));
      }),
      { numRuns: 2000 },
    );
    expect([...seen].sort()).toEqual(['notification', 'request', 'response']);
  });

  it('calls the handler set before connect first, as the SDK does', () => {
    const t = lineTransport(new PassThrough(), new PassThrough(), { maxMessageBytes: 1 << 20, side: 'client' });
    t.onmessage = () => undefined;
    const { protocol, got } = recorder();
    dispatchDirectly(protocol, t, (m) => void got.push(['before', m]));
    const note = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } as JSONRPCMessage;
    t.onmessage?.(note);
    expect(got.map(([k]) => k)).toEqual(['before', 'notification']);
  });

  it('leaves other transports and SDKs without those handlers alone', () => {
    const foreign: Transport = { start: async () => undefined, send: async () => undefined, close: async () => undefined, onmessage: () => undefined };
    const handler = foreign.onmessage;
    expect(dispatchDirectly(recorder().protocol, foreign)).toBe(false);
    expect(foreign.onmessage).toBe(handler);
    const ours = lineTransport(new PassThrough(), new PassThrough(), { maxMessageBytes: 1 << 20, side: 'client' });
    ours.onmessage = () => undefined;
    const sdkWrapper = ours.onmessage;
    expect(dispatchDirectly({ _onrequest: () => undefined }, ours)).toBe(false);
    expect(ours.onmessage).toBe(sdkWrapper);
  });

  it('serves a request end to end over a line transport and an SDK Server', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const server = new Server({ name: 't', version: '1' }, { capabilities: {} });
    const t = lineTransport(input, output, { maxMessageBytes: 1 << 20, side: 'client' });
    await server.connect(t);
    expect(dispatchDirectly(server, t)).toBe(true);
    const answer = new Promise<string>((resolve) => output.once('data', (c: Buffer) => resolve(c.toString())));
    input.write('{"jsonrpc":"2.0","id":7,"method":"ping"}\n');
    expect(JSON.parse(await answer)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    await server.close();
  });
});
