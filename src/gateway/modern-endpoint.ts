/**
 * The 2026-07-28 protocol generation on the gateway's HTTP port, beside the 2025 one. That
 * revision is stateless: no `initialize`, no session id; `server/discover` describes the server
 * and every request carries its own envelope. The official v2 server package
 * (`createMcpHandler`) speaks it to the client; behind it sits one ordinary gateway session
 * ({@link startSession}, the same code every 2025 client gets), reached in memory, which speaks
 * whatever each upstream speaks. So every tool call still runs the executor's pipeline, and
 * nothing of the contract is implemented twice.
 *
 * The principal of stateless traffic comes from authentication on every request, never from a
 * session id: the OAuth door's (one inner session per principal), else the configured
 * `principal`, else one local principal — the gateway serves stateless requests only to a
 * token holder or on loopback (the HTTP door checks both before this).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResultSchema, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, Server as ModernServer, createMcpHandler, isLegacyRequest, type McpHttpHandler, type McpRequestContext, type ServerContext } from '@modelcontextprotocol/server';
import { relayError, RelayedRpcError } from './forward.js';
import { startSession, type GatewaySession } from './session.js';
import type { GatewayOptions } from './session-state.js';

/** The principal of stateless (2026-07-28) requests when the config names none. */
export const LOCAL_PRINCIPAL = 'local';

/** Inner sessions kept open at once by default, one per principal; beyond it the least recently used idle one closes. */
const MAX_PRINCIPALS = 64;
/** Key of the principal in the `authInfo.extra` the door hands the SDK's handler. */
const PRINCIPAL_KEY = 'dev.tool-result-contract/principal';

/** Requests the gateway serves to 2026-07-28 clients, each relayed to the inner session. */
const METHODS = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
] as const;

/** The capability each relayed method belongs to. */
const CAPABILITY_OF: Record<(typeof METHODS)[number], string> = {
  'tools/list': 'tools',
  'tools/call': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'completion/complete': 'completions',
};

/** The 2026-07-28 side of the HTTP gateway. */
export interface ModernEndpoint {
  /** Serve one request the SDK classifies as 2026-07-28 traffic, for `principal` (the authenticated one; default the configured or local principal). */
  fetch(request: Request, parsedBody: unknown, principal?: string): Promise<Response>;
  /** The inner gateway session serving `principal` (opened if needed), e.g. for the door's scope check. */
  session(principal?: string): Promise<GatewaySession>;
  close(): Promise<void>;
}

/**
 * True when the SDK routes this request to the 2026-07-28 path (it carries the per-request
 * envelope), false for 2025-era traffic (initialize, session operations).
 * @example if (await isModernRequest(new Request(url, { method: 'POST', headers }), body)) …
 */
export async function isModernRequest(request: Request, parsedBody: unknown): Promise<boolean> {
  return !(await isLegacyRequest(request, parsedBody));
}

interface Inner {
  readonly client: Client;
  readonly session: GatewaySession;
  /** Modern requests in flight, oldest first: what the upstreams send meanwhile goes to the oldest. */
  readonly inflight: ServerContext[];
}

/**
 * The 2026-07-28 endpoint for `options` (one inner session per principal, opened on its first request).
 * @example const modern = modernEndpoint(options); const res = await modern.fetch(request, body);
 */
export function modernEndpoint(options: GatewayOptions, limits: { readonly maxPrincipals?: number } = {}): ModernEndpoint {
  const maxPrincipals = limits.maxPrincipals ?? MAX_PRINCIPALS;
  const fallback = options.principal ?? options.config.principal ?? LOCAL_PRINCIPAL;
  // One inner session per principal (an authenticated gateway has many), least recently used first.
  const inners = new Map<string, Promise<Inner>>();
  // The started ones, to see synchronously which are idle.
  const started = new Map<Promise<Inner>, Inner>();
  const open = (principal: string): Promise<Inner> => {
    const known = inners.get(principal);
    if (known !== undefined) {
      inners.delete(principal);
      inners.set(principal, known);
      return known;
    }
    const inner = (async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const session = await startSession(options, serverSide, { transport: 'http', principal });
      const client = new Client({ name: 'trc-gateway-2026', version: '0.1.0' }, { capabilities: {} });
      const inflight: ServerContext[] = [];
      // Progress comes back under the token the modern client chose (the inner session relays it
      // under the same token); log messages go with the oldest request still in flight.
      client.fallbackNotificationHandler = async (n) => {
        const params = (n.params ?? {}) as Record<string, unknown>;
        const token = n.method === 'notifications/progress' ? params['progressToken'] : undefined;
        const target = token === undefined ? inflight[0] : inflight.find((c) => c.mcpReq._meta?.progressToken === token);
        await target?.mcpReq.notify({ method: n.method, params } as never).catch(() => undefined);
      };
      await client.connect(clientSide);
      void session.done.then(() => {
        if (inners.get(principal) === inner) inners.delete(principal);
      });
      return { client, session, inflight };
    })();
    inner.then(
      (ready) => {
        started.set(inner, ready);
        void ready.session.done.then(() => started.delete(inner));
      },
      () => {
        if (inners.get(principal) === inner) inners.delete(principal);
      },
    );
    inners.set(principal, inner);
    if (inners.size > maxPrincipals) {
      // The least recently used idle principal's inner session closes (with its upstreams); it
      // reopens on its next request. None idle: the cap is exceeded until one is.
      for (const [name, candidate] of inners) {
        if (started.get(candidate)?.inflight.length !== 0) continue;
        inners.delete(name);
        void closeInner(candidate);
        break;
      }
    }
    return inner;
  };

  const factory = async (ctx: McpRequestContext): Promise<ModernServer> => {
    const principal = ctx.authInfo?.extra?.[PRINCIPAL_KEY];
    const { client, inflight } = await open(typeof principal === 'string' ? principal : fallback);
    const instructions = client.getInstructions();
    const capabilities = modernCapabilities(client.getServerCapabilities() ?? {});
    const server = new ModernServer(client.getServerVersion() ?? { name: 'trc-gateway', version: '0.1.0' }, {
      capabilities,
      ...(instructions === undefined ? {} : { instructions }),
    });
    // The SDK refuses a handler for a capability the server does not advertise.
    for (const method of METHODS.filter((m) => capabilities[CAPABILITY_OF[m]] !== undefined)) {
      server.setRequestHandler(method, (async (request: { params?: Record<string, unknown> }, ctx: ServerContext) => {
        inflight.push(ctx);
        try {
          const params = { ...(request.params ?? {}) };
          if (ctx.mcpReq._meta !== undefined) params['_meta'] = ctx.mcpReq._meta;
          return await client.request({ method, params }, ResultSchema, { signal: ctx.mcpReq.signal, timeout: 24 * 3600 * 1000 });
        } catch (error) {
          const relayed = relayError(error);
          // The upstream's JSON-RPC error reaches the client with its code, message and data.
          throw relayed instanceof RelayedRpcError ? new ProtocolError(relayed.code, relayed.message, relayed.data) : relayed;
        } finally {
          inflight.splice(inflight.indexOf(ctx), 1);
        }
      }) as never);
    }
    return server;
  };
  const handler: McpHttpHandler = createMcpHandler(factory, { legacy: 'reject' });

  return {
    fetch: (request, parsedBody, principal) =>
      handler.fetch(request, { parsedBody, ...(principal === undefined ? {} : { authInfo: { token: '', clientId: principal, scopes: [], extra: { [PRINCIPAL_KEY]: principal } } }) }),
    async session(principal) {
      return (await open(principal ?? fallback)).session;
    },
    async close() {
      await handler.close();
      const all = [...inners.values()];
      inners.clear();
      await Promise.all(all.map(closeInner));
    },
  };
}

async function closeInner(inner: Promise<Inner>): Promise<void> {
  const { client, session } = await inner.catch(() => ({ client: null, session: null }));
  await client?.close().catch(() => undefined);
  await session?.close();
}

/**
 * What the inner session offers, as a 2026-07-28 server may advertise it: the stateless
 * revision has no per-session subscriptions or logging level.
 */
function modernCapabilities(caps: ServerCapabilities): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (caps.tools !== undefined) out['tools'] = {};
  if (caps.prompts !== undefined) out['prompts'] = {};
  // Always: the gateway serves its own stored results (`trc://resource/…` handles) with resources/read.
  out['resources'] = {};
  if (caps.completions !== undefined) out['completions'] = {};
  return out;
}
