import { describe, expect, it } from 'vitest';
import { isTrcError, type Envelope } from '../../src/contract/index.js';
import { RENDER_INVALID_ENVELOPE, toMcpResult } from '../../src/adapters/mcp/index.js';
import { toChatToolMessage, toFunctionCallOutput } from '../../src/adapters/openai/index.js';
import { toToolResultBlock } from '../../src/adapters/anthropic/index.js';
import { envelopeModelOutput } from '../../src/adapters/ai-sdk/index.js';
import { shipped } from './fixtures/envelopes.js';

function codeOf(render: () => unknown): { code: string; pointer: unknown } | undefined {
  try {
    render();
  } catch (error) {
    if (isTrcError(error)) return { code: error.code, pointer: (error.data as { pointer?: unknown } | undefined)?.pointer };
    throw error;
  }
  return undefined;
}

const renderers: [string, (env: Envelope) => unknown][] = [
  ['toMcpResult', (e) => toMcpResult(e)],
  ['toChatToolMessage', toChatToolMessage],
  ['toFunctionCallOutput', toFunctionCallOutput],
  ['toToolResultBlock', toToolResultBlock],
  ['envelopeModelOutput (AI SDK)', envelopeModelOutput],
];

describe('renderers and invalid envelopes', () => {
  it.each(renderers)('%s refuses an envelope that breaks the contract, with a stable code and pointer', (_name, render) => {
    const badStatus = { ...structuredClone(shipped), status: 'done' } as unknown as Envelope;
    expect(codeOf(() => render(badStatus))).toEqual({ code: RENDER_INVALID_ENVELOPE, pointer: '/status' });
    // Semantically wrong (a cursor on a "complete" result) is refused too, not only bad shapes.
    const cursorButComplete = structuredClone(shipped) as unknown as { completeness: Record<string, unknown> } & Envelope;
    cursorButComplete.completeness = { state: 'complete', next: { type: 'cursor', value: 'cur_1' } };
    expect(codeOf(() => render(cursorButComplete))?.code).toBe(RENDER_INVALID_ENVELOPE);
    expect(codeOf(() => render(null as unknown as Envelope))?.code).toBe(RENDER_INVALID_ENVELOPE);
  });

  it.each(renderers)('%s renders a valid envelope', (_name, render) => {
    expect(codeOf(() => render(structuredClone(shipped)))).toBeUndefined();
  });
});

describe('renderers and the pipeline\'s own envelopes', () => {
  it('takes the envelope the executor returned as validated, and checks a copy of it anew', async () => {
    const { createExecutor, defineTool } = await import('../../src/executor/index.js');
    const { isKnownValid } = await import('../../src/contract/known-valid.js');
    const { createMemoryStore } = await import('../../src/store/index.js');
    const echo = defineTool({ name: 'echo', description: 'echo', effect: 'read', risk: 'low', timeoutMs: 1000, source: { type: 'api', id: 'echo' }, input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false }, run: async (args: { text: string }) => ({ data: { text: args.text } }) });
    const env = await createExecutor({ tools: [echo], store: createMemoryStore() }).call({ call_id: 'c1', tool_name: 'echo', args: { text: 'hi' } }, { id: 'u1' });
    expect(isKnownValid(env)).toBe(true);
    const copy = { ...env };
    expect(isKnownValid(copy)).toBe(false);
    // A copy edited into breaking the contract is refused: being derived from a valid one does not count.
    expect(codeOf(() => toMcpResult({ ...copy, status: 'done' } as unknown as Envelope))?.code).toBe(RENDER_INVALID_ENVELOPE);
    expect(codeOf(() => toMcpResult(env))).toBeUndefined();
  });
});
