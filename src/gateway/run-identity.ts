/**
 * Which run a gateway call belongs to (SPEC T3, T4): the MCP session by default, or — when the
 * client names one, as stateless clients must — the principal plus a run id from the
 * `Mcp-Run-Id` HTTP header or `_meta["dev.tool-result-contract/run_id"]`. The run itself is the
 * executor's: a named run is kept in the store (`executor.openRun()`), so gateway instances that
 * share a store share it; a session's run is in memory (`executor.startRun()`). This file only
 * finds the run and reads what the client's host declares for it: the scope (once), the user's
 * own text, and a confirmation token.
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson, isTrcError, TrcError, type Envelope } from '../contract/index.js';
import { runScopeProblem, type Executor, type RunScope, type TaskRun } from '../executor/index.js';
import type { GatewayOptions, SessionState } from './session-state.js';

/** `_meta` key naming the run of a call (else the `Mcp-Run-Id` header, else the session). */
export const RUN_ID_META_KEY = 'dev.tool-result-contract/run_id';
/** HTTP header naming the run of a call. */
export const RUN_ID_HEADER = 'mcp-run-id';
/** `_meta` key declaring the run's scope, once: `{ "tools": [...], "resources": {...} }`. */
export const RUN_SCOPE_META_KEY = 'dev.tool-result-contract/run_scope';
/** `_meta` key carrying the user's own words (the prompt) as trusted text of the run. */
export const RUN_USER_TEXT_META_KEY = 'dev.tool-result-contract/user_text';
/** `_meta` key of a held result: the request id and the token the user's side confirms with. */
export const CONFIRMATION_META_KEY = 'dev.tool-result-contract/confirmation';
/** Code of the error {@link runOf} throws when a named run cannot be read from the store. */
export const RUN_NOT_OPENED = 'RUN_NOT_STORED';

/** Runs named by clients, per gateway: newest last, the oldest dropped beyond the cap. */
const named = new WeakMap<GatewayOptions, Map<string, Promise<TaskRun>>>();
const MAX_NAMED_RUNS = 1024;
const sessionRuns = new WeakMap<SessionState, TaskRun>();

function headerRunId(extra: { requestInfo?: { headers?: Record<string, string | string[] | undefined> } }): string | undefined {
  const h = extra.requestInfo?.headers?.[RUN_ID_HEADER];
  return Array.isArray(h) ? h[0] : h;
}

/**
 * The run of one call, with the host's declarations applied.
 * @example const run = runOf(state, executor, params._meta ?? {}, extra);
 */
export async function runOf(state: SessionState, executor: Executor, meta: Record<string, unknown>, extra: object): Promise<TaskRun> {
  const given = meta[RUN_ID_META_KEY] ?? headerRunId(extra as Parameters<typeof headerRunId>[0]);
  // A run id that is not a name must not quietly become the session's run: a stateless client
  // (a new session a request) would then never see what its earlier calls read.
  if (given !== undefined && (typeof given !== 'string' || given === '')) {
    throw new McpError(ErrorCode.InvalidParams, `the run id (_meta["${RUN_ID_META_KEY}"] or the Mcp-Run-Id header) must be a non-empty string, not ${String(JSON.stringify(given)).slice(0, 80)}`);
  }
  let run: TaskRun | undefined;
  if (given !== undefined) {
    let runs = named.get(state.options);
    if (runs === undefined) named.set(state.options, (runs = new Map()));
    // The principal is part of the key: another principal naming the same id gets another run.
    const id = storedRunId(state.principal, given);
    let opening = runs.get(id);
    if (opening === undefined) {
      // Kept in the store, so every instance sharing it (and this one after a restart) sees the
      // run's untrusted text, scope and confirmations: a stateless client's calls land anywhere.
      opening = executor.openRun({ id });
      runs.set(id, opening);
      if (runs.size > MAX_NAMED_RUNS) runs.delete(runs.keys().next().value as string);
    }
    try {
      run = await opening;
    } catch (error) {
      if (runs.get(id) === opening) runs.delete(id);
      // Our own errors say what is wrong with the stored run; a driver's may name the database.
      const why = isTrcError(error) ? `${error.code}: ${error.message}` : 'RUN_NOT_STORED: the store could not be reached';
      // The call is refused by the pipeline (an envelope and a record): see callTool.
      throw new TrcError(RUN_NOT_OPENED, `run ${JSON.stringify(given)} could not be opened from the gateway's store (${why}); nothing was sent`);
    }
  } else {
    // A session lives on one instance and ends with it: its run is kept in memory.
    run = sessionRuns.get(state);
    if (run === undefined) sessionRuns.set(state, (run = executor.startRun({ id: `session:${state.sessionId}` })));
  }
  declare(run, meta);
  return run;
}

/**
 * The stored id of the run a principal names `given`: `gateway:<principal>:<given>`, each part
 * percent-encoded so no principal's ids can reach another's.
 * @example storedRunId('alice', 'task-1') // 'gateway:alice:task-1'
 */
export function storedRunId(principal: string, given: string): string {
  return `gateway:${encodeURIComponent(principal)}:${encodeURIComponent(given)}`;
}

function declare(run: TaskRun, meta: Record<string, unknown>): void {
  const given = meta[RUN_SCOPE_META_KEY];
  if (given !== undefined) {
    const bad = runScopeProblem(given);
    if (bad !== null) throw new McpError(ErrorCode.InvalidParams, `_meta["${RUN_SCOPE_META_KEY}"]${bad.pointer} ${bad.message}; a scope is {"tools": [names], "resources"?: {tool: [{argument, allowed, match?}]}}`, { pointer: bad.pointer });
    const scope = given as RunScope;
    if (run.scope === undefined) run.declareScope(scope);
    // The same scope sent again is fine in any key order (a host may build the object anew on
    // each call); canonical JSON compares the values, not how they were written.
    else if (canonicalJson(run.scope) !== canonicalJson(scope)) {
      try { run.declareScope(scope); } catch (e) { throw new McpError(ErrorCode.InvalidParams, isTrcError(e) ? e.message : String(e)); }
    }
  }
  const text = meta[RUN_USER_TEXT_META_KEY];
  for (const t of Array.isArray(text) ? text : [text]) if (typeof t === 'string' && t !== '') run.addTrusted(t);
}

/**
 * What a held result tells the client's host, beside the envelope: the request and the token
 * to send back as `_meta["dev.tool-result-contract/confirmed"]` once the user agreed. Never in
 * the model's text.
 */
export function confirmationMeta(run: TaskRun, env: Envelope): Record<string, unknown> | undefined {
  const details = env.status === 'needs_input' ? (env.error?.details as { confirmation?: { request_id?: unknown } } | undefined) : undefined;
  const id = details?.confirmation?.request_id;
  if (typeof id !== 'string') return undefined;
  try {
    return { [CONFIRMATION_META_KEY]: { request_id: id, run_id: run.id, token: run.tokenFor(id) } };
  } catch {
    return undefined;
  }
}

/**
 * A 2026-07-28 request's `_meta`, with the run its `Mcp-Run-Id` header names when `_meta` names
 * none. The gateway reaches the session behind its 2026 endpoint in memory, where no HTTP header
 * arrives: without this a stateless client's header was dropped and its calls ran in the run
 * every 2026 client of its principal shares.
 * @example withHeaderRunId(ctx.mcpReq._meta, ctx.http?.req)
 */
export function withHeaderRunId(meta: Record<string, unknown> | undefined, req: Request | undefined): Record<string, unknown> | undefined {
  const header = req?.headers.get(RUN_ID_HEADER) ?? null;
  if (header === null || meta?.[RUN_ID_META_KEY] !== undefined) return meta;
  return { ...meta, [RUN_ID_META_KEY]: header };
}
