/**
 * One connection to an upstream MCP server (spawned over stdio, or a Streamable HTTP URL),
 * made with the official v1 SDK client. The gateway opens one per client session so that the
 * upstream sees the real client's capabilities (servers register tools depending on them).
 */
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, Implementation, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { TrcError } from '../contract/index.js';
import type { UpstreamConfig } from './config.js';
import { coalesceWrites } from './coalesce-writes.js';
import { MAX_UPSTREAM_MESSAGE_BYTES, spawnTransport } from './stdio-transports.js';

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
  readonly client: Client;
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /** Protocol version negotiated with the upstream. */
  readonly protocolVersion: string | undefined;
  /** True once the transport closed (crash, exit, network). */
  readonly closed: boolean;
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
 * capabilities given (those of the real client, minus experimental).
 * @example const up = await connectUpstream({ name: 'fs', command: 'mcp-server-filesystem', args: ['.'] }, caps, hooks);
 */
export async function connectUpstream(config: UpstreamConfig, clientCapabilities: ClientCapabilities, hooks: UpstreamHooks): Promise<UpstreamConnection> {
  const client = new Client({ name: 'trc-gateway', version: '0.1.0' }, { capabilities: upstreamCapabilities(clientCapabilities) });
  const state = { closed: false, noise: 0, stderrTail: [] as string[], tools: null as Tool[] | null, lastError: undefined as string | undefined };

  // Relay server→client requests generically; the upstream only sends those the declared
  // capabilities allow, and the real client answers or refuses them.
  client.fallbackRequestHandler = async (request, extra) => hooks.onRequest(request.method, request.params, extra.signal);
  client.fallbackNotificationHandler = async (notification) => {
    if (notification.method === 'notifications/tools/list_changed') state.tools = null;
    hooks.onNotification(notification.method, notification.params);
  };

  const transport = makeTransport(config);
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
  client.onerror = (error) => {
    state.lastError = String((error as Error).message ?? error);
    // The SDK reports unparseable stdout lines here and skips them.
    if (/JSON|parse|Unexpected token|invalid_union|Invalid input/i.test(String(error))) state.noise++;
  };
  client.onclose = () => {
    state.closed = true;
  };

  let protocolVersion: string | undefined;
  const progressRoutes = new Map<string, (params: Record<string, unknown>) => void>();
  // Protocol.connect chains a handler set before it, and calls it first, synchronously: read the
  // negotiated version (the v1 client keeps it private) and route progress in wire order.
  transport.onmessage = (message) => {
    const m = message as { method?: string; params?: Record<string, unknown>; result?: { protocolVersion?: unknown } };
    if (m.method === 'notifications/progress' && m.params !== undefined) {
      progressRoutes.get(String(m.params['progressToken']))?.(m.params);
      return;
    }
    const v = m.result?.protocolVersion;
    if (protocolVersion === undefined && typeof v === 'string') protocolVersion = v;
  };
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
  } catch (cause) {
    await client.close().catch(() => undefined);
    const tail = state.stderrTail.length > 0 ? `\n  upstream stderr: ${state.stderrTail.slice(-5).join('\n  ')}` : '';
    throw new TrcError('GATEWAY_UPSTREAM_START_FAILED', `upstream "${config.name}" did not start: ${(cause as Error).message}${tail}`, { cause, data: { upstream: config.name } });
  }

  // Requests sent in one event-loop turn reach the upstream in one write. The SDK keeps the
  // child process private; without it (HTTP, or another SDK layout) writes stay as they are.
  const childStdin = (transport as { stdin?: Writable | null }).stdin;
  if (childStdin) coalesceWrites(childStdin);

  return {
    config,
    client,
    serverCapabilities: client.getServerCapabilities() ?? {},
    serverInfo: client.getServerVersion(),
    instructions: client.getInstructions(),
    protocolVersion,
    get closed() {
      return state.closed;
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

function makeTransport(config: UpstreamConfig): Transport {
  if (config.url !== undefined) {
    const token = config.bearer_token_env === undefined ? undefined : process.env[config.bearer_token_env];
    return new StreamableHTTPClientTransport(new URL(config.url), token === undefined || token === '' ? undefined : { requestInit: { headers: { authorization: `Bearer ${token}` } } });
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
