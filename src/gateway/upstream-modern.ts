/**
 * Upstreams that speak only the 2026-07-28 generation. The gateway greets every upstream with
 * the v1 SDK client's 2025 `initialize` (what nearly every server speaks, and no extra round
 * trip); a server that refuses it with "unsupported protocol version" and names only 2026
 * revisions is reached again with the official v2 client (`@modelcontextprotocol/client`) pinned
 * to the revision it named: stateless, `server/discover`, the per-request envelope. The v2
 * client fulfils the upstream's `input_required` rounds through its request handlers, which
 * relay them to the gateway's client like a 2025 upstream's requests during a call (sampling,
 * elicitation): one path for both generations.
 *
 * The rest of the gateway sees the same request surface as the v1 client's (`request`, its
 * errors as `McpError`), so forwarding, the invoker and reconciliation need no second version.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type ClientCapabilities, type Implementation, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamHooks } from './upstream.js';

/** The request surface of an upstream client the gateway uses, whichever SDK client it is. */
export type UpstreamClient = Pick<Client, 'request' | 'sendRootsListChanged' | 'close'>;

/** What connecting a 2026-only upstream gave. */
export interface ModernUpstream {
  readonly client: UpstreamClient;
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  readonly protocolVersion: string | undefined;
}

/** JSON-RPC "unsupported protocol version" (2026-07-28). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * The 2026 revision to pin when `error` (what the 2025 handshake got) says the upstream speaks
 * only newer revisions; undefined for any other failure.
 * @example modernOnlyVersion(new McpError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28'] })) // '2026-07-28'
 */
export function modernOnlyVersion(error: unknown): string | undefined {
  const e = error as { code?: unknown; data?: unknown; message?: unknown } | null;
  let supported: unknown;
  if (e?.code === UNSUPPORTED_PROTOCOL_VERSION) supported = (e.data as { supported?: unknown } | undefined)?.supported;
  else {
    // Over HTTP the v1 transport reports the 400 answer's body inside its message.
    const body = /\{"jsonrpc".*\}/s.exec(typeof e?.message === 'string' ? e.message : '')?.[0];
    if (body === undefined) return undefined;
    try {
      const parsed = JSON.parse(body) as { error?: { code?: unknown; data?: { supported?: unknown } } };
      if (parsed.error?.code !== UNSUPPORTED_PROTOCOL_VERSION) return undefined;
      supported = parsed.error.data?.supported;
    } catch {
      return undefined;
    }
  }
  const modern = (Array.isArray(supported) ? supported : []).filter((v): v is string => typeof v === 'string' && v >= '2026').sort();
  return modern.at(-1);
}

/**
 * Connect `transport` with the v2 client pinned to `version`, relaying the upstream's input
 * requests and notifications through `hooks`.
 * @example const up = await connectModern(transport, '2026-07-28', caps, hooks, { onerror, onclose }, 30_000);
 */
export async function connectModern(
  transport: Transport,
  version: string,
  clientCapabilities: ClientCapabilities,
  hooks: UpstreamHooks,
  events: { onerror(error: Error): void; onclose(): void; onNotification(method: string): void },
  timeoutMs: number,
): Promise<ModernUpstream> {
  const { Client: ModernClient } = await import('@modelcontextprotocol/client');
  const client = new ModernClient({ name: 'trc-gateway', version: '0.1.0' }, { capabilities: clientCapabilities as never, versionNegotiation: { mode: { pin: version } } });
  // The upstream's `input_required` rounds are fulfilled through these handlers: the gateway's
  // client answers them (a 2025 client as server→client requests, a 2026 one as rounds of its own).
  const declared = clientCapabilities as Record<string, unknown>;
  for (const [method, capability] of [['elicitation/create', 'elicitation'], ['sampling/createMessage', 'sampling'], ['roots/list', 'roots']] as const) {
    if (declared[capability] === undefined) continue;
    client.setRequestHandler(method, (async (request: { params?: unknown }, ctx: { mcpReq: { signal: AbortSignal } }) => hooks.onRequest(method, request.params, ctx.mcpReq.signal)) as never);
  }
  client.fallbackNotificationHandler = async (n: { method: string; params?: unknown }) => {
    events.onNotification(n.method);
    hooks.onNotification(n.method, n.params);
  };
  client.onerror = events.onerror;
  client.onclose = events.onclose;
  await client.connect(transport as never, { timeout: timeoutMs });
  const listener = upstreamListener(client, events.onerror);
  await listener.start();
  const request = (async (req: { method: string; params?: Record<string, unknown> }, schema: unknown, options?: { signal?: AbortSignal; timeout?: number; maxTotalTimeout?: number }) => {
    // 2026 has no resources/subscribe: a subscription is a URI on the listen stream's filter.
    if (listener.canSubscribe && (req.method === 'resources/subscribe' || req.method === 'resources/unsubscribe')) {
      const uri = req.params?.['uri'];
      if (typeof uri !== 'string') throw new McpError(ErrorCode.InvalidParams, `${req.method} needs a uri`);
      await (req.method === 'resources/subscribe' ? listener.subscribe(uri) : listener.unsubscribe(uri));
      return {};
    }
    try {
      return await client.request(req as never, schema as never, options as never);
    } catch (error) {
      throw asMcpError(error);
    }
  }) as unknown as Client['request'];
  const instructions = client.getInstructions();
  return {
    client: {
      request,
      sendRootsListChanged: () => client.sendRootsListChanged(),
      close: async () => {
        await listener.close();
        await client.close();
      },
    },
    serverCapabilities: (client.getServerCapabilities() ?? {}) as ServerCapabilities,
    serverInfo: client.getServerVersion() as Implementation | undefined,
    instructions,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? version,
  };
}

/**
 * How long connecting waits for a 2026 upstream to acknowledge the listen stream. A compliant
 * server answers at once; one that never does would otherwise hold the connect (and the client's
 * first request) for the whole request timeout. The stream keeps opening after this.
 */
export const LISTEN_ACK_WAIT_MS = 2_000;

/** The gateway's listen stream to a 2026 upstream (see {@link upstreamListener}). */
interface UpstreamListener {
  /** The upstream takes resource URIs on its listen filter (`resources.subscribe`). */
  readonly canSubscribe: boolean;
  /**
   * Open the stream; resolves once it is acknowledged, refused (reported, not thrown), or after
   * the listener's wait, whichever comes first. Subscription changes queue behind the opening.
   */
  start(): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A 2026 upstream announces changes only on a `subscriptions/listen` stream, whose filter names
 * the lists that can change and the resources subscribed: the gateway keeps one open, so what
 * arrives reaches it as a 2025 upstream's unsolicited notifications do (the client dispatches
 * them to the same handlers). A subscription change opens a stream with the new filter before
 * the old one closes, so nothing between them is missed. An upstream that refuses the stream at
 * the start still serves calls (the failure is reported, not thrown); a refused change fails the
 * subscribe request that asked for it, and the old stream stays, with the URIs it names. One
 * that does not acknowledge within `ackWaitMs` does not hold up the start or the close.
 */
export function upstreamListener(client: ModernClientLike, onerror: (error: Error) => void, ackWaitMs = LISTEN_ACK_WAIT_MS): UpstreamListener {
  const caps = client.getServerCapabilities() ?? {};
  const lists = {
    ...(caps.tools?.listChanged === true ? { toolsListChanged: true } : {}),
    ...(caps.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
    ...(caps.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
  };
  const uris = new Set<string>();
  let current: { close(): Promise<void> } | undefined;
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  const reopen = async (): Promise<void> => {
    const filter = { ...lists, ...(uris.size > 0 ? { resourceSubscriptions: [...uris] } : {}) };
    const previous = current;
    const opened = Object.keys(filter).length === 0 ? undefined : await client.listen(filter);
    // Acknowledged after close() gave up waiting: nobody wants it any more.
    if (closed) return void (await opened?.close().catch(() => undefined));
    current = opened;
    await previous?.close().catch(() => undefined);
  };
  // Changes run one at a time, in order; one that failed does not stop the next, and is undone,
  // so the URIs kept are always those of the stream that is open.
  const change = (apply: () => boolean, undo: () => void): Promise<void> => {
    const run = queue.then(async () => {
      if (!apply()) return;
      try {
        await reopen();
      } catch (error) {
        undo();
        throw asMcpError(error);
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    canSubscribe: caps.resources?.subscribe === true,
    async start() {
      const opening = queue.then(reopen).catch((error: unknown) => onerror(error instanceof Error ? error : new Error(String(error))));
      queue = opening;
      await within(opening, ackWaitMs);
    },
    subscribe: (uri) => change(() => !uris.has(uri) && (uris.add(uri), true), () => uris.delete(uri)),
    unsubscribe: (uri) => change(() => uris.delete(uri), () => uris.add(uri)),
    async close() {
      closed = true;
      // A change still waiting for the upstream is dropped with the client that closes next.
      await within(queue, ackWaitMs);
      await current?.close().catch(() => undefined);
      current = undefined;
    },
  };
}

/** `promise`, or nothing after `ms` (the timer does not hold the process open). */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); timer.unref(); });
  await Promise.race([promise, late]);
  clearTimeout(timer);
}

/** What {@link upstreamListener} needs of the v2 client. */
export interface ModernClientLike {
  getServerCapabilities(): Partial<Record<'tools' | 'prompts' | 'resources', { listChanged?: boolean | undefined; subscribe?: boolean | undefined } | undefined>> | undefined;
  listen(filter: Record<string, unknown>): Promise<{ close(): Promise<void> }>;
}

/** The v2 client's errors as the v1 client's, which the gateway's forwarding understands. */
function asMcpError(error: unknown): unknown {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (e === null || typeof e !== 'object') return error;
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (typeof e.code === 'number') return new McpError(e.code, message, e.data);
  if (e.code === 'REQUEST_TIMEOUT') return new McpError(ErrorCode.RequestTimeout, message, e.data);
  if (e.code === 'CONNECTION_CLOSED') return new McpError(ErrorCode.ConnectionClosed, message, e.data);
  return error;
}
