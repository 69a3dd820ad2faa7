/**
 * One connection to an upstream MCP server (spawned over stdio, or a Streamable HTTP URL),
 * made with the official v1 SDK client — or, for a server that speaks only the 2026-07-28
 * generation, the v2 client (upstream-modern.ts). The gateway opens one per client session so
 * that the upstream sees the real client's capabilities (servers register tools depending on them).
 */
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, Implementation, JSONRPCMessage, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { TrcError } from '../contract/index.js';
import type { UpstreamConfig } from './config.js';
import { coalesceWrites } from './coalesce-writes.js';
import { dispatchDirectly, MAX_UPSTREAM_MESSAGE_BYTES, spawnTransport } from './stdio-transports.js';
import { ownSignalFetch } from './upstream-fetch.js';
import { connectModern, modernOnlyVersion, type UpstreamClient } from './upstream-modern.js';

/** Handlers the session installs so upstream→client traffic reaches its client. */
export interface UpstreamHooks {
  /** Server→client requests (sampling, elicitation, roots) to relay to the client. */
  readonly onRequest: (method: string, params: unknown, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** Server→client notifications (logging, list changes, resource updates) to relay. */
  readonly onNotification: (method: string, params: unknown) => void;
  /** Lines the upstream wrote to stderr (kept for diagnosis, never sent to the model). */
  readonly onStderr?: (line: string) => void;
}

/** A live (or dead) connection to one upstream. */
export interface UpstreamConnection {
  readonly config: UpstreamConfig;
  /** The SDK client's request surface (v1 client, or the v2 client for a 2026-only upstream). */
  readonly client: UpstreamClient;
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /** Protocol version negotiated with the upstream. */
  readonly protocolVersion: string | undefined;
  /** True once the transport closed (crash, exit, network), or the upstream forgot the session. */
  readonly closed: boolean;
  /**
   * The connection is no use any more though its transport is open (a URL upstream that restarted
   * answers 404 for the old session): the next call or listing starts a new one.
   */
  markClosed(reason: string): void;
  /** Messages the upstream sent that were not valid JSON-RPC (garbage on stdout), so far. */
  readonly noise: number;
  /** The last transport or protocol error seen (e.g. an oversized message). */
  readonly lastError: string | undefined;
  /** The last lines written to stderr. */
  readonly stderrTail: readonly string[];
  /**
   * Route `notifications/progress` carrying `token` to `onProgress`, synchronously as it is read
   * (the SDK handles notifications a microtask late, after a response in the same chunk).
   * Returns the function that removes the route.
   */
  watchProgress(token: string, onProgress: (params: Record<string, unknown>) => void): () => void;
  /** Every tool of the upstream, all pages, cached until `notifications/tools/list_changed`. */
  tools(): Promise<Tool[]>;
  close(): Promise<void>;
}

const STDERR_LINES = 20;
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Spawn or dial the upstream and run the `initialize` handshake, declaring the client
 * capabilities given (those of the real client, minus experimental). An upstream that answers
 * it "unsupported protocol version", naming only 2026 revisions, is reached again with the v2
 * client pinned to the newest of them.
 * @example const up = await connectUpstream({ name: 'fs', command: 'mcp-server-filesystem', args: ['.'] }, caps, hooks);
 */
export async function connectUpstream(config: UpstreamConfig, clientCapabilities: ClientCapabilities, hooks: UpstreamHooks): Promise<UpstreamConnection> {
  try {
    return await connectOnce(config, clientCapabilities, hooks, undefined);
  } catch (error) {
    const version = modernOnlyVersion((error as { cause?: unknown }).cause ?? error);
    if (version === undefined) throw error;
    return connectOnce(config, clientCapabilities, hooks, version);
  }
}

async function connectOnce(config: UpstreamConfig, clientCapabilities: ClientCapabilities, hooks: UpstreamHooks, modernVersion: string | undefined): Promise<UpstreamConnection> {
  const state = { closed: false, noise: 0, stderrTail: [] as string[], tools: null as Tool[] | null, lastError: undefined as string | undefined };
  const onNotification = (method: string): void => {
    if (method === 'notifications/tools/list_changed') state.tools = null;
  };
  const onerror = (error: Error): void => {
    state.lastError = String(error.message ?? error);
    // The SDK reports unparseable stdout lines here and skips them.
    if (/JSON|parse|Unexpected token|invalid_union|Invalid input/i.test(String(error))) state.noise++;
  };
  const onclose = (): void => {
    state.closed = true;
  };
  let legacy: Client | undefined;
  if (modernVersion === undefined) {
    legacy = new Client({ name: 'trc-gateway', version: '0.1.0' }, { capabilities: upstreamCapabilities(clientCapabilities) });
    // Relay server→client requests generically; the upstream only sends those the declared
    // capabilities allow, and the real client answers or refuses them.
    legacy.fallbackRequestHandler = async (request, extra) => hooks.onRequest(request.method, request.params, extra.signal);
    legacy.fallbackNotificationHandler = async (notification) => {
      onNotification(notification.method);
      hooks.onNotification(notification.method, notification.params);
    };
    legacy.onerror = onerror;
    legacy.onclose = onclose;
  }

  const transport = await makeTransport(config, modernVersion !== undefined);
  const stderr = (transport as { stderr?: Readable | null }).stderr;
  if (stderr) {
    let pending = '';
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        state.stderrTail.push(line);
        if (state.stderrTail.length > STDERR_LINES) state.stderrTail.shift();
        hooks.onStderr?.(line);
      }
    });
  }
  let protocolVersion: string | undefined;
  const progressRoutes = new Map<string, (params: Record<string, unknown>) => void>();
  // Protocol.connect chains a handler set before it, and calls it first, synchronously: read the
  // negotiated version (the v1 client keeps it private) and route progress in wire order.
  const beforeSdk = (message: JSONRPCMessage): void => {
    const m = message as { method?: string; params?: Record<string, unknown>; result?: { protocolVersion?: unknown } };
    if (m.method === 'notifications/progress' && m.params !== undefined) {
      progressRoutes.get(String(m.params['progressToken']))?.(m.params);
      return;
    }
    const v = m.result?.protocolVersion;
    if (protocolVersion === undefined && typeof v === 'string') protocolVersion = v;
  };
  transport.onmessage = beforeSdk;
  let connected: { client: UpstreamClient; serverCapabilities: ServerCapabilities; serverInfo: Implementation | undefined; instructions: string | undefined };
  try {
    if (legacy !== undefined) {
      await legacy.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      // Messages the stdio framer checked skip the SDK's per-message Zod dispatch checks.
      dispatchDirectly(legacy, transport, beforeSdk);
      connected = { client: legacy, serverCapabilities: legacy.getServerCapabilities() ?? {}, serverInfo: legacy.getServerVersion(), instructions: legacy.getInstructions() };
    } else {
      const modern = await connectModern(transport, modernVersion as string, upstreamCapabilities(clientCapabilities), hooks, { onerror, onclose, onNotification }, CONNECT_TIMEOUT_MS);
      protocolVersion = modern.protocolVersion;
      connected = modern;
    }
  } catch (cause) {
    await (legacy?.close() ?? transport.close()).catch(() => undefined);
    const tail = state.stderrTail.length > 0 ? `\n  upstream stderr: ${state.stderrTail.slice(-5).join('\n  ')}` : '';
    throw new TrcError('GATEWAY_UPSTREAM_START_FAILED', `upstream "${config.name}" did not start: ${(cause as Error).message}${tail}`, { cause, data: { upstream: config.name } });
  }

  // Requests sent in one event-loop turn reach the upstream in one write. The SDK keeps the
  // child process private; without it (HTTP, or another SDK layout) writes stay as they are.
  const childStdin = (transport as { stdin?: Writable | null }).stdin;
  if (childStdin) coalesceWrites(childStdin);

  const { client } = connected;
  return {
    config,
    client,
    serverCapabilities: connected.serverCapabilities,
    serverInfo: connected.serverInfo,
    instructions: connected.instructions,
    protocolVersion,
    get closed() {
      return state.closed;
    },
    markClosed(reason) {
      state.closed = true;
      state.lastError = reason;
    },
    get noise() {
      return state.noise;
    },
    get stderrTail() {
      return state.stderrTail;
    },
    get lastError() {
      return state.lastError;
    },
    watchProgress(token, onProgress) {
      progressRoutes.set(token, onProgress);
      return () => progressRoutes.delete(token);
    },
    async tools() {
      if (state.tools !== null) return state.tools;
      const all: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ListToolsResultSchema);
        all.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      state.tools = all;
      return all;
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}

/** The real client's capabilities, as the gateway will relay them (experimental dropped). */
function upstreamCapabilities(caps: ClientCapabilities): ClientCapabilities {
  const out: ClientCapabilities = {};
  if (caps.sampling !== undefined) out.sampling = caps.sampling;
  if (caps.elicitation !== undefined) out.elicitation = caps.elicitation;
  if (caps.roots !== undefined) out.roots = caps.roots;
  return out;
}

function inheritedEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}

async function makeTransport(config: UpstreamConfig, modern: boolean): Promise<Transport> {
  if (config.url !== undefined) {
    const token = config.bearer_token_env === undefined ? undefined : process.env[config.bearer_token_env];
    const init = { fetch: ownSignalFetch(), ...(token === undefined || token === '' ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }) };
    if (!modern) return new StreamableHTTPClientTransport(new URL(config.url), init);
    // The 2026 revision's HTTP binding (per-request headers, no session) is the v2 transport's.
    const { StreamableHTTPClientTransport: ModernHttp } = await import('@modelcontextprotocol/client');
    return new ModernHttp(new URL(config.url), init) as unknown as Transport;
  }
  if (config.command === undefined) throw new TrcError('GATEWAY_CONFIG_INVALID', `upstream "${config.name}" has neither command nor url`);
  // Our own framing: linear in the message size, with a limit (the SDK's is quadratic).
  return spawnTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    // The client configured the gateway's environment for the server behind it (API keys,
    // paths): pass it on, as a direct launch would.
    env: { ...getDefaultEnvironment(), ...inheritedEnv(), ...(config.env ?? {}) },
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    maxMessageBytes: config.max_message_bytes ?? MAX_UPSTREAM_MESSAGE_BYTES,
  });
}
