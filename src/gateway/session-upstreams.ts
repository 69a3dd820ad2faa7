/**
 * The upstream side of a session: connecting every configured upstream with the client's
 * capabilities, restarting one that died, and finding which upstream serves a tool.
 */
import type { ClientCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import { TrcError, escapePointerToken } from '../contract/index.js';
import { namespaceItems } from './routing.js';
import { upstreamConfigs, type SessionState } from './session-state.js';
import { connectUpstream, type UpstreamConnection } from './upstream.js';
import { vetTools, type ToolHold } from './tool-pins.js';

/**
 * Connect all upstreams of the session (in parallel); if one fails, close the others and throw.
 * @example await connectAll(state, request.params.capabilities);
 */
export async function connectAll(state: SessionState, capabilities: ClientCapabilities): Promise<void> {
  state.clientCapabilities = capabilities;
  const settled = await Promise.allSettled(upstreamConfigs(state).map((c) => connectUpstream(c, capabilities, state.hooks(c))));
  const ok = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const bad = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  // The client may have gone (DELETE, disconnect, SIGTERM) while the upstreams started: the
  // session's shutdown already ran, so nobody else would end these processes.
  if (bad !== undefined || state.clientClosed) {
    await Promise.all(ok.map((u) => u.close()));
    throw bad !== undefined ? bad.reason : new TrcError('GATEWAY_SESSION_CLOSED', 'the client closed the session while its upstreams were starting');
  }
  state.upstreams = ok;
  if (state.options.onConfigWarning !== undefined) void warnUnmatchedPolicies(state, ok);
}

// Warnings already told, per set of options (one gateway process, many sessions).
const told = new WeakMap<object, Set<string>>();

/**
 * Tell of a tool policy in the config that names no tool its upstream offers: a typo there
 * (`ecoh:` with `effect: write`) leaves the real tool without the policy, without a word.
 */
async function warnUnmatchedPolicies(state: SessionState, upstreams: readonly UpstreamConnection[]): Promise<void> {
  const configs = upstreamConfigs(state);
  const seen = told.get(state.options) ?? told.set(state.options, new Set()).get(state.options) as Set<string>;
  for (const up of upstreams) {
    const named = Object.keys(up.config.tools ?? {});
    if (named.length === 0) continue;
    const offered = await up.tools().then((tools) => new Set(tools.map((t) => t.name)), () => null);
    if (offered === null) continue;
    const index = configs.indexOf(up.config);
    for (const name of named) {
      const pointer = `/upstreams/${index}/tools/${escapePointerToken(name)}`;
      if (offered.has(name) || seen.has(pointer)) continue;
      seen.add(pointer);
      state.options.onConfigWarning?.(pointer, `upstream "${up.config.name}" offers no tool "${name}", so this policy applies to no call (its tools: ${[...offered].slice(0, 10).join(', ')}${offered.size > 10 ? ', …' : ''})`);
    }
  }
}

/**
 * Replace a dead upstream connection by a fresh one (same config and client capabilities).
 * @example const up = await reconnectUpstream(state, dead);
 */
export function reconnectUpstream(state: SessionState, dead: UpstreamConnection): Promise<UpstreamConnection> {
  // One restart per dead connection, whoever asks: calls waiting on a crashed upstream share it
  // (each starting its own left processes no session tracked, and split a stateful server).
  let restart = restarts.get(dead);
  if (restart === undefined) {
    restart = restartUpstream(state, dead);
    restarts.set(dead, restart);
    // A restart that failed is tried again by the next call.
    restart.catch(() => restarts.delete(dead));
  }
  return restart;
}

const restarts = new WeakMap<UpstreamConnection, Promise<UpstreamConnection>>();

async function restartUpstream(state: SessionState, dead: UpstreamConnection): Promise<UpstreamConnection> {
  await dead.close();
  const fresh = await connectUpstream(dead.config, state.clientCapabilities, state.hooks(dead.config));
  if (state.clientClosed) {
    await fresh.close();
    throw new TrcError('GATEWAY_SESSION_CLOSED', 'the client closed the session while an upstream restarted');
  }
  state.upstreams = state.upstreams.map((u) => (u === dead ? fresh : u));
  state.toolRoutes = null;
  state.promptRoutes = null;
  state.toolHolds.clear();
  return fresh;
}

/**
 * Restart every upstream whose connection closed (a crash), as a tool call would: a listing or
 * a read after a crash otherwise failed "Not connected" until some call restarted it. A restart
 * that fails leaves the dead connection, whose request then fails as before. Waits first for
 * the upstreams initialize is still starting (a pipelining client).
 */
export async function reviveUpstreams(state: SessionState): Promise<void> {
  if (state.starting !== null) await state.starting;
  const dead = state.upstreams.filter((u) => u.closed);
  if (dead.length > 0) await Promise.all(dead.map((u) => reconnectUpstream(state, u).catch(() => undefined)));
}

/**
 * Which upstream and upstream tool a client-visible tool name means, with the tool's
 * definition when the upstream listed it. Null when no upstream offers the name (multi-upstream).
 */
export async function resolveTool(state: SessionState, name: string): Promise<{ upstream: UpstreamConnection; name: string; tool: Tool | undefined } | null> {
  if (state.upstreams.length === 1) {
    const only = state.upstreams[0] as UpstreamConnection;
    const tools = await only.tools().catch(() => [] as Tool[]);
    return { upstream: only, name, tool: tools.find((t) => t.name === name) };
  }
  if (state.toolRoutes === null || !state.toolRoutes.has(name)) await refreshToolRoutes(state);
  const route = state.toolRoutes?.get(name);
  if (route === undefined) return null;
  const tools = await route.upstream.tools().catch(() => [] as Tool[]);
  return { upstream: route.upstream, name: route.name, tool: tools.find((t) => t.name === route.name) };
}

/**
 * An upstream's tools as the client may see them (T5: pinned, scanned, flagged ones marked or
 * withheld); the holds found are remembered for the calls.
 */
export async function vetListed(state: SessionState, up: UpstreamConnection, tools: Tool[]): Promise<Tool[]> {
  const vetted = await vetTools(state.options.store, up.config, tools, state.options.now?.() ?? new Date(), state.options.acceptToolChanges === true);
  for (const t of tools) state.toolHolds.set(`${up.config.name}/${t.name}`, vetted.holds.get(t.name) ?? null);
  return vetted.tools;
}

/** Why calls of an upstream tool are held, if they are (vetting it when no listing did yet). */
export async function holdOf(state: SessionState, up: UpstreamConnection, tool: Tool | undefined): Promise<ToolHold | null> {
  if (tool === undefined || up.config.trusted === true) return null;
  const key = `${up.config.name}/${tool.name}`;
  if (!state.toolHolds.has(key)) await vetListed(state, up, [tool]);
  return state.toolHolds.get(key) ?? null;
}

/** All tools of all upstreams, named for the client; also refreshes the routes. */
export async function refreshToolRoutes(state: SessionState): Promise<Tool[]> {
  const lists = await Promise.all(state.upstreams.map(async (u) => [u, await vetListed(state, u, await u.tools().catch(() => [] as Tool[]))] as const));
  const { items, routes } = namespaceItems(lists);
  state.toolRoutes = routes;
  return items;
}
