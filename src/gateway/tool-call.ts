/**
 * `tools/call` through the gateway: route → policy (confirmation) → idempotency ledger for
 * writes → upstream call with deadline and cancellation → result pipeline → ledger settle →
 * audit. Every call gets an envelope and an audit record, whatever happened.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { sha256Hex, type CallInfo, type Envelope } from '../contract/index.js';
import { argsDigest as digestArgs, beginWrite, decideAfterLookup, idempotencyKey, settleWrite, unknownEnvelope, type ReconcileContext, type ReconcileLookup } from '../effects/index.js';
import type { AuditRecord, LedgerState } from '../store/index.js';
import { enqueueAudit } from './audit-queue.js';
import { confirmationEnvelope, type NoResult } from './failure-envelopes.js';
import { lookupOnUpstream, reconciledEnvelope } from './write-reconcile.js';
import { forwardRequest, RelayedRpcError, type ForwardExtra } from './forward.js';
import { toMcpResult } from '../adapters/mcp/index.js';
import { finish, runResultPipeline, type ToolOutcome } from './result-pipeline.js';
import { resolveToolPolicy, type EffectivePolicy } from './tool-policy.js';
import type { SessionState } from './session-state.js';
import { reconnectUpstream, resolveTool } from './session-upstreams.js';
import type { UpstreamConnection } from './upstream.js';

/** `_meta` key a client may set to choose the idempotency key of a write. */
export const IDEMPOTENCY_META_KEY = 'dev.tool-result-contract/idempotency_key';
/** `_meta` key a client may set to derive a stable key (tool + args + principal + scope) for a write it may repeat. */
export const SCOPE_META_KEY = 'dev.tool-result-contract/idempotency_scope';
/** Attempts of one write under one key (the first send plus one resend after a confirmed absence). */
const MAX_WRITE_ATTEMPTS = 2;
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
  const argsDigest = digestArgs(args);
  const callId = `call_${randomUUID()}`;
  const key = policy.effect === 'write' ? writeKey(meta, params.name, args, state.principal, callId) : null;
  let call: CallInfo = { tool_name: params.name, call_id: callId, attempt: 1, ...(key === null ? {} : { idempotency_key: key }) };
  let pending: { category: string; code: string; message: string } | null = null;
  const detail: Record<string, unknown> = { session: state.sessionId, upstream: upstream.config.name, upstream_tool: upstreamTool, effect: policy.effect, effect_source: policy.effectSource, risk: policy.risk };

  const record = async (envelope: Envelope, extraDetail: Record<string, unknown> = {}): Promise<void> => {
    const entry: AuditRecord = {
      callId: call.call_id,
      tool: params.name,
      principal: state.principal,
      startedAt: started.toISOString(),
      finishedAt: now().toISOString(),
      status: envelope.status,
      argsDigest,
      // As the executor defines it: SHA-256 of the envelope's JSON as recorded (not RFC 8785 —
      // canonicalizing every envelope was ~6 % of the gateway's CPU, and one definition per store).
      envelopeDigest: 'sha256:' + sha256Hex(JSON.stringify(envelope)),
      detail: { ...detail, ...extraDetail, error_code: envelope.error?.code ?? null, warnings: envelope.warnings, resources: (envelope.resources ?? []).map((r) => r.uri), envelope },
    };
    // A write's record is inserted before its answer is sent; others go through the write-behind queue.
    if (key !== null) await state.options.store.appendAudit(entry).catch(() => undefined);
    else enqueueAudit(state.options.store, entry);
  };

  if (policy.confirmationRequired && meta[CONFIRM_META_KEY] !== true) {
    const envelope = confirmationEnvelope({ call, upstreamTool, policy }, CONFIRM_META_KEY);
    await record(envelope, { held: 'confirmation_required' });
    return toMcpResult(envelope) as CallToolResult;
  }

  let attempt = 1;
  if (key !== null) {
    const decision = await beginWrite(state.options.store, { key, tool: params.name, principal: state.principal, argsDigest, callId: call.call_id, now: started.toISOString() });
    if (decision.kind === 'replay') {
      await record(decision.envelope, { ledger: 'replayed', replayed_call_id: decision.entry.callId });
      return toMcpResult(decision.envelope) as CallToolResult;
    }
    if (decision.kind === 'refuse') {
      const message = decision.entry.argsDigest !== argsDigest ? 'this idempotency key was used with other arguments' : decision.message;
      throw new McpError(ErrorCode.InvalidParams, message, { code: decision.code, idempotency_key: key });
    }
    if (decision.kind === 'reconcile') {
      // An earlier attempt under this key ended unknown: look it up before anything is resent (W3).
      attempt = decision.entry.attempts;
      call = { ...call, attempt };
    } else {
      attempt = decision.attempt;
      call = { ...call, attempt };
    }
    if (decision.kind === 'reconcile' && policy.reconcile === null) {
      const { envelope, result } = finish(unknownEnvelope(reconcileContext(), { category: 'transport_timeout', code: 'COMMIT_STATUS_UNKNOWN', message: `an earlier attempt under key ${key} ended without a confirmed outcome and no reconcile tool is configured` }, 'unknowable'));
      await record(envelope, { ledger: 'unknown_pending' });
      return result;
    }
    if (decision.kind === 'reconcile') pending = { category: 'transport_timeout', code: 'COMMIT_STATUS_UNKNOWN', message: `an earlier attempt under key ${key} ended without a confirmed outcome` };
  }

  let current: UpstreamConnection | null = upstream;
  let outcome: ToolOutcome = { kind: 'unavailable', detail: 'not called' };
  let noise = 0;
  let reconciled: Envelope | null = null;
  const lookups: unknown[] = [];
  for (;;) {
    if (current !== null && current.closed) current = await reconnectUpstream(state, current).catch(() => null);
    if (pending === null) {
      if (current === null) {
        outcome = { kind: 'unavailable', detail: 'it exited and could not be restarted' };
      } else {
        const noiseBefore = current.noise;
        outcome = await invoke(current, upstreamTool, params, extra, policy, state, key);
        noise += current.noise - noiseBefore;
        if (outcome.kind === 'closed' && current.stderrTail.length > 0) detail['upstream_stderr'] = current.stderrTail.slice(-5);
      }
      // A write that reached the upstream and got no answer (crash, deadline) is reconciled when a lookup is configured.
      if (key !== null && policy.reconcile !== null && (outcome.kind === 'closed' || outcome.kind === 'timeout')) {
        pending = outcome.kind === 'closed'
          ? { category: 'upstream', code: 'UPSTREAM_CLOSED', message: `upstream "${upstream.config.name}" closed the connection during the call` }
          : { category: 'transport_timeout', code: 'UPSTREAM_TIMEOUT', message: `upstream "${upstream.config.name}" did not answer within ${policy.timeoutMs} ms` };
      }
    }
    if (pending === null || key === null || policy.reconcile === null) break;
    // Persist "unknown" before looking up: a gateway crash here leaves an entry the next call reconciles.
    await settleWrite(state.options.store, key, { state: 'unknown', attempts: attempt, now: now().toISOString() }).catch(() => null);
    if (current !== null && current.closed) current = await reconnectUpstream(state, current).catch(() => null);
    const lookup: ReconcileLookup = current === null ? { state: 'unknown', reason: 'the upstream could not be restarted for the lookup' } : await lookupOnUpstream(current, policy.reconcile, key, policy.timeoutMs);
    const action = decideAfterLookup(lookup, { idempotent: policy.idempotent, honoursKey: policy.honoursKey, attemptsLeft: attempt < MAX_WRITE_ATTEMPTS });
    lookups.push({ attempt, lookup, action });
    if (action === 'retry_same_key') {
      attempt += 1;
      call = { ...call, attempt };
      pending = null;
      await settleWrite(state.options.store, key, { state: 'in_flight', attempts: attempt, now: now().toISOString() }).catch(() => null);
      continue;
    }
    reconciled = reconciledEnvelope({ call, upstream: upstream.config.name, upstreamTool, policy, key, retrievedAt: now().toISOString() }, lookup, pending);
    break;
  }
  if (lookups.length > 0) detail['reconciliation'] = lookups;

  if (reconciled === null && outcome.kind === 'rpc_error' && policy.effect === 'read') {
    // A protocol error from the upstream stays a JSON-RPC error (SPEC X1); it is still audited.
    const { envelope } = await runPipeline(outcome);
    await record(envelope, { outcome: outcome.kind });
    throw new RelayedRpcError(outcome.code, outcome.message, outcome.data);
  }
  const { envelope, result } = reconciled !== null ? finish(reconciled) : await runPipeline(outcome);
  if (key !== null) {
    await settleWrite(state.options.store, key, { state: ledgerState(envelope), attempts: attempt, envelope, now: now().toISOString() }).catch(() => null);
  }
  // Reads: queued (write-behind, flushed before the session reports done). Writes: inserted first.
  await record(envelope, { outcome: reconciled !== null ? 'reconciled' : outcome.kind, noise, attempts: attempt, duration_ms: now().getTime() - started.getTime() });
  return result;

  function reconcileContext(): ReconcileContext {
    return { call, operation: upstreamTool, key: key as string, sourceType: policy.sourceType, sourceId: `${upstream.config.name}/${upstreamTool}`, retrievedAt: now().toISOString(), queryTool: 'manual' };
  }

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
  key: string | null,
): Promise<ToolOutcome> {
  const sent: Record<string, unknown> = { name: upstreamTool };
  if (params.arguments !== undefined) sent['arguments'] = params.arguments;
  const { [IDEMPOTENCY_META_KEY]: _k, [CONFIRM_META_KEY]: _c, [SCOPE_META_KEY]: _s, ...rest } = params._meta ?? {};
  // A write carries its key upstream, so a server that honours keys can deduplicate and be looked up by it.
  if (key !== null) rest[IDEMPOTENCY_META_KEY] = key;
  if (Object.keys(rest).length > 0) sent['_meta'] = rest;
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

/** The client's key; else one derived by the effects module, scoped by the client's scope or (default) this call. */
function writeKey(meta: Record<string, unknown>, tool: string, args: unknown, principal: string, callId: string): string {
  const given = meta[IDEMPOTENCY_META_KEY];
  if (typeof given === 'string' && given !== '') return given;
  const scope = meta[SCOPE_META_KEY];
  return idempotencyKey({ tool, args, principal, scope: typeof scope === 'string' && scope !== '' ? scope : callId });
}

function ledgerState(env: Envelope): LedgerState {
  if (env.status === 'succeeded' || env.status === 'partial') return 'succeeded';
  if (env.status === 'unknown') return 'unknown';
  return 'failed';
}
