/**
 * One pipeline, many invokers (the "done when"): every behaviour of the table runs as an
 * in-process tool through the executor, behind `trc gateway` over stdio and over Streamable
 * HTTP (real child processes, the official SDK client, the fixture MCP server), and through each
 * framework wrapper (the AI SDK, LangChain and OpenAI Agents packages). The envelopes must be
 * identical apart from ids, timestamps and transport provenance (see normalize.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { behaviours, callsOf, frameworkEdge, gatewayConfig, gatewayEdge, inProcessEdge, type Behaviour } from './edges.js';
import { normalizeEnvelope } from './normalize.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-parity-'));
const state = (edge: string) => join(dir, `${edge}.charges.jsonl`);

type Call = (b: Behaviour, c: { args: Record<string, unknown>; key?: string }) => Promise<Envelope>;
const gateways: { close: () => Promise<void> }[] = [];
const edges: Record<string, Call> = {};

beforeAll(async () => {
  edges['inprocess'] = inProcessEdge(state('inprocess'));
  for (const transport of ['stdio', 'http'] as const) {
    const g = await gatewayEdge(transport, gatewayConfig(dir, state(`gateway-${transport}`), `gateway-${transport}`), join(dir, `gateway-${transport}.sqlite`));
    gateways.push(g);
    edges[`gateway-${transport}`] = g.call;
  }
  for (const kind of ['ai-sdk', 'langchain', 'openai-agents'] as const) edges[kind] = frameworkEdge(kind, state(kind));
}, 60_000);

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
});

/** Run a behaviour's calls on one edge and keep the last envelope (the one the behaviour is about). */
async function envelopeOn(edge: string, b: Behaviour): Promise<Envelope> {
  const call = edges[edge] as Call;
  let last: Envelope | undefined;
  for (const c of callsOf(b)) last = await call(b, c);
  return last as Envelope;
}

const edgesOf = (b: Behaviour): string[] => {
  const allowed = b.edges ?? ['inprocess', 'gateway', 'framework'];
  return Object.keys(edges).filter((e) => e !== 'inprocess' && allowed.includes(e.startsWith('gateway') ? 'gateway' : 'framework'));
};

describe('the parity table', () => {
  it('has at least 30 behaviours, each on the in-process edge and behind the gateway', () => {
    expect(behaviours.length).toBeGreaterThanOrEqual(30);
    expect(new Set(behaviours.map((b) => b.name)).size).toBe(behaviours.length);
  });
});

describe.each(behaviours.map((b) => [b.name, b] as const))('%s', (_name, b) => {
  it('gives one envelope on every edge, identical apart from ids, timestamps and transport provenance', async () => {
    const reference = await envelopeOn('inprocess', b);
    expect(validate(reference).findings.filter((f) => f.severity === 'error')).toEqual([]);
    const expected = normalizeEnvelope(reference);
    for (const edge of edgesOf(b)) {
      const env = await envelopeOn(edge, b);
      expect(validate(env).findings.filter((f) => f.severity === 'error'), edge).toEqual([]);
      expect(normalizeEnvelope(env), `${b.name} on ${edge}`).toEqual(expected);
    }
  }, 60_000);
});
