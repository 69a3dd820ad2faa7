import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, validate, type Envelope } from '../../src/contract/index.js';
import { fromMcpResult, toMcpResult } from '../../src/adapters/mcp/index.js';
import { maskEnvelope, maskValue } from '../../src/trust/index.js';
import { callToolResultArb, envelopeArb } from './helpers/arbitraries.js';

/** What crosses a real transport: JSON text. */
const overTheWire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
const KEPT = ['data', 'status', 'error', 'completeness', 'evidence'] as const;

function expectKept(before: Envelope, after: Envelope): void {
  for (const field of KEPT) expect(same(after[field], before[field]), field).toBe(true);
}

describe('MCP round trips', () => {
  it('envelope → MCP → envelope keeps data, status, error, completeness and evidence (a trusted contract-aware server), secrets masked', () => {
    fc.assert(
      fc.property(envelopeArb, (env) => {
        expect(validate(env).valid).toBe(true);
        const wire = overTheWire(toMcpResult(env));
        const back = fromMcpResult(wire, { name: env.call.tool_name }, { call_id: env.call.call_id, server: { name: 's', trusted: true } });
        expect(validate(back).valid).toBe(true);
        // The way back in runs the pipeline, which masks secrets wherever they are: a value
        // under a key such as "jwt" comes back as "[redacted:named_secret]" (seed 1008208650).
        expectKept(maskEnvelope(env).envelope, back);
        expect(back.call.call_id).toBe(env.call.call_id);
      }),
      { numRuns: Number(process.env['TRC_PROPERTY_RUNS'] ?? 300) },
    );
  });

  it('MCP → envelope → MCP keeps structured content, isError, the error payload and resource links', () => {
    fc.assert(
      fc.property(callToolResultArb, (result) => {
        const tool = { name: 'search' };
        const ctx = { call_id: 'call_1', server: { name: 's' }, now: () => '2026-09-01T00:00:00Z' };
        const env = fromMcpResult(result, tool, ctx);
        expect(validate(env).valid).toBe(true);
        // Structured content goes out as itself when asked (an output schema); by default the model's view of it.
        const wire = overTheWire(toMcpResult(env, result.structuredContent !== undefined && result.isError !== true ? { structured: 'always' } : {}));
        expect(wire.isError === true).toBe(result.isError === true);
        // Secrets are masked on the way in, wherever they are: a generated "jwt:#?*" comes back as
        // "jwt:[redacted:named_secret]" (seed -676097497).
        if (result.structuredContent !== undefined && result.isError !== true) expect(wire.structuredContent).toEqual(maskValue(result.structuredContent));
        // An untrusted server's error payload is its own text: the model's structuredContent holds a
        // reference to it, the envelope in _meta the payload itself.
        if (result.structuredContent !== undefined && result.isError === true) {
          expect((wire._meta?.['dev.tool-result-contract/envelope'] as Envelope).error?.details).toEqual(result.structuredContent);
        }
        const linksIn = result.content.filter((b) => b.type === 'resource_link').map((b) => (b as { uri: string }).uri);
        const linksOut = wire.content.filter((b) => b.type === 'resource_link').map((b) => (b as { uri: string }).uri);
        expect(new Set(linksOut)).toEqual(new Set(linksIn));
        // And the contract fields survive a second hop to a reader that trusts this renderer.
        expectKept(env, fromMcpResult(wire, tool, { ...ctx, server: { name: 's', trusted: true } }));
      }),
      { numRuns: 300 },
    );
  });
});
