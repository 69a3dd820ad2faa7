/**
 * The gateway over Streamable HTTP: one endpoint (`/mcp`), one gateway session (and one set of
 * upstream connections) per MCP session id. A session's principal is bound to its id, so a
 * handle minted in one session is refused in every other.
 *
 * Before any MCP handling, every request passes the checks the MCP transport spec asks for
 * against DNS rebinding (a loopback-bound gateway answers only loopback `Host` names, and a
 * browser `Origin` must be loopback or explicitly allowed) and then authentication: the shared
 * token (simple mode), or — with the config's `auth` section — an OAuth 2.1 access token whose
 * issuer + subject (+ tenant) becomes the session's principal (`auth/resource-server.ts`). A
 * gateway bound to a non-loopback interface must have one of them.
 * `GET /healthz` (the process answers) and `GET /readyz` (not shutting down, the store answers)
 * are for load balancers and orchestrators: they need no token and reveal nothing else.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TrcError } from '../contract/index.js';
import { startSession, type GatewaySession } from './session.js';
import type { GatewayOptions } from './session-state.js';
import { answerCors } from './cors.js';
import { WindowEventStore } from './event-store.js';
import { isModernRequest, modernEndpoint } from './modern-endpoint.js';
import { sendWebResponse, toWebRequest } from './web-http.js';
import { isRefusal, resourceServer, type Identity, type Refusal, type ResourceServer } from './auth/resource-server.js';

/** A running HTTP gateway. */
export interface HttpGateway {
  readonly url: string;
  readonly port: number;
  /** Live sessions by MCP session id. */
  readonly sessions: ReadonlyMap<string, GatewaySession>;
  close(): Promise<void>;
}

/** Where and how the HTTP gateway listens. */
export interface HttpListen {
  /** 0 = any free port. */
  readonly port: number;
  /** Interface to bind (default 127.0.0.1). Anything but loopback requires `token`. */
  readonly host?: string;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string;
  /**
   * Browser origins allowed besides loopback ones (exact, e.g. `https://app.example.com`). A page
   * on one of them may also read the answers (CORS; loopback origins get no CORS unless listed).
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * A session with no request in flight and none for this long is closed, with its upstream
   * processes (default 30 min): a client that vanishes without DELETE must not leak them.
   */
  readonly idleTimeoutMs?: number;
  /** New sessions beyond this many live ones are refused with 503 (default 64). */
  readonly maxSessions?: number;
  /** How the OAuth resource server fetches the issuer's metadata and JWKS (default: global `fetch`). */
  readonly fetch?: typeof fetch;
  /**
   * Prefix of the MCP session ids this instance mints (`<prefix>.<uuid>`): behind a load
   * balancer, a 2025-generation session is routed back to its instance by this prefix
   * (docs/deploy.md, stickiness). Letters, digits, `-` and `_`.
   */
  readonly sessionIdPrefix?: string;
}

/** Defaults of {@link HttpListen}. */
export const HTTP_DEFAULTS = { idleTimeoutMs: 30 * 60 * 1000, maxSessions: 64 } as const;

const MAX_BODY = 4 * 1024 * 1024;
/** The `retry` (ms) the priming event of each SSE stream tells a client to wait before it reconnects. */
export const SSE_RETRY_MS = 1000;

interface Entry {
  readonly transport: StreamableHTTPServerTransport;
  readonly session: GatewaySession;
  /** The principal the session was created for: every request on it must authenticate as it. */
  readonly principal: string;
  /** Requests (and SSE streams) of this session not yet finished. */
  open: number;
  lastSeen: number;
}
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const isProbe = (req: IncomingMessage): boolean => req.method === 'GET' && (req.url === '/healthz' || req.url === '/readyz');

const isLoopbackName = (name: string): boolean => LOOPBACK.has(name) || /^127(\.\d{1,3}){3}$/u.test(name);

/** The host part of a Host header value (`[::1]:8080` → `[::1]`, `localhost:80` → `localhost`). */
const hostOf = (header: string): string => (header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.replace(/:\d*$/u, ''));

/**
 * Listen on `port` (0 = any free port) on `host` (default 127.0.0.1).
 * @example const gw = await serveHttp({ config, store }, { port: 8080 }); // clients connect to gw.url
 */
export async function serveHttp(options: GatewayOptions, listen: HttpListen): Promise<HttpGateway> {
  const bindHost = listen.host ?? '127.0.0.1';
  const loopbackBound = isLoopbackName(bindHost);
  const auth = options.config.auth;
  const hasToken = listen.token !== undefined && listen.token !== '';
  if (auth !== undefined && hasToken) throw new TrcError('GATEWAY_HTTP_AUTH_CONFLICT', 'both a shared token (TRC_GATEWAY_TOKEN) and OAuth ("auth") are configured: choose one');
  if (!loopbackBound && !hasToken && auth === undefined) {
    throw new TrcError('GATEWAY_HTTP_NEEDS_TOKEN', `refusing to serve on "${bindHost}" without authentication: tool results and handles would be open to the network (set TRC_GATEWAY_TOKEN, or configure OAuth: "auth" / TRC_OAUTH_ISSUER)`);
  }
  const door: ResourceServer | null = auth === undefined ? null : resourceServer(auth, '/mcp', listen.fetch === undefined ? {} : { fetch: listen.fetch });
  if (listen.sessionIdPrefix !== undefined && !/^[\w-]{1,64}$/u.test(listen.sessionIdPrefix)) {
    throw new TrcError('GATEWAY_HTTP_BAD_SESSION_PREFIX', `the session id prefix must be 1-64 letters, digits, "-" or "_", got ${JSON.stringify(listen.sessionIdPrefix)}`);
  }
  const expected = listen.token === undefined ? null : Buffer.from(`Bearer ${listen.token}`);
  const allowedOrigins = new Set(listen.allowedOrigins ?? []);
  /** Null when the Host and Origin may go on, else why not (status and message). */
  const refuse = (req: IncomingMessage): [number, string] | null => {
    const host = hostOf(req.headers.host ?? '');
    if (loopbackBound && !isLoopbackName(host)) return [403, `Forbidden: Host "${host}" is not a loopback name (DNS rebinding protection)`];
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      let originHost = '';
      try {
        originHost = new URL(origin).hostname;
      } catch {
        // an unparsable Origin is refused below
      }
      if (!(loopbackBound && isLoopbackName(originHost))) return [403, `Forbidden: Origin "${origin}" is not allowed`];
    }
    return null;
  };
  /** Null when the shared token (if any) is there. */
  const unauthenticated = (req: IncomingMessage): [number, string] | null => {
    // Probes of a load balancer or orchestrator carry no token; they learn only up or not.
    if (expected === null || isProbe(req)) return null;
    const got = Buffer.from(req.headers.authorization ?? '');
    return got.length !== expected.length || !timingSafeEqual(got, expected) ? [401, 'Unauthorized: missing or wrong bearer token'] : null;
  };
  const entries = new Map<string, Entry>();
  const pending = new Set<Promise<GatewaySession>>();
  let closing = false;
  const sessions = new Map<string, GatewaySession>();
  const idleMs = listen.idleTimeoutMs ?? HTTP_DEFAULTS.idleTimeoutMs;
  const maxSessions = listen.maxSessions ?? HTTP_DEFAULTS.maxSessions;
  // Stateless principals' inner sessions are capped alike (the least recently used idle one closes).
  const modern = modernEndpoint(options, { maxPrincipals: maxSessions });
  // Requests (including an open SSE stream) keep a session busy; the sweep closes idle ones.
  const track = (entry: Entry, res: ServerResponse): void => {
    entry.open++;
    entry.lastSeen = Date.now();
    res.once('close', () => {
      entry.open--;
      entry.lastSeen = Date.now();
    });
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const entry of entries.values()) {
      if (entry.open === 0 && now - entry.lastSeen >= idleMs) void entry.session.close();
    }
  }, Math.max(10, Math.min(idleMs / 2, 30_000)));
  sweep.unref();

  // Ready: not shutting down, and the store answers a read (a shared PostgreSQL may be down).
  const readiness = async (res: ServerResponse): Promise<void> => {
    if (closing) return reply(res, 503, 'not ready: shutting down');
    try {
      await options.store.ledgerGet('trc:readyz');
      return reply(res, 200, 'ready');
    } catch (error) {
      return reply(res, 503, `not ready: the store does not answer (${(error as Error).message})`);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const blocked = refuse(req);
    if (blocked !== null) return rpcError(res, blocked[0], blocked[1]);
    // A page on an allowed origin may read the answers; its preflight carries no token.
    if (answerCors(req, res, allowedOrigins)) return;
    const refused = unauthenticated(req);
    if (refused !== null) {
      if (refused[0] === 401) res.setHeader('www-authenticate', 'Bearer');
      return rpcError(res, refused[0], refused[1]);
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (door?.metadataPaths.has(url.pathname) === true) return metadata(req, res, door);
    if (url.pathname === '/healthz') return reply(res, 200, 'ok');
    if (url.pathname === '/readyz') return readiness(res);
    if (url.pathname !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    let identity: Identity | null = null;
    if (door !== null) {
      const who = await door.authenticate(req.headers.authorization);
      if (isRefusal(who)) return refusal(res, who);
      identity = who;
    }
    const sid = req.headers['mcp-session-id'];
    const found = typeof sid === 'string' ? entries.get(sid) : undefined;
    // A session answers only the principal it was created for: another user's token with a
    // stolen session id finds no session, exactly like an unknown id.
    const known = found !== undefined && (identity === null || identity.principal === found.principal) ? found : undefined;
    if (known !== undefined) {
      track(known, res);
      if (identity === null || req.method !== 'POST') return known.transport.handleRequest(req, res);
      const read = await readJson(req);
      if ('refused' in read) return bodyRefusal(res, read);
      const denied = await scopeRefusal(door, identity, read.value, async () => known.session);
      if (denied !== null) return refusal(res, denied);
      return known.transport.handleRequest(req, res, read.value);
    }
    if (typeof sid === 'string') return rpcError(res, 404, 'Session not found');
    if (req.method !== 'POST') return rpcError(res, 400, 'Bad Request: no valid session id');
    const read = await readJson(req);
    if ('refused' in read) return bodyRefusal(res, read);
    const body = read.value;
    // No session id: a 2026-07-28 request (stateless, its own envelope) or a 2025 initialize.
    const webRequest = toWebRequest(req, req.socket.localPort ?? listen.port);
    if (await isModernRequest(webRequest, body)) {
      // Stateless: the principal comes from this request's token, every time.
      const denied = identity === null ? null : await scopeRefusal(door, identity, body, () => modern.session(identity.principal));
      if (denied !== null) return refusal(res, denied);
      return sendWebResponse(res, await modern.fetch(webRequest, body, identity?.principal));
    }
    if (!isInitializeRequest(body)) return rpcError(res, 400, 'Bad Request: no valid session id');
    if (entries.size >= maxSessions) return rpcError(res, 503, `Service Unavailable: ${maxSessions} sessions are open (each runs its own upstream processes); close one or raise --max-sessions`);
    const id = listen.sessionIdPrefix === undefined ? randomUUID() : `${listen.sessionIdPrefix}.${randomUUID()}`;
    // Each session keeps its recent SSE events, so a client whose stream broke resumes it (Last-Event-ID).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id, eventStore: new WindowEventStore(), retryInterval: SSE_RETRY_MS });
    if (closing) return rpcError(res, 503, 'Service Unavailable: the gateway is shutting down');
    // A session still starting when the gateway closes is closed by close(), which waits for it.
    const starting = startSession(options, transport, { sessionId: id, transport: 'http', ...(identity === null ? {} : { principal: identity.principal }) });
    pending.add(starting);
    const session = await starting.finally(() => pending.delete(starting));
    if (closing) return rpcError(res, 503, 'Service Unavailable: the gateway is shutting down');
    const entry: Entry = { transport, session, principal: session.principal, open: 0, lastSeen: Date.now() };
    entries.set(id, entry);
    track(entry, res);
    sessions.set(id, session);
    void session.done.then(() => {
      entries.delete(id);
      sessions.delete(id);
    });
    // An initialize whose upstreams could not start was answered with the error; the session
    // serves nothing, so it is closed rather than kept (it held a --max-sessions slot until idle).
    void session.startFailed.then(() => session.close());
    await transport.handleRequest(req, res, body);
  };

  const server: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) rpcError(res, 500, `gateway error: ${(error as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, bindHost, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : listen.port;
  return {
    url: `http://${bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost}:${port}/mcp`,
    port,
    sessions,
    async close() {
      closing = true;
      clearInterval(sweep);
      const starting = [...pending].map((p) => p.then((session) => session.close(), () => undefined));
      await Promise.all([...entries.values()].map((e) => e.session.close()).concat(modern.close(), starting));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
}

function rpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The JSON-RPC error code of a refusal's body (the SDK's own server error code). */
const REFUSAL_RPC_CODE = -32000;

function refusal(res: ServerResponse, refused: Refusal): void {
  for (const [name, value] of Object.entries(refused.headers)) res.setHeader(name, value);
  rpcError(res, refused.status, refused.message, REFUSAL_RPC_CODE);
}

/** The protected resource metadata (RFC 9728), readable by anyone: it is how a client finds the authorization server. */
function metadata(req: IncomingMessage, res: ServerResponse, door: ResourceServer): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(req.method === 'HEAD' ? undefined : JSON.stringify(door.metadata));
}

/**
 * The 403 for the first `tools/call` in `body` (one message or a batch) whose tool needs a scope
 * the caller lacks, else null. The tool's effect comes from the rules its call would run with,
 * and the refused call is run through the session's pipeline as refused, so it is audited.
 */
async function scopeRefusal(door: ResourceServer | null, identity: Identity, body: unknown, sessionOf: () => Promise<GatewaySession>): Promise<Refusal | null> {
  if (door === null) return null;
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
    if (m === null || typeof m !== 'object' || m.method !== 'tools/call' || typeof m.params?.name !== 'string') continue;
    const session = await sessionOf();
    const rules = await session.toolRules(m.params.name);
    // An unknown tool is the session's to answer (-32602), as without authorization.
    const denied = rules === null ? null : door.authorizeTool(identity, { name: m.params.name, effect: rules.effect });
    if (denied === null) continue;
    const args = m.params.arguments;
    await session.recordRefused(
      { name: m.params.name, arguments: args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {} },
      { category: 'authorization', code: 'INSUFFICIENT_SCOPE', message: denied.message, retryable: false, action: 'request_authorization', kind: 'execution' },
      // What `refusal` below answers: recorded, so the inspector shows what the client got.
      { http_status: denied.status, jsonrpc_code: REFUSAL_RPC_CODE },
    );
    return denied;
  }
  return null;
}

/** A request body read as JSON: its value, or why not. */
type BodyRead = { readonly value: unknown } | { readonly refused: 'too_large' | 'not_json' };

function readJson(req: IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= MAX_BODY) {
        chunks.push(chunk);
        return;
      }
      // Answered now; the rest is read and dropped (not destroyed), so a client still sending
      // gets the answer rather than a reset connection.
      over = true;
      chunks.length = 0;
      resolve({ refused: 'too_large' });
    });
    req.on('end', () => {
      if (over) return;
      try {
        resolve({ value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ refused: 'not_json' });
      }
    });
    // A connection that broke mid-body: nobody reads the answer, any refusal will do.
    req.on('error', () => resolve({ refused: 'not_json' }));
  });
}

/** Answer a body that could not be read: 413 as the SDK's transport does, or a parse error. */
function bodyRefusal(res: ServerResponse, read: { readonly refused: 'too_large' | 'not_json' }): void {
  if (read.refused === 'too_large') rpcError(res, 413, `Payload Too Large: a request body may hold up to ${MAX_BODY} bytes (4 MiB)`, -32000);
  else rpcError(res, 400, 'Parse error: the body is not JSON', -32700);
}
