/**
 * The 2026-07-28 protocol generation on the gateway's HTTP port, beside the 2025 one. That
 * revision is stateless: no `initialize`, no session id; `server/discover` describes the server
 * and every request carries its own envelope. The official v2 server package
 * (`createMcpHandler`) speaks it to the client; behind it sits one ordinary gateway session
 * ({@link startSession}, the same code every 2025 client gets), reached in memory, which speaks
 * whatever each upstream speaks. So every tool call still runs the executor's pipeline, and
 * nothing of the contract is implemented twice.
 *
 * The principal of stateless traffic comes from authentication, never from a session id: the
 * OAuth token's principal (one inner session per principal), else the configured `principal`,
 * else one local principal — the gateway serves stateless requests only to a token holder or
 * on loopback (the HTTP door checks both before this).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, ResultSchema, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, Server as ModernServer, createMcpHandler, isLegacyRequest, type McpHttpHandler, type McpRequestContext, type ServerContext } from '@modelcontextprotocol/server';
import { badParamsResponse } from './call-params-check.js';
import { errorResponse, relayError, RelayedRpcError } from './forward.js';
import { startSession, type GatewaySession } from './session.js';
import type { GatewayOptions } from './session-state.js';
import { inputRounds, roundTarget, type InputRounds, type Started } from './input-rounds.js';
import { listenedUris, listenSubscriptions, publish, whenBodyEnds, type ListenSubscriptions } from './listen-subscriptions.js';
import { modernTasks, TASK_PARAMS, TASKS_EXTENSION, type ModernTasks } from './modern-tasks.js';
import { listenedTaskIds, missingTasksCapability, taskIdsRefusal, withTaskStatus } from './task-listen.js';
import type { RequestId } from './related-requests.js';
import { withHeaderRunId } from './run-identity.js';

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

const RELAYED: ReadonlySet<string> = new Set(METHODS);

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
  /** Sends `request` on the inner link; answers its JSON-RPC id with the result promise. */
  readonly send: (method: string, params: Record<string, unknown>, signal: AbortSignal) => Started;
  readonly tasks: ModernTasks;
  /** Each tool's `execution.taskSupport`, from the inner session's listing (cleared when it changes). */
  readonly taskSupport: (name: string) => Promise<string | undefined>;
  /** Upstream resource subscriptions held for this principal's open listen streams. */
  readonly subscriptions: ListenSubscriptions;
  /** This principal's `subscriptions/listen` streams open now. */
  listening: number;
}

/** Multi-round-trip methods (2026-07-28): their upstream calls may ask the client for input. */
const ROUND_TRIP_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The 2026-07-28 endpoint for `options` (one inner session per principal, opened on its first request).
 * @example const modern = modernEndpoint(options); const res = await modern.fetch(request, body);
 */
export function modernEndpoint(options: GatewayOptions, limits: { readonly maxPrincipals?: number } = {}): ModernEndpoint {
  const maxPrincipals = limits.maxPrincipals ?? MAX_PRINCIPALS;
  const fallback = options.principal ?? options.config.principal ?? LOCAL_PRINCIPAL;
  const rounds = inputRounds();
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
    const inner: Promise<Inner> = (async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const link = correlate(clientSide, serverSide, rounds);
      const session = await startSession(options, serverSide, { transport: 'http', principal });
      // The inner client declares elicitation and sampling, so upstreams may ask for them during
      // a call: the ask becomes an `input_required` round of the 2026 client (input-rounds.ts).
      const client = new Client({ name: 'trc-gateway-2026', version: '0.1.0' }, { capabilities: { elicitation: {}, sampling: {} } });
      const inflight: ServerContext[] = [];
      client.fallbackRequestHandler = async (request, extra) => rounds.ask(link.relatedOf(extra.requestId), request.method, request.params, extra.signal) as never;
      let supports: Promise<Map<string, string | undefined>> | null = null;
      let tasks: ModernTasks | null = null;
      // Progress comes back under the token the modern client chose (the inner session relays it
      // under the same token); log messages go with the round they belong to, else the oldest request.
      client.fallbackNotificationHandler = async (n) => {
        const params = (n.params ?? {}) as Record<string, unknown>;
        if (n.method === 'notifications/tools/list_changed') supports = null;
        // Changes go to the open `subscriptions/listen` streams (the stateless revision's only channel for them).
        if (publish(handler, n.method, params)) return;
        // An upstream task's own status (2025 vocabulary): pushed to the listen streams following it.
        if (n.method === 'notifications/tasks/status') {
          if (typeof params['taskId'] === 'string') tasks?.changed(params['taskId']);
          return;
        }
        const token = n.method === 'notifications/progress' ? params['progressToken'] : undefined;
        const target = token === undefined ? inflight[0] : inflight.find((c) => c.mcpReq._meta?.progressToken === token);
        await target?.mcpReq.notify({ method: n.method, params } as never).catch(() => undefined);
      };
      // An upstream that cannot start fails the inner initialize: nothing of this session is kept.
      await client.connect(clientSide).catch(async (error: unknown) => {
        await session.close();
        throw error;
      });
      void session.done.then(() => {
        if (inners.get(principal) === inner) inners.delete(principal);
      });
      const send = (method: string, params: Record<string, unknown>, signal: AbortSignal): Started => {
        const result = client.request({ method, params }, ResultSchema, { signal, timeout: 24 * 3600 * 1000 }) as Promise<Record<string, unknown>>;
        return { id: link.lastRequestId(), result };
      };
      const taskSupport = async (name: string): Promise<string | undefined> => {
        supports ??= listTaskSupport(send).catch(() => new Map());
        return (await supports).get(name);
      };
      const subscriptions = listenSubscriptions(
        async (uri) => (await client.request({ method: 'resources/subscribe', params: { uri } }, ResultSchema), true),
        async (uri) => void (await client.request({ method: 'resources/unsubscribe', params: { uri } }, ResultSchema)),
      );
      tasks = modernTasks(rounds, send);
      return { client, session, inflight, send, tasks, taskSupport, subscriptions, listening: 0 };
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
      // reopens on its next request. None idle: the cap is exceeded until one is. Not idle: a
      // request in flight, a call parked for the client's next round, a task still running, an
      // open listen stream — closing would end them (a parked call's retry got "Connection closed").
      for (const [name, candidate] of inners) {
        const ready = started.get(candidate);
        if (ready === undefined || ready.inflight.length > 0 || ready.listening > 0 || ready.tasks.running() > 0 || rounds.heldFor(name) > 0) continue;
        inners.delete(name);
        void closeInner(candidate);
        break;
      }
    }
    return inner;
  };

  const factory = async (ctx: McpRequestContext): Promise<ModernServer> => {
    const given = ctx.authInfo?.extra?.[PRINCIPAL_KEY];
    const principal = typeof given === 'string' ? given : fallback;
    const { client, inflight, send, tasks, taskSupport } = await open(principal);
    const instructions = client.getInstructions();
    const innerCaps = client.getServerCapabilities() ?? {};
    // The tasks extension is offered when some upstream runs tool calls as (2025-11-25) tasks.
    const tasksServed = innerCaps.tasks?.requests?.tools?.call !== undefined;
    const capabilities: Record<string, unknown> = { ...modernCapabilities(innerCaps), ...(tasksServed ? { extensions: { [TASKS_EXTENSION]: {} } } : {}) };
    const server = new ModernServer(client.getServerVersion() ?? { name: 'trc-gateway', version: '0.1.0' }, {
      capabilities,
      ...(instructions === undefined ? {} : { instructions }),
    });
    // The v2 server refuses a handler for a capability it does not advertise.
    for (const method of METHODS.filter((m) => capabilities[CAPABILITY_OF[m]] !== undefined)) {
      server.setRequestHandler(method, (async (request: { params?: Record<string, unknown> }, ctx: ServerContext) => {
        inflight.push(ctx);
        try {
          const params = { ...(request.params ?? {}) };
          const meta = withHeaderRunId(ctx.mcpReq._meta, ctx.http?.req);
          if (meta !== undefined) params['_meta'] = meta;
          if (method === 'tools/call' && tasksServed) {
            const handle = await tasks.create(ctx, principal, params, await taskSupport(String(params['name'])));
            if (handle !== undefined) return handle;
          }
          if (ROUND_TRIP_METHODS.has(method)) return await rounds.serve(ctx, principal, roundTarget(method, params), (signal) => send(method, params, signal));
          const answer = send(method, params, ctx.mcpReq.signal).result;
          // Resources are advertised for the gateway's own stored results even when no upstream
          // has any: then the listings are empty.
          return await (method === 'resources/list' || method === 'resources/templates/list' ? answer.catch((e: unknown) => emptyListing(method, e)) : answer);
        } catch (error) {
          const relayed = relayError(error);
          // The upstream's JSON-RPC error reaches the client with its code, message and data.
          throw relayed instanceof RelayedRpcError ? new ProtocolError(relayed.code, relayed.message, relayed.data) : relayed;
        } finally {
          inflight.splice(inflight.indexOf(ctx), 1);
        }
      }) as never);
    }
    if (tasksServed) {
      const relay = (run: () => Promise<Record<string, unknown>> | Record<string, unknown>) => async () => {
        try {
          return await run();
        } catch (error) {
          const relayed = relayError(error);
          throw relayed instanceof RelayedRpcError ? new ProtocolError(relayed.code, relayed.message, relayed.data) : relayed;
        }
      };
      server.setRequestHandler('tasks/get', { params: TASK_PARAMS }, (p) => relay(() => tasks.get(principal, p.taskId))() as never);
      // The SDK lifts `inputResponses` out of the params of every request (it is MRTR vocabulary).
      server.setRequestHandler('tasks/update', { params: TASK_PARAMS }, (p, ctx) => relay(() => tasks.update(principal, p.taskId, ctx.mcpReq.inputResponses ?? p.inputResponses))() as never);
      server.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, (p) => relay(() => tasks.cancel(principal, p.taskId))() as never);
    }
    return server;
  };
  const handler: McpHttpHandler = createMcpHandler(factory, { legacy: 'reject' });

  return {
    async fetch(request, parsedBody, principal) {
      const refused = badParamsResponse(parsedBody, RELAYED) ?? taskIdsRefusal(parsedBody);
      if (refused !== null) return refused;
      const listener = principal ?? fallback;
      // The principal's inner session first: when it cannot start (an upstream did not), the
      // client is told why, as a 2025 client's initialize is; the SDK's handler would say only
      // "Internal server error".
      const failed = await open(listener).then(() => null, (error: unknown) => relayError(error));
      if (failed !== null) return errorResponse(parsedBody, failed);
      const sdkServe = () => handler.fetch(request, { parsedBody, ...(principal === undefined ? {} : { authInfo: { token: '', clientId: principal, scopes: [], extra: { [PRINCIPAL_KEY]: principal } } }) });
      // A listen stream that follows tasks (the tasks extension): the principal's own tasks are
      // agreed to in its acknowledgement, and their status changes pushed on it.
      const taskIds = listenedTaskIds(parsedBody);
      let serve = sdkServe;
      if ((parsedBody as { method?: unknown } | null)?.method === 'subscriptions/listen') {
        // An open listen stream keeps its principal's inner session from being closed as idle.
        const inner = await open(listener);
        const counted = serve;
        serve = async () => {
          inner.listening++;
          try {
            return whenBodyEnds(await counted(), () => inner.listening--);
          } catch (error) {
            inner.listening--;
            throw error;
          }
        };
      }
      if (taskIds !== null) {
        const refused = missingTasksCapability(parsedBody);
        if (refused !== null) return refused;
        const { tasks } = await open(listener);
        const agreed = taskIds.filter((id) => tasks.owns(listener, id));
        const state = (id: string) => tasks.get(listener, id).catch(() => null);
        serve = async () => withTaskStatus(await sdkServe(), (parsedBody as { id?: unknown }).id, { agreed, state, watch: (w, closed) => tasks.watch(w, closed) });
      }
      // A listen stream that names resources: the principal's upstreams are subscribed to them
      // first, so their updates flow, and unsubscribed when the last stream naming them ends.
      const uris = listenedUris(parsedBody);
      if (uris.length === 0) return serve();
      const { client, subscriptions } = await open(listener);
      if (client.getServerCapabilities()?.resources?.subscribe !== true) return serve();
      const release = await subscriptions.acquire(uris);
      try {
        return whenBodyEnds(await serve(), release);
      } catch (error) {
        release();
        throw error;
      }
    },
    async session(principal) {
      return (await open(principal ?? fallback)).session;
    },
    async close() {
      const all = [...inners.values()];
      inners.clear();
      // The inner sessions first: each answers its calls in flight (cancelled envelopes, a
      // write's with its key) through the rounds and the handler's responses, still open; closed
      // first, they cut those calls off (HTTP 499 with no body, or a bare -32001).
      await Promise.all(all.map(closeInner));
      rounds.close();
      await handler.close();
    },
  };
}

async function closeInner(inner: Promise<Inner>): Promise<void> {
  const ready = await inner.catch(() => null);
  ready?.tasks.close();
  await ready?.session.close();
  await ready?.client.close().catch(() => undefined);
}

/**
 * What the inner session offers, as a 2026-07-28 server may advertise it: the stateless
 * revision has no per-session subscriptions or logging level.
 */
function modernCapabilities(caps: ServerCapabilities): Record<string, unknown> {
  // `resources` always: stateless clients read the gateway's own `trc://resource/…` results,
  // and the v2 server answers `resources/read` only when the capability is advertised.
  const out: Record<string, unknown> = { resources: caps.resources === undefined ? {} : { ...(caps.resources.subscribe === true ? { subscribe: true } : {}), ...(caps.resources.listChanged === true ? { listChanged: true } : {}) } };
  if (caps.tools !== undefined) out['tools'] = caps.tools.listChanged === true ? { listChanged: true } : {};
  if (caps.prompts !== undefined) out['prompts'] = caps.prompts.listChanged === true ? { listChanged: true } : {};
  if (caps.completions !== undefined) out['completions'] = {};
  return out;
}

/** Every tool's `execution.taskSupport`, all pages of the inner session's listing. */
async function listTaskSupport(send: Inner['send']): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  let cursor: unknown;
  do {
    const page = await send('tools/list', cursor === undefined ? {} : { cursor }, AbortSignal.timeout(30_000)).result;
    for (const t of (page['tools'] as { name: string; execution?: { taskSupport?: string } }[] | undefined) ?? []) out.set(t.name, t.execution?.taskSupport);
    cursor = page['nextCursor'];
  } while (typeof cursor === 'string');
  return out;
}

/** Which capability each relayed method needs. */
const CAPABILITY_OF: Readonly<Record<(typeof METHODS)[number], string>> = {
  'tools/list': 'tools',
  'tools/call': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'completion/complete': 'completions',
};

/** An empty listing where no upstream has resources (the inner session answers −32601). */
function emptyListing(method: string, error: unknown): Record<string, unknown> {
  if (!(error instanceof McpError) || error.code !== -32601) throw error;
  return method === 'resources/list' ? { resources: [] } : { resourceTemplates: [] };
}

/**
 * Which inner request each message belongs to. The inner session sends an upstream's request or
 * call-scoped notification with the `relatedRequestId` of the inner request it serves; the
 * in-memory link drops that option, so it is read here, as the message is sent. Notifications of
 * a call in a round go on that round's stream at once.
 */
function correlate(clientSide: InMemoryTransport, serverSide: InMemoryTransport, rounds: InputRounds): { relatedOf(id: RequestId): RequestId | undefined; lastRequestId(): RequestId | undefined } {
  const related = new Map<RequestId, RequestId>();
  let last: RequestId | undefined;
  const clientSend = clientSide.send.bind(clientSide);
  // Protocol.request hands its message to the transport synchronously: the id is known on return.
  clientSide.send = (message, opts) => {
    const m = message as { id?: RequestId; method?: string };
    if (m.method !== undefined && m.id !== undefined) last = m.id;
    return clientSend(message, opts);
  };
  const serverSend = serverSide.send.bind(serverSide);
  serverSide.send = async (message, opts) => {
    const m = message as { id?: RequestId; method?: string; params?: Record<string, unknown> };
    const to = opts?.relatedRequestId;
    if (m.method !== undefined && to !== undefined) {
      if (m.id !== undefined) related.set(m.id, to);
      else {
        const round = rounds.roundOf(to);
        if (round !== undefined) return round.mcpReq.notify({ method: m.method, params: m.params ?? {} } as never).catch(() => undefined);
      }
    }
    return serverSend(message, opts);
  };
  return {
    relatedOf(id) {
      const to = related.get(id);
      related.delete(id);
      return to;
    },
    lastRequestId: () => last,
  };
}
