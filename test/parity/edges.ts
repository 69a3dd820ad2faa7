/**
 * The parity behaviours on each edge: as an in-process tool (defineTool + executor), behind
 * `trc gateway` (the fixture MCP server, stdio and Streamable HTTP, official SDK client), and as
 * a framework tool (AI SDK, LangChain, OpenAI Agents, their real packages). Each edge gets the
 * same rules: the gateway's configuration, the tool declaration, the wrapper options.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { jsonSchema, tool as aiTool } from 'ai';
import { invokeFunctionTool, RunContext } from '@openai/agents';
import { z } from 'zod';
import type { Envelope, Evidence } from '../../src/contract/index.js';
import { envelopeTool as aiEnvelopeTool } from '../../src/adapters/ai-sdk/index.js';
import { envelopeTool as lcEnvelopeTool } from '../../src/adapters/langchain/index.js';
import { envelopeTool as agentsEnvelopeTool } from '../../src/adapters/openai-agents/index.js';
import type { WrapperOptions } from '../../src/adapters/shared/index.js';
import { createExecutor, defineTool, ToolFailure, type AnyTool, type ToolContext, type ToolOutput } from '../../src/executor/index.js';
import { ENVELOPE_META_KEY, IDEMPOTENCY_META_KEY } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { BEHAVIOURS, WRITE_POLICY, chargeOf, commitCharge, findCharge } from './fixtures/behaviours.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = fileURLToPath(new URL('./fixtures/parity-server.mjs', import.meta.url));
export const PRINCIPAL = 'parity-user';
/** Deadline of the behaviours that hang; the others get a deadline a loaded machine never hits. */
const HANG_MS = 800;
const timeoutOf = (b: { result: { type: string } }) => (b.result.type === 'hang' ? HANG_MS : 15_000);
const MAX_BYTES = 65536;

/** One behaviour as the table describes it. */
export interface Behaviour {
  readonly name: string;
  readonly effect: 'read' | 'write';
  readonly commit?: 'before' | 'never';
  readonly repeat?: 'same' | 'other_args';
  readonly outputSchema?: Record<string, unknown>;
  readonly edges?: readonly string[];
  readonly policy?: { readonly visibility?: Record<string, 'model' | 'user' | 'internal'>; readonly untrusted_fields?: string[]; readonly source_type?: string };
  readonly result: { readonly type: string; readonly data?: unknown; readonly blocks?: Record<string, unknown>[]; readonly text?: string; readonly payload?: Record<string, unknown>; readonly code?: number; readonly message?: string };
}
export const behaviours = BEHAVIOURS as unknown as readonly Behaviour[];

/** The calls of one behaviour: args and (for writes) the idempotency key. */
export function callsOf(b: Behaviour): { args: Record<string, unknown>; key?: string }[] {
  if (b.effect === 'read') return [{ args: {} }];
  const key = `key_${b.name}`;
  const first = { args: { amount: 5 }, key };
  if (b.repeat === 'same') return [first, first];
  if (b.repeat === 'other_args') return [first, { args: { amount: 7 }, key }];
  return [first];
}

const ERROR_CATEGORIES = new Set(['validation', 'authorization', 'authentication', 'not_found', 'conflict', 'rate_limited', 'network', 'transport_timeout', 'upstream', 'business', 'internal', 'protocol', 'contract', 'cancelled']);
const clip = (s: string) => (s.length > 500 ? s.slice(0, 499) + '…' : s);

/** The failure an error result states, as the tool itself would throw it. */
function failureOf(r: Behaviour['result']): ToolFailure {
  if (r.payload === undefined) return new ToolFailure({ category: 'upstream', code: 'MCP_TOOL_ERROR', message: clip(r.text ?? ''), details: { text: r.text ?? '' } });
  const p = r.payload;
  return new ToolFailure({ category: (ERROR_CATEGORIES.has(String(p['category'])) ? p['category'] : 'upstream') as never, code: String(p['code']), message: String(p['message']), details: p });
}

/** MCP content blocks as data (what the pipeline normalizes them to), with their evidence. */
function contentData(blocks: readonly Record<string, unknown>[]): { data: { content: unknown[] }; evidence: Evidence[] } {
  const evidence: Evidence[] = [];
  let parts = 0;
  const content = blocks.map((b, i) => {
    if (b['type'] === 'text') return { type: 'text', text: b['text'] };
    if (b['type'] === 'image') {
      // Binary payloads leave the data: the block keeps its size, digest and part number.
      const bytes = Buffer.from(String(b['data']), 'base64');
      return { type: 'image', mime_type: b['mimeType'], part: parts++, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
    if (b['type'] === 'resource_link') {
      evidence.push({ evidence_id: `mcp_link_${i}`, kind: 'resource_link', source: { type: 'mcp', id: 'x' }, locator: { resource_uri: String(b['uri']) }, supports: [`/data/content/${i}`] });
      return Object.fromEntries(Object.entries({ type: 'resource_link', uri: b['uri'], name: b['name'], title: b['title'], mime_type: b['mimeType'], description: b['description'], evidence_id: `mcp_link_${i}` }).filter(([, v]) => v !== undefined));
    }
    const r = b['resource'] as Record<string, unknown>;
    evidence.push({ evidence_id: `mcp_resource_${i}`, kind: 'embedded_resource', source: { type: 'mcp', id: 'x' }, locator: { resource_uri: String(r['uri']) }, supports: [`/data/content/${i}`] });
    return { type: 'resource', uri: r['uri'], mime_type: r['mimeType'], text: r['text'], evidence_id: `mcp_resource_${i}` };
  });
  return { data: { content }, evidence };
}

const resultEvidence = (data: unknown): Evidence => {
  const keys = data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
  return { evidence_id: 'tool_output', kind: 'tool_output', source: { type: 'mcp', id: 'x' }, locator: { response_path: 'x' }, supports: keys.length === 0 ? ['/data'] : keys.map((k) => `/data/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`) };
};

const never = (signal: AbortSignal) => new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

/** Run the behaviour as a tool of our own: `shape` turns a result into the edge's return value. */
async function behave<T>(b: Behaviour, args: Record<string, unknown>, key: string, state: string, signal: AbortSignal, shape: (data: unknown, evidence: Evidence[]) => T): Promise<T> {
  if (b.effect === 'write' && b.commit === 'before') commitCharge(state, key, Number(args['amount']));
  const r = b.result;
  switch (r.type) {
    case 'structured':
      return shape(r.data, [resultEvidence(r.data)]);
    case 'content': {
      const c = contentData(r.blocks ?? []);
      return shape(c.data, [resultEvidence(c.data), ...c.evidence]);
    }
    case 'charge': {
      const charge = chargeOf(key, Number(args['amount']));
      return shape(charge, [resultEvidence(charge)]);
    }
    case 'tool_error':
      throw failureOf(r);
    case 'rpc_error':
      throw Object.assign(new Error(r.message), { code: r.code });
    case 'hang':
      return never(signal);
    case 'crash':
      // The connection to the downstream dies before the answer (the in-process form of a crash).
      throw Object.assign(new Error(''), { code: 'ECONNRESET' });
    default:
      throw new Error(`unknown result type ${r.type}`);
  }
}

const readInput = { type: 'object', properties: {}, additionalProperties: false } as const;
const writeInput = { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false } as const;
const sourceOf = (b: Behaviour) => ({ type: b.policy?.source_type ?? 'mcp', id: `parity/${b.name}` });

/** The behaviour as an in-process tool. */
export function inProcessTool(b: Behaviour, state: string): AnyTool {
  return defineTool({
    name: b.name,
    description: `parity behaviour ${b.name}`,
    effect: b.effect,
    risk: b.effect === 'write' ? 'medium' : 'low',
    timeoutMs: timeoutOf(b),
    source: sourceOf(b),
    input: b.effect === 'write' ? writeInput : readInput,
    ...(b.outputSchema === undefined ? {} : { output: b.outputSchema }),
    ...(b.policy?.visibility === undefined ? {} : { fields: b.policy.visibility }),
    ...(b.policy?.untrusted_fields === undefined ? {} : { untrusted: b.policy.untrusted_fields }),
    budget: { maxBytes: MAX_BYTES },
    ...(b.effect === 'write'
      ? { reconcileTool: 'find_charge', reconcile: async (key: string) => { const c = findCharge(state, key); return c === null ? { state: 'absent' as const } : { state: 'found' as const, external_id: c.id }; } }
      : {}),
    run: (args: Record<string, unknown>, ctx: ToolContext) =>
      behave(b, args, ctx.idempotencyKey ?? '', state, ctx.signal, (data, evidence): ToolOutput => ({
        data: data as NonNullable<unknown>,
        completeness: { state: 'unknown', reason: 'not_reported_by_tool' },
        evidence,
        ...(b.effect === 'write' ? { external_id: (data as { id: string }).id } : {}),
      })),
  }) as AnyTool;
}

/** One call of a behaviour on the in-process executor. */
export function inProcessEdge(state: string) {
  const tools = behaviours.map((b) => inProcessTool(b, state));
  const executor = createExecutor({ tools, store: createMemoryStore(), maxWriteAttempts: 2 });
  let n = 0;
  return (b: Behaviour, call: { args: Record<string, unknown>; key?: string }) =>
    executor.call({ call_id: `local_${n++}`, tool_name: b.name, args: call.args, ...(call.key === undefined ? {} : { idempotency_key: call.key }) }, { id: PRINCIPAL });
}

/** The gateway configuration giving every behaviour its rules. */
export function gatewayConfig(dir: string, state: string, name: string): string {
  const tools = Object.fromEntries(behaviours.map((b) => [b.name, { ...(b.effect === 'write' ? WRITE_POLICY : { effect: 'read' }), timeout_ms: timeoutOf(b), ...(b.policy ?? {}) }]));
  const config = {
    principal: PRINCIPAL,
    defaults: { budget: { max_bytes: MAX_BYTES } },
    upstreams: [{ name: 'parity', command: process.execPath, args: [SERVER], env: { PARITY_STATE: state }, tools }],
  };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** A client of `trc gateway` (a real child process) over stdio or Streamable HTTP. */
export async function gatewayEdge(transport: 'stdio' | 'http', config: string, store: string): Promise<{ call: (b: Behaviour, c: { args: Record<string, unknown>; key?: string }) => Promise<Envelope>; close: () => Promise<void> }> {
  const cli = [join(root, 'src/cli/bin.ts'), 'gateway', '--config', config, '--store', store];
  const client = new Client({ name: 'parity', version: '1.0.0' }, { capabilities: {} });
  let child: ChildProcess | undefined;
  if (transport === 'stdio') {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', ...cli], stderr: 'pipe' }));
  } else {
    child = spawn(process.execPath, ['--import', 'tsx', ...cli, '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child?.stderr?.on('data', (d: Buffer) => {
        err += d.toString('utf8');
        const m = /listening on (\S+)/.exec(err);
        if (m?.[1] !== undefined) resolve(m[1]);
      });
      child?.once('exit', (code) => reject(new Error(`gateway exited ${String(code)}: ${err}`)));
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  }
  return {
    async call(b, c) {
      try {
        const result = await client.request({ method: 'tools/call', params: { name: b.name, arguments: c.args, ...(c.key === undefined ? {} : { _meta: { [IDEMPOTENCY_META_KEY]: c.key } }) } }, CallToolResultSchema, { timeout: 30_000 });
        return (result._meta as Record<string, unknown>)[ENVELOPE_META_KEY] as Envelope;
      } catch (error) {
        // A protocol error of a read stays a JSON-RPC error; its envelope rides in the error data.
        if (error instanceof McpError) return (error.data as Record<string, unknown>)[ENVELOPE_META_KEY] as Envelope;
        throw error;
      }
    },
    async close() {
      await client.close();
      if (child !== undefined) {
        const exited = new Promise((r) => child?.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** The wrapper options every framework edge gives a behaviour. */
function wrapperOptions(b: Behaviour, state: string, store: ReturnType<typeof createMemoryStore>, key: () => string, seen: (e: Envelope) => void): WrapperOptions {
  const source = sourceOf(b);
  return {
    store,
    principal: { id: PRINCIPAL },
    source,
    trustedText: source.type !== 'mcp',
    budget: { maxBytes: MAX_BYTES },
    timeoutMs: timeoutOf(b),
    ...(b.policy?.visibility === undefined ? {} : { visibility: b.policy.visibility }),
    ...(b.policy?.untrusted_fields === undefined ? {} : { untrusted: b.policy.untrusted_fields }),
    ...(b.effect === 'write'
      ? { operation: b.name, idempotencyKey: key, reconcileTool: 'find_charge', reconcile: async (k: string) => { const c = findCharge(state, k); return c === null ? { state: 'absent' as const } : { state: 'found' as const, external_id: c.id }; } }
      : {}),
    onEnvelope: seen,
  };
}

/** The framework edges: each wrapper, its real package, calling the behaviour as a framework tool. */
export function frameworkEdge(kind: 'ai-sdk' | 'langchain' | 'openai-agents', state: string) {
  const store = createMemoryStore();
  let n = 0;
  return async (b: Behaviour, c: { args: Record<string, unknown>; key?: string }): Promise<Envelope> => {
    let seen: Envelope | undefined;
    const options = wrapperOptions(b, state, store, () => c.key ?? '', (e) => (seen = e));
    const run = (args: Record<string, unknown>, signal: AbortSignal) => behave(b, args, c.key ?? '', state, signal, (data) => data);
    const callId = `fw_${n++}`;
    if (kind === 'ai-sdk') {
      const original = aiTool({ description: b.name, inputSchema: jsonSchema<Record<string, unknown>>(b.effect === 'write' ? writeInput : readInput), execute: (input: Record<string, unknown>, o: { abortSignal?: AbortSignal }) => run(input, o.abortSignal ?? new AbortController().signal) } as never);
      const t = aiEnvelopeTool(b.name, original, options);
      return (await t.execute?.(c.args as never, { toolCallId: callId, messages: [] })) as Envelope;
    }
    if (kind === 'langchain') {
      const schema = b.effect === 'write' ? z.object({ amount: z.number() }) : z.object({});
      const t = lcEnvelopeTool(async (input) => run(input as Record<string, unknown>, new AbortController().signal), { name: b.name, schema, ...options });
      const msg = (await t.invoke({ type: 'tool_call', id: callId, name: b.name, args: c.args })) as { artifact: Envelope };
      return msg.artifact;
    }
    const parameters = b.effect === 'write' ? z.object({ amount: z.number() }) : z.object({});
    const t = agentsEnvelopeTool({ name: b.name, description: b.name, parameters, execute: async (input) => run(input as Record<string, unknown>, new AbortController().signal), ...options });
    await invokeFunctionTool({ tool: t, runContext: new RunContext({}), input: JSON.stringify(c.args), details: { toolCall: { type: 'function_call', callId, name: b.name, arguments: JSON.stringify(c.args) } } as never });
    if (seen === undefined) throw new Error('the Agents wrapper produced no envelope');
    return seen;
  };
}
