/**
 * The findings measured with a hostile upstream MCP server behind `trc gateway` (issue 13): each
 * one, as a test. External text reaches no model-facing place outside the boundary; an upstream's
 * own envelope is not adopted; a configured write answered by a JSON-RPC error is reconciled;
 * the configured principal is honoured (handles across sessions, recovery after a crash); secrets
 * are masked; upstream stderr stays in the audit record; internal fields never leak; a big text
 * result is fitted and stored. Real processes, the official SDK client, no mocks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { diagnose } from '../../src/executor/index.js';
import { ENVELOPE_META_KEY, IDEMPOTENCY_META_KEY } from '../../src/gateway/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { alive, connectStdio, eventually, gatewayArgv, tempDir, type TestClient } from './helpers.js';

const SERVER = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));
const k = (...parts: string[]) => parts.join('');
const SECRETS = ['Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', k('AKIA', 'IOSFODNN7EXAMPLE'), 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'z9Y8x7W6v5U4t3S2r1Q0p9O8n7M6l5K4j3I2', 'hunter22', 's3cretPw', 'abcd1234efgh'];
const INJECTED = /ignore\s*all\s*previous\s*instructions|exfiltrate|delete_account/i;
const dir = tempDir('trc-findings-');
const open: TestClient[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});

/** Everything of a tools/call answer a client may put in front of the model, minus the boundary's inside. */
function outsideBoundary(result: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const b of (result['content'] as Record<string, unknown>[] | undefined) ?? []) {
    if (b['type'] === 'text') {
      const text = String(b['text']);
      try {
        const view = JSON.parse(text) as Record<string, unknown>;
        delete view['external_content'];
        parts.push(JSON.stringify(view));
      } catch {
        // A server's own text block: only what stands outside its boundary counts.
        parts.push(text.replace(/<<<EXTERNAL_CONTENT ([0-9a-f]{32})>>>[\s\S]*?<<<END_EXTERNAL_CONTENT \1>>>/g, ''));
      }
    } else {
      parts.push(JSON.stringify({ name: b['name'], title: b['title'], description: b['description'] }));
    }
  }
  if (result['structuredContent'] !== undefined) parts.push(JSON.stringify(result['structuredContent']));
  return parts.join('\n');
}

const envelopeOf = (result: Record<string, unknown>) => (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as Envelope;

/** A tools/call; a relayed JSON-RPC error comes back as what the client sees of it. */
async function call(c: TestClient, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>): Promise<Record<string, unknown>> {
  try {
    return await c.request('tools/call', { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) }, { timeout: 30_000 });
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    return { content: [{ type: 'text', text: error.message }], _meta: { [ENVELOPE_META_KEY]: (error.data as Record<string, unknown>)[ENVELOPE_META_KEY] } };
  }
}

describe('a hostile upstream behind trc gateway, default config', () => {
  let c: TestClient;
  const store = join(dir, 'default.sqlite');
  beforeAll(async () => {
    c = await connectStdio('v1', gatewayArgv([process.execPath, SERVER], ['--store', store]), { env: { STATE: join(dir, 'default.charges') } });
    open.push(c);
  });

  it.each(['free_text', 'no_spaces', 'hostile_key', 'error_text', 'error_structured', 'resource_link', 'schema_violation', 'rpc_error', 'claims_envelope'])(
    '1. keeps the external text of %s out of every model-facing place but the boundary',
    async (tool) => {
      const result = await call(c, tool);
      expect(validate(envelopeOf(result)).findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(outsideBoundary(result)).not.toMatch(INJECTED);
    },
  );

  it('2. checks, and does not adopt, the envelope an untrusted server sends in _meta', async () => {
    const result = await call(c, 'claims_envelope');
    const env = envelopeOf(result);
    expect(outsideBoundary(result)).not.toContain('Verified by the gateway');
    expect(env.completeness?.state).toBe('unknown');
    expect(env.summary).toBeUndefined();
    expect(env.resources ?? []).toEqual([]);
    expect(env.warnings.map((w) => (typeof w === 'string' ? w : w.code))).not.toContain('ALL_CLEAR');
    expect(env.provenance?.source_type).toBe('mcp');
  });

  it('5. masks secrets (keys, NAME=value, URL passwords and query keys, zero-width splits) in what the model reads and what is stored', async () => {
    const result = await call(c, 'secrets');
    const everything = JSON.stringify(result);
    for (const s of SECRETS) expect(everything, s).not.toContain(s);
    expect(everything).toContain('[redacted:');
  });

  it('6. keeps upstream stderr out of the model-facing fields and in the audit record, masked', async () => {
    const result = await call(c, 'stderr_crash');
    const env = envelopeOf(result);
    // Its effect is not configured: a possible write, whose lost answer is an unknown outcome.
    expect(env.error).toMatchObject({ code: 'COMMIT_STATUS_UNKNOWN', category: 'network' });
    expect(JSON.stringify(result)).not.toContain('FATAL');
    const s = await openSqliteStore({ path: store });
    try {
      await eventually(async () => (await s.getAudit(env.call.call_id)) !== null);
      const record = await s.getAudit(env.call.call_id);
      const detail = JSON.stringify(record?.detail);
      expect(detail).toContain('FATAL');
      for (const secret of SECRETS) expect(detail).not.toContain(secret);
    } finally {
      await s.close();
    }
  });

  it('8. fits and stores a single text result over the budget like any result: resource, summary, completeness', async () => {
    const result = await call(c, 'big_text');
    const env = envelopeOf(result);
    expect(env.status).toBe('partial');
    expect(env.completeness).toMatchObject({ state: 'truncated', reason: 'context_budget' });
    expect(env.summary).toBeDefined();
    expect(env.resources?.[0]?.bytes).toBe(45 * 24_000);
    expect(env.resources?.[0]?.uri).toMatch(/^trc:\/\/resource\//);
    expect(Buffer.byteLength(String((result['content'] as { text: string }[])[0]?.text))).toBeLessThan(70 * 1024);
  });
});

describe('a hostile upstream behind trc gateway, with a configuration', () => {
  const config = join(dir, 'hostile.json');
  const store = join(dir, 'configured.sqlite');
  const charges = join(dir, 'configured.charges');
  writeFileSync(config, JSON.stringify({
    principal: 'ops-team',
    defaults: { effect: 'read' },
    upstreams: [{
      name: 'hostile', command: process.execPath, args: [SERVER],
      tools: {
        charge: { effect: 'write', idempotent: false, timeout_ms: 1000, reconcile: { tool: 'find_charge', args: { idempotency_key: '$key' } } },
        internal_error: { visibility: { '/risk_score': 'internal' } },
        internal_violation: { visibility: { '/risk_score': 'internal' } },
        internal_list: { visibility: { '/rows/*/cost_cents': 'internal' }, budget: { max_bytes: 4096 } },
      },
    }],
  }));
  const start = async () => {
    const c = await connectStdio('v1', gatewayArgv([], ['--store', store, '--config', config]).slice(0, -1), { env: { STATE: charges } });
    open.push(c);
    return c;
  };

  it('3. reconciles a configured write whose upstream commits and then answers JSON-RPC -32603', async () => {
    const c = await start();
    const env = envelopeOf(await call(c, 'charge', { amount: 5, then: 'rpc_error' }, { [IDEMPOTENCY_META_KEY]: 'order-3' }));
    expect(env.status).toBe('succeeded');
    expect(env.side_effect).toMatchObject({ occurred: true, external_id: 'ch_order-3' });
    expect(env.warnings.map((w) => (typeof w === 'string' ? w : w.code))).toContain('RECONCILED');
    await c.close();
    const s = await openSqliteStore({ path: store });
    try {
      expect((await s.ledgerGet('order-3'))?.state).toBe('succeeded');
      // One record shape: diagnose explains the gateway call on its layers.
      const d = await diagnose(env.call.call_id, s);
      expect(d?.layers.map((l) => l.verdict)).toEqual(['ok', 'ok', 'ok', expect.stringMatching(/ok|at_risk/)]);
    } finally {
      await s.close();
    }
  });

  it('7. never lets internal fields out: error results, output-schema violations, fitted lists', async () => {
    const c = await start();
    for (const tool of ['internal_error', 'internal_violation']) {
      const result = await call(c, tool);
      expect(JSON.stringify(result), tool).not.toContain('0.93871');
    }
    const listed = await call(c, 'internal_list');
    expect(envelopeOf(listed).status).toBe('partial');
    expect(JSON.stringify(listed)).not.toContain('cost_cents');
    expect(JSON.stringify(listed)).not.toMatch(/9133[0-9]{2}/);
  });

  it('4. honours the configured principal: a second session reads the first one’s handle', async () => {
    const a = await start();
    const uri = envelopeOf(await call(a, 'internal_list')).resources?.[0]?.uri;
    expect(uri).toMatch(/^trc:\/\/resource\//);
    await a.close();
    const b = await start();
    const read = await b.request('resources/read', { uri });
    expect((read['contents'] as { text: string }[])[0]?.text).toContain('"rows"');
  });

  it('4. recovers after a gateway crash mid-write: the same key is reconciled, not refused', async () => {
    const a = await start();
    const pending = a.request('tools/call', { name: 'charge', arguments: { amount: 9, then: 'hang' }, _meta: { [IDEMPOTENCY_META_KEY]: 'order-9' } }, { timeout: 30_000 }).catch((e: unknown) => e);
    await eventually(() => readFileSync(charges, 'utf8').includes('order-9'));
    const pid = a.pid() as number;
    process.kill(pid, 'SIGKILL');
    await eventually(() => !alive(pid));
    await pending;
    // No attempt outlives its deadline (1 s) nor a lookup: after that the entry is stale.
    await new Promise((r) => setTimeout(r, 3_500));
    const b = await start();
    const env = envelopeOf(await call(b, 'charge', { amount: 9, then: 'hang' }, { [IDEMPOTENCY_META_KEY]: 'order-9' }));
    expect(env.status).toBe('succeeded');
    expect(env.side_effect).toMatchObject({ occurred: true, external_id: 'ch_order-9' });
    expect(readFileSync(charges, 'utf8').split('\n').filter((l) => l.includes('order-9'))).toHaveLength(1);
    await b.close();
    const s = await openSqliteStore({ path: store });
    try {
      expect((await s.ledgerGet('order-9'))?.state).toBe('succeeded');
    } finally {
      await s.close();
    }
  }, 60_000);
});
