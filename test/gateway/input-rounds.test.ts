/**
 * The multi-round-trip bridge on its own: a parked call is cancelled upstream when the client
 * does not come back in time, and its request state is refused afterwards. (The SDK-level
 * behaviour, with real clients and upstreams, is in generation-2026.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { ServerContext } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { inputRounds } from '../../src/gateway/input-rounds.js';
import { eventually } from './helpers.js';

/** The parts of a v2 server request context the bridge reads. */
function context(state?: string, responses?: Record<string, unknown>): ServerContext {
  return {
    mcpReq: {
      signal: new AbortController().signal,
      requestState: () => state,
      inputResponses: responses,
      envelope: { [CLIENT_CAPABILITIES_META_KEY]: { elicitation: {} } },
    },
  } as unknown as ServerContext;
}

describe('the input_required bridge', () => {
  it('cancels a parked call upstream once the client stays away past the TTL, and refuses its state afterwards', async () => {
    const rounds = inputRounds({ ttlMs: 20 });
    let upstreamSignal: AbortSignal | undefined;
    const answer = rounds.serve(context(), 'local', 'tools/call ask', (signal) => {
      upstreamSignal = signal;
      return { id: 7, result: new Promise(() => undefined) };
    });
    const asked = rounds.ask(7, 'elicitation/create', { message: 'name?' }, new AbortController().signal);
    const first = await answer;
    expect(first['resultType']).toBe('input_required');
    expect(rounds.parked).toBe(1);
    await expect(asked).rejects.toThrow(/did not answer/);
    await eventually(() => upstreamSignal?.aborted === true);
    expect(rounds.parked).toBe(0);
    await expect(rounds.serve(context(first['requestState'] as string, { r1: { action: 'accept' } }), 'local', 'tools/call ask', () => ({ id: 8, result: Promise.resolve({}) }))).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses a request state presented by another principal or for another tool', async () => {
    const rounds = inputRounds();
    const answer = rounds.serve(context(), 'alice', 'tools/call a', () => ({ id: 1, result: new Promise(() => undefined) }));
    void rounds.ask(1, 'elicitation/create', {}, new AbortController().signal).catch(() => undefined);
    const state = (await answer)['requestState'] as string;
    const never = () => ({ id: 2, result: Promise.resolve({}) });
    await expect(rounds.serve(context(state, {}), 'bob', 'tools/call a', never)).rejects.toMatchObject({ code: -32602 });
    await expect(rounds.serve(context(state, {}), 'alice', 'tools/call b', never)).rejects.toMatchObject({ code: -32602 });
    rounds.close();
  });
});
