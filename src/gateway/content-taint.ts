/**
 * What an upstream said outside `tools/call` — a `resources/read`'s contents, a `prompts/get`'s
 * messages — is untrusted content of the run like a tool's result (SPEC T3): a later write
 * carrying a value from it must be held for confirmation. The client still gets the upstream's
 * answer as it is (the gateway is transparent for these); the run records the envelope the
 * executor's own stages make of it (`envelopeFromOutcome`: classify, normalize, visibility,
 * trust), exactly as the pipeline records a tool's result.
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { envelopeFromOutcome, newCallId, toolRules, type ToolRules } from '../executor/index.js';
import type { ForwardExtra } from './forward.js';
import { runOf } from './run-identity.js';
import type { SessionState } from './session-state.js';
import { gatewayExecutor } from './tool-call.js';
import type { UpstreamConnection } from './upstream.js';

/** What was read: the method, the upstream, what it was asked for (a URI, a prompt name). */
export interface ReadContent {
  readonly method: 'resources/read' | 'prompts/get';
  readonly upstream: UpstreamConnection;
  readonly name: string;
  readonly answer: Record<string, unknown>;
  readonly meta: Record<string, unknown> | undefined;
}

const rulesCache = new Map<string, ToolRules>();

/** Rules of a read of `method` from an upstream: MCP content, untrusted; nothing to fit (not rendered). */
function rulesOf(method: ReadContent['method'], upstream: string): ToolRules {
  const key = `${method}\n${upstream}`;
  let rules = rulesCache.get(key);
  if (rules === undefined) {
    rules = toolRules({ name: method, effect: 'read', source: { type: 'mcp', id: `${upstream}/${method}` }, sourceUntrusted: true });
    if (rulesCache.size > 1024) rulesCache.clear();
    rulesCache.set(key, rules);
  }
  return rules;
}

/**
 * Record `read` in the run of the request (the session's, or the named run of `_meta` /
 * `Mcp-Run-Id`). A named run the store cannot open or write is refused (`-32603`): a read the
 * run did not record would let its values through a later write unheld.
 * @example await recordRead(state, { method: 'resources/read', upstream, name: uri, answer: read, meta: req.params._meta }, extra);
 */
export async function recordRead(state: SessionState, read: ReadContent, extra: ForwardExtra): Promise<void> {
  const executor = gatewayExecutor(state.options);
  let run;
  try {
    run = await runOf(state, executor, read.meta ?? {}, extra);
  } catch (error) {
    if (error instanceof McpError) throw error;
    throw new McpError(ErrorCode.InternalError, `${read.method}: ${(error as Error).message}`);
  }
  const rules = rulesOf(read.method, read.upstream.config.name);
  const envelope = envelopeFromOutcome(rules, { kind: 'value', value: read.answer }, { call: { tool_name: read.method, call_id: newCallId() } });
  run.observe(envelope);
  if (run.sync === undefined) return;
  try {
    await run.sync();
  } catch (error) {
    throw new McpError(ErrorCode.InternalError, `${read.method}: what ${JSON.stringify(read.name)} said could not be recorded in run ${run.id} (${(error as Error).message}); nothing is returned unrecorded`);
  }
}
