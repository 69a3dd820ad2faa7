/**
 * The source document's worked envelopes (test/contract/fixtures/seed/) are read as written by
 * every reader of envelopes: the contract, the text readers, trc validate / fit / cite, the
 * executor's diagnosis, the MCP adapter and the renderers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/budget/index.js';
import { isEnvelope, validate, validateText, type Envelope } from '../../src/contract/index.js';
import { diagnose } from '../../src/executor/index.js';
import { ENVELOPE_META_KEY, fromMcpResult, toMcpResult } from '../../src/adapters/mcp/index.js';
import { toChatToolMessage } from '../../src/adapters/openai/index.js';
import { toToolResultBlock } from '../../src/adapters/anthropic/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';

const SEED = new URL('./fixtures/seed/', import.meta.url);
const FILES = ['order-lookup.json', 'refund-failed.json'];
const text = (file: string) => readFileSync(new URL(file, SEED), 'utf8');
const load = (file: string) => JSON.parse(text(file)) as Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'trc-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the source document's worked envelopes", () => {
  it('keep what the source writes: the refund failure has no warnings, completeness or provenance', () => {
    expect(Object.keys(load('refund-failed.json')).sort()).toEqual(['call', 'contract_version', 'data', 'error', 'evidence', 'side_effect', 'status']);
  });

  it.each(FILES)('%s validates as written, with no finding (validate and validateText)', (file) => {
    expect(validate(load(file))).toEqual({ valid: true, findings: [] });
    expect(validateText(text(file))).toMatchObject({ ok: true, valid: true, findings: [] });
  });

  it('passes trc validate', async () => {
    const r = await runCli(['validate', ...FILES.map((f) => fileURLToPath(new URL(f, SEED)))]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l.endsWith('  OK'))).toHaveLength(2);
  });

  it.each(FILES)('%s is fitted by fit() and trc fit', async (file) => {
    const env = await fit(load(file), { maxItems: 5 });
    expect(env.status).toBe(load(file)['status']);
    expect(env.warnings).toEqual([]);
    const r = await runCli(['fit', fileURLToPath(new URL(file, SEED)), '--json', '--store', ':memory:']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Envelope).call).toEqual(load(file)['call']);
  });

  it('supports the claims trc cite checks against them', async () => {
    const answer = join(dir, 'answer.txt');
    writeFileSync(answer, 'Order ord_1001 has shipped [ev_001]. It shipped at 2026-08-31 18:20 (UTC+8) [ev_001]. The refund was refused with ORDER_NOT_REFUNDABLE [ev_refund_policy].\n');
    const r = await runCli(['cite', '--results', '-', '--answer', answer, '--json'], { input: JSON.stringify(FILES.map(load)) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { counts: Record<string, number> }).counts['supported']).toBe(3);
  });

  it('is diagnosed from an audit record holding it', async () => {
    const store = createMemoryStore();
    const env = load('refund-failed.json');
    await store.appendAudit({
      callId: 'call_refund_01', tool: 'refund.create', principal: 'p', status: 'failed',
      startedAt: '2026-09-01T02:11:00.000Z', finishedAt: '2026-09-01T02:11:01.000Z', argsDigest: 'sha256:0', envelopeDigest: null,
      detail: { kind: 'trc.executor.call.v1', contract: { status: 'failed', completeness: null, findings: [], replaced: false }, envelope: env },
    });
    const d = await diagnose('call_refund_01', store);
    expect(d?.layers.find((l) => l.layer === 'contract')?.verdict).toBe('ok');
  });

  it.each(FILES)('%s is adopted by the MCP adapter and rendered for MCP, OpenAI and Anthropic', (file) => {
    const env = load(file);
    const kept = { ...env, call: { ...(env['call'] as object), call_id: 'call_x' } };
    expect(validate(kept).valid).toBe(true);
    if (!isEnvelope(kept)) throw new Error('the seed envelope is not an Envelope once validated');
    expect(kept.warnings).toEqual([]);
    const isError = env['status'] === 'failed';
    const wire = { content: [{ type: 'text', text: JSON.stringify(env['data']) }], ...(isError ? { isError: true } : { structuredContent: env['data'] }), _meta: { [ENVELOPE_META_KEY]: load(file) } };
    const adopted = fromMcpResult(wire, { name: 'seed' }, { call_id: 'call_x', server: { name: 'seed', trusted: true } });
    expect(adopted.warnings.map((w) => (typeof w === 'string' ? w : w.code))).not.toContain('MCP_META_ENVELOPE_IGNORED');
    expect(adopted.status).toBe(env['status']);
    expect(toMcpResult(kept).isError === true).toBe(isError);
    expect(toChatToolMessage(kept).tool_call_id).toBe('call_x');
    expect(toToolResultBlock(kept).tool_use_id).toBe('call_x');
  });
});
