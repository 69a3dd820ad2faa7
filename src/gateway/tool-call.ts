/**
 * `tools/call` through the gateway: route → policy (confirmation) → idempotency ledger for
 * writes → upstream call with deadline and cancellation → result pipeline → ledger settle →
 * audit. Every call gets an envelope and an audit record, whatever happened.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { digest, type CallInfo, type Envelope } from '../contract/index.js';
import type { LedgerState } from '../store/index.js';
import { confirmationEnvelope, type NoResult } from './failure-envelopes.js';
import { forwardRequest, RelayedRpcError, type ForwardExtra } from './forward.js';
import { toMcpResult } from '../adapters/mcp/index.js';
import { runResultPipeline, type ToolOutcome } from './result-pipeline.js';
import { resolveToolPolicy, type EffectivePolicy } from './tool-policy.js';
import { track, type SessionState } from './session-state.js';
import { reconnectUpstream, resolveTool } from './session-upstreams.js';
import type { UpstreamConnection } from './upstream.js';

/** `_meta` key a client may set to choose the idempotency key of a write. */
export const IDEMPOTENCY_META_KEY = 'dev.tool-result-contract/idempotency_key';
/** `_meta` key a client sets to `true` to confirm a call whose tool requires confirmation. */
export const CONFIRM_META_KEY = 'dev.tool-result-contract/confirmed';

const DEFAULT_TTL_SECONDS = 3600;

/**
 * Handle one `tools/call` request of a session.
 * @example server.setRequestHandler(CallToolRequestSchema, (req, extra) => callTool(state, req.params, extra));
 */
export async function callTool(state: SessionState, params: { name: string; arguments?: Record<string, unknown> | undefined; _meta?: Record<string, unknown> | undefined }, extra: ForwardExtra): Promise<CallToolResult> {
  const now = state.options.now ?? (() => new Date());
  const started = now();
  const route = await resolveTool(state, params.name);
  if (route === null) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  const { upstream, name: upstreamTool, tool } = route;
  const policy = resolveToolPolicy(state.options.config, upstream.config, upstreamTool, tool?.annotations);
  const meta = params._meta ?? {};
  const args = params.arguments ?? {};
  const argsDigest = digest(args);
  const key = policy.effect === 'write' ? (typeof meta[IDEMPOTENCY_META_KEY] === 'string' && meta[IDEMPOTENCY_META_KEY] !== '' ? (meta[IDEMPOTENCY_META_KEY] as string) : `idem_${randomUUID()}`) : null;
  const call: CallInfo = { tool_name: params.name, call_id: `call_${randomUUID()}`, attempt: 1, ...(key === null ? {} : { idempotency_key: key }) };
  const detail: Record<string, unknown> = { session: state.sessionId, upstream: upstream.config.name, upstream_tool: upstreamTool, effect: policy.effect, effect_source: policy.effectSource, risk: policy.risk };

  const record = async (envelope: Envelope, extraDetail: Record<string, unknown> = {}): Promise<void> => {
    await state.options.store
      .appendAudit({
        callId: call.call_id,
        tool: params.name,
        principal: state.principal,
        startedAt: started.toISOString(),
        finishedAt: now().toISOString(),
        status: envelope.status,
        argsDigest,
        envelopeDigest: digest(envelope),
        detail: { ...detail, ...extraDetail, error_code: envelope.error?.code ?? null, warnings: envelope.warnings, resources: (envelope.resources ?? []).map((r) => r.uri), envelope },
      })
      .catch(() => undefined);
  };

  if (policy.confirmationRequired && meta[CONFIRM_META_KEY] !== true) {
    const envelope = confirmationEnvelope({ call, upstreamTool, policy }, CONFIRM_META_KEY);
    await record(envelope, { held: 'confirmation_required' });
    return toMcpResult(envelope) as CallToolResult;
  }

  if (key !== null) {
    const begun = await state.options.store.ledgerBegin({ key, tool: params.name, principal: state.principal, argsDigest, callId: call.call_id, now: started.toISOString() });
    if (!begun.created) {
      const replay = replayEnvelope(begun.entry.envelope, begun.entry.argsDigest === argsDigest, begun.entry.state);
      if (replay.kind === 'replay') {
        await record(replay.envelope, { ledger: 'replayed', replayed_call_id: begun.entry.callId });
        return toMcpResult(replay.envelope) as CallToolResult;
      }
      throw new McpError(ErrorCode.InvalidParams, replay.message, { code: replay.code, idempotency_key: key });
    }
  }

  let current: UpstreamConnection | null = upstream;
  let outcome: ToolOutcome;
  let noise = 0;
  if (current.closed) current = await reconnectUpstream(state, upstream).catch(() => null);
  if (current === null) {
    outcome = { kind: 'unavailable', detail: 'it exited and could not be restarted' };
  } else {
    const noiseBefore = current.noise;
    outcome = await invoke(current, upstreamTool, params, extra, policy, state);
    noise = current.noise - noiseBefore;
    if (outcome.kind === 'closed' && current.stderrTail.length > 0) detail['upstream_stderr'] = current.stderrTail.slice(-5);
  }

  if (outcome.kind === 'rpc_error' && policy.effect === 'read') {
    // A protocol error from the upstream stays a JSON-RPC error (SPEC X1); it is still audited.
    const { envelope } = await runPipeline(outcome);
    await record(envelope, { outcome: outcome.kind });
    throw new RelayedRpcError(outcome.code, outcome.message, outcome.data);
  }
  const { envelope, result } = await runPipeline(outcome);
  if (key !== null) {
    await state.options.store.ledgerUpdate(key, { state: ledgerState(envelope), attempts: 1, envelope, now: now().toISOString() }).catch(() => undefined);
  }
  // The audit write stays off the response path; the session waits for it before closing.
  track(state, record(envelope, { outcome: outcome.kind, noise, duration_ms: now().getTime() - started.getTime() }));
  return result;

  function runPipeline(o: ToolOutcome) {
    return runResultPipeline(o, {
      call,
      upstream: upstream.config.name,
      upstreamTool,
      tool: tool as Tool | undefined,
      policy,
      principal: state.principal,
      idempotencyKey: key,
      store: state.options.store,
      handleTtlSeconds: state.options.config.handle_ttl_seconds ?? DEFAULT_TTL_SECONDS,
      trusted: upstream.config.trusted === true,
      now,
      noise,
    });
  }
}

async function invoke(
  up: UpstreamConnection,
  upstreamTool: string,
  params: { arguments?: Record<string, unknown> | undefined; _meta?: Record<string, unknown> | undefined },
  extra: ForwardExtra,
  policy: EffectivePolicy,
  state: SessionState,
): Promise<ToolOutcome> {
  const sent: Record<string, unknown> = { name: upstreamTool };
  if (params.arguments !== undefined) sent['arguments'] = params.arguments;
  if (params._meta !== undefined) {
    const { [IDEMPOTENCY_META_KEY]: _k, [CONFIRM_META_KEY]: _c, ...rest } = params._meta;
    if (Object.keys(rest).length > 0) sent['_meta'] = rest;
  }
  try {
    return { kind: 'result', result: await forwardRequest(up, 'tools/call', sent, extra, { timeoutMs: policy.timeoutMs }) };
  } catch (error) {
    return classify(error, extra, up, policy, state);
  }
}

function classify(error: unknown, extra: ForwardExtra, up: UpstreamConnection, policy: EffectivePolicy, state: SessionState): NoResult {
  if (extra.signal.aborted || state.clientClosed) return { kind: 'cancelled', reason: state.clientClosed ? 'client_disconnected' : 'client_cancelled' };
  if (error instanceof RelayedRpcError) {
    if (error.code === ErrorCode.RequestTimeout) return { kind: 'timeout', afterMs: policy.timeoutMs };
    if (error.code === ErrorCode.ConnectionClosed) return { kind: 'closed', detail: exitDetail(up) };
    return { kind: 'rpc_error', code: error.code, message: error.message, data: error.data };
  }
  // "Not connected" and transport write failures: the upstream is gone.
  return { kind: 'closed', detail: `${(error as Error).message ?? String(error)}; ${exitDetail(up)}` };
}

function exitDetail(up: UpstreamConnection): string {
  if (up.lastError !== undefined && /exceeded maximum size/.test(up.lastError)) return `the gateway dropped the connection: ${up.lastError}`;
  const tail = up.stderrTail.at(-1);
  return tail === undefined ? 'the upstream process exited' : `the upstream process exited (last stderr line: ${tail.slice(0, 200)})`;
}

function ledgerState(env: Envelope): LedgerState {
  if (env.status === 'succeeded' || env.status === 'partial') return 'succeeded';
  if (env.status === 'unknown') return 'unknown';
  return 'failed';
}

type Replay = { kind: 'replay'; envelope: Envelope } | { kind: 'refuse'; code: string; message: string };

function replayEnvelope(stored: unknown, sameArgs: boolean, state: LedgerState): Replay {
  if (!sameArgs) return { kind: 'refuse', code: 'IDEMPOTENCY_KEY_REUSED', message: 'this idempotency key was used with other arguments' };
  if (state === 'in_flight') return { kind: 'refuse', code: 'IDEMPOTENCY_KEY_IN_FLIGHT', message: 'a call with this idempotency key is still in flight' };
  if (stored === null || typeof stored !== 'object') return { kind: 'refuse', code: 'IDEMPOTENCY_KEY_UNSETTLED', message: 'the earlier call with this key left no result; reconcile it first' };
  return { kind: 'replay', envelope: stored as Envelope };
}
