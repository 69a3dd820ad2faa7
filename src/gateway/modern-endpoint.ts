/**
 * The 2026-07-28 protocol generation on the gateway's HTTP port, beside the 2025 one. That
 * revision is stateless: no `initialize`, no session id; `server/discover` describes the server
 * and every request carries its own envelope. The official v2 server package
 * (`createMcpHandler`) speaks it to the client; behind it sits one ordinary gateway session
 * ({@link startSession}, the same code every 2025 client gets), reached in memory, which speaks
 * whatever each upstream speaks. So every tool call still runs the executor's pipeline, and
 * nothing of the contract is implemented twice.
 *
 * The principal of stateless traffic comes from authentication, never from a session id:
 * the configured `principal`, else one local principal — the gateway serves stateless
 * requests only to a token holder or on loopback (the HTTP door checks both before this).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResultSchema, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, Server as ModernServer, createMcpHandler, isLegacyRequest, type McpHttpHandler, type ServerContext } from '@modelcontextprotocol/server';
import { relayError, RelayedRpcError } from './forward.js';
import { startSession, type GatewaySession } from './session.js';
import type { GatewayOptions } from './session-state.js';

/** The principal of stateless (2026-07-28) requests when the config names none. */
export const LOCAL_PRINCIPAL = 'local';

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

/** The capability each relayed method needs (the v2 SDK refuses a handler without it). */
const CAPABILITY: Readonly<Record<(typeof METHODS)[number], 'tools' | 'resources' | 'prompts' | 'completions'>> = {
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
  /** Serve one request the SDK classifies as 2026-07-28 traffic. */
  fetch(request: Request, parsedBody: unknown): Promise<Response>;
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
 * The 2026-07-28 endpoint for `options` (one inner session, opened on the first request).
 * @example const modern = modernEndpoint(options); const res = await modern.fetch(request, body);
 */
export function modernEndpoint(options: GatewayOptions): ModernEndpoint {
  const principal = options.principal ?? options.config.principal ?? LOCAL_PRINCIPAL;
  let inner: Promise<Inner> | null = null;
  const open = (): Promise<Inner> => {
    inner ??= (async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const session = await startSession({ ...options, principal }, serverSide, { transport: 'http' });
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
      void session.done.then(() => (inner = null));
      return { client, session, inflight };
    })().catch((error: unknown) => {
      inner = null;
      throw error;
    });
    return inner;
  };

  const factory = async (): Promise<ModernServer> => {
    const { client, inflight } = await open();
    const instructions = client.getInstructions();
    const capabilities = modernCapabilities(client.getServerCapabilities() ?? {});
    const server = new ModernServer(client.getServerVersion() ?? { name: 'trc-gateway', version: '0.1.0' }, {
      capabilities,
      ...(instructions === undefined ? {} : { instructions }),
    });
    for (const method of METHODS) {
      if (capabilities[CAPABILITY[method]] === undefined) continue;
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
    fetch: (request, parsedBody) => handler.fetch(request, { parsedBody }),
    async close() {
      await handler.close();
      const current = inner;
      inner = null;
      if (current !== null) {
        const { client, session } = await current.catch(() => ({ client: null, session: null }));
        await client?.close().catch(() => undefined);
        await session?.close();
      }
    },
  };
}

/**
 * What the inner session offers, as a 2026-07-28 server may advertise it: the stateless
 * revision has no per-session subscriptions or logging level.
 */
function modernCapabilities(caps: ServerCapabilities): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (caps.tools !== undefined) out['tools'] = {};
  if (caps.prompts !== undefined) out['prompts'] = {};
  // Resources always: the gateway serves its own `trc://resource/…` links (stored results)
  // even in front of upstreams with tools only; `resources/list` then relays −32601 as before.
  out['resources'] = {};
  if (caps.completions !== undefined) out['completions'] = {};
  return out;
}
