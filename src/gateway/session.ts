/**
 * One client session of the gateway: an SDK `Server` facing the client, and the session's own
 * upstream connections, opened during `initialize` with the client's real capabilities so
 * upstreams behave as they would with a direct connection. Everything except tool results is
 * forwarded as is; tool results go through {@link callTool}.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ResultSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type InitializeRequest,
  type CallToolResult,
  type InitializeResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { forwardRequest, RelayedRpcError, relayError, type ForwardExtra } from './forward.js';
import { isTrcError as isError } from '../contract/index.js';
import { namespaceItems } from './routing.js';
import { track, type GatewayOptions, type SessionState } from './session-state.js';
import { connectAll, refreshToolRoutes } from './session-upstreams.js';
import { CALL_SCOPED_NOTIFICATIONS, relatedRequestOf, type RequestId } from './related-requests.js';
import { callTool } from './tool-call.js';
import { startTask, taskHandlers, TASKS_CAPABILITY } from './tasks.js';
import { HANDLE_ERROR_CODES, RESOURCE_URI_PREFIX, flushAudit, openResource } from '../executor/index.js';
import type { UpstreamConnection } from './upstream.js';

/** A running session. */
export interface GatewaySession {
  readonly principal: string;
  readonly sessionId: string;
  readonly server: Server;
  /** Resolves when the client side closed and every upstream of the session was shut down. */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

/** Every capability the gateway might relay; the advertised set is computed per session. */
const ALL_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
  tasks: TASKS_CAPABILITY,
};

/** How long a closing session waits for aborted calls to record their outcome. */
const INFLIGHT_GRACE_MS = 5000;

/** Resource-not-found, as the MCP spec names it. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Serve one client on `transport`.
 * @example const session = await startSession({ config, store }, new StdioServerTransport());
 */
export async function startSession(options: GatewayOptions, transport: Transport, input: { sessionId?: string; transport?: 'stdio' | 'http' } = {}): Promise<GatewaySession> {
  const sessionId = input.sessionId ?? randomUUID();
  const server = new Server({ name: 'trc-gateway', version: '0.1.0' }, { capabilities: ALL_CAPABILITIES });
  const state: SessionState = {
    options,
    principal: options.principal ?? options.config.principal ?? `session:${sessionId}`,
    sessionId,
    transport: input.transport ?? 'stdio',
    upstreams: [],
    clientCapabilities: {},
    toolRoutes: null,
    promptRoutes: null,
    resourceOwners: new Map(),
    inflight: new Set(),
    clientClosed: false,
    hooks: (config) => {
      // Over HTTP, what the upstream sends during one of our requests goes on that request's stream.
      const related = (): { relatedRequestId?: RequestId } => {
        const id = relatedRequestOf(state.upstreams.find((u) => u.config === config)?.client);
        return id === undefined ? {} : { relatedRequestId: id };
      };
      return {
        onRequest: async (method, params, signal) =>
          (await server.request({ method, ...(params === undefined ? {} : { params: params as Record<string, unknown> }) }, ResultSchema, { signal, ...related() })) as Record<string, unknown>,
        onNotification: (method, params) => {
          if (method === 'notifications/tools/list_changed') state.toolRoutes = null;
          if (method === 'notifications/prompts/list_changed') state.promptRoutes = null;
          const options = CALL_SCOPED_NOTIFICATIONS.has(method) ? related() : {};
          void server.notification({ method, ...(params === undefined ? {} : { params: params as Record<string, unknown> }) }, options).catch(() => undefined);
        },
        onStderr: (line) => options.onUpstreamStderr?.(config.name, line),
      };
    },
  };

  // The SDK answers `initialize` itself (version negotiation, client capabilities); wrap it so the
  // upstreams are connected first and their capabilities, identity and instructions are advertised.
  const sdkInitialize = (server as unknown as { _oninitialize(r: InitializeRequest): Promise<InitializeResult> })._oninitialize.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    // Tracked like a call: a session closed meanwhile waits for it, then ends what it started.
    const connecting = connectAll(state, request.params.capabilities);
    track(state, connecting);
    await connecting;
    const base = await sdkInitialize(request);
    const only = state.upstreams.length === 1 ? state.upstreams[0] : undefined;
    const instructions = state.upstreams.map((u) => u.instructions).filter((i): i is string => typeof i === 'string' && i.length > 0);
    return {
      ...base,
      capabilities: advertised(state.upstreams),
      serverInfo: only?.serverInfo ?? base.serverInfo,
      ...(instructions.length > 0 ? { instructions: instructions.join('\n\n') } : {}),
    };
  });

  const single = (): UpstreamConnection | undefined => (state.upstreams.length === 1 ? state.upstreams[0] : undefined);
  const params = (p: unknown) => p as Record<string, unknown> | undefined;

  server.setRequestHandler(ListToolsRequestSchema, async (req, extra) => {
    const only = single();
    if (only) return forwardRequest(only, 'tools/list', params(req.params), extra);
    return { tools: await refreshToolRoutes(state) };
  });
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    // A task-augmented call answers with the task; its result goes through the pipeline at tasks/result.
    const running = req.params.task !== undefined ? startTask(state, req.params, extra) : callTool(state, req.params, extra);
    track(state, running);
    return running as Promise<CallToolResult>;
  });
  const task = taskHandlers(state);
  server.setRequestHandler(GetTaskRequestSchema, (req, extra) => task['tasks/get'](params(req.params) ?? {}, extra) as never);
  server.setRequestHandler(ListTasksRequestSchema, (req, extra) => task['tasks/list'](params(req.params) ?? {}, extra) as never);
  server.setRequestHandler(CancelTaskRequestSchema, (req, extra) => task['tasks/cancel'](params(req.params) ?? {}, extra) as never);
  server.setRequestHandler(GetTaskPayloadRequestSchema, (req, extra) => {
    const running = task['tasks/result'](params(req.params) ?? {}, extra);
    track(state, running);
    return running as never;
  });

  server.setRequestHandler(ListPromptsRequestSchema, async (req, extra) => {
    const only = single();
    if (only) return forwardRequest(only, 'prompts/list', params(req.params), extra);
    const lists = await Promise.all(withCapability(state, 'prompts').map(async (u) => [u, await listAll(u, 'prompts/list', 'prompts', extra)] as const));
    const { items, routes } = namespaceItems(lists as [UpstreamConnection, { name: string }[]][]);
    state.promptRoutes = routes;
    return { prompts: items };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    const only = single();
    if (only) return forwardRequest(only, 'prompts/get', params(req.params), extra);
    const route = state.promptRoutes?.get(req.params.name);
    if (route === undefined) throw new RelayedRpcError(-32602, `Unknown prompt: ${req.params.name}`);
    return forwardRequest(route.upstream, 'prompts/get', { ...req.params, name: route.name }, extra);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (req, extra) => {
    const only = single();
    if (only) return only.serverCapabilities.resources ? forwardRequest(only, 'resources/list', params(req.params), extra) : { resources: [] };
    const resources: unknown[] = [];
    for (const u of withCapability(state, 'resources')) {
      for (const r of (await listAll(u, 'resources/list', 'resources', extra)) as { uri: string }[]) {
        state.resourceOwners.set(r.uri, u);
        resources.push(r);
      }
    }
    return { resources };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (req, extra) => {
    const only = single();
    if (only) return only.serverCapabilities.resources ? forwardRequest(only, 'resources/templates/list', params(req.params), extra) : { resourceTemplates: [] };
    const all: unknown[] = [];
    for (const u of withCapability(state, 'resources')) all.push(...(await listAll(u, 'resources/templates/list', 'resourceTemplates', extra)));
    return { resourceTemplates: all };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    if (req.params.uri.startsWith(RESOURCE_URI_PREFIX)) return readGatewayResource(state, req.params.uri);
    return forwardRequest(await resourceOwner(state, req.params.uri, extra), 'resources/read', params(req.params), extra);
  });
  server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => forwardRequest(await resourceOwner(state, req.params.uri, extra), 'resources/subscribe', params(req.params), extra));
  server.setRequestHandler(UnsubscribeRequestSchema, async (req, extra) => forwardRequest(await resourceOwner(state, req.params.uri, extra), 'resources/unsubscribe', params(req.params), extra));

  server.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
    const only = single();
    if (only) return forwardRequest(only, 'completion/complete', params(req.params), extra);
    const ref = req.params.ref as { type: string; name?: string; uri?: string };
    const route = ref.type === 'ref/prompt' && ref.name !== undefined ? state.promptRoutes?.get(ref.name) : undefined;
    if (route !== undefined) return forwardRequest(route.upstream, 'completion/complete', { ...req.params, ref: { ...ref, name: route.name } }, extra);
    const target = withCapability(state, 'completions')[0];
    if (target === undefined) return { completion: { values: [] } };
    return forwardRequest(target, 'completion/complete', params(req.params), extra);
  });
  server.setRequestHandler(SetLevelRequestSchema, async (req, extra) => {
    await Promise.all(withCapability(state, 'logging').map((u) => forwardRequest(u, 'logging/setLevel', params(req.params), extra).catch(() => undefined)));
    return {};
  });
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await Promise.all(state.upstreams.map((u) => u.client.sendRootsListChanged().catch(() => undefined)));
  });

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  let closing: Promise<void> | null = null;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      state.clientClosed = true;
      // Calls in flight were aborted by the SDK; let them write their envelope and audit record
      // (a call's audit write is tracked while the call is still in the set).
      const deadline = Date.now() + INFLIGHT_GRACE_MS;
      while (state.inflight.size > 0 && Date.now() < deadline) {
        await Promise.race([Promise.all([...state.inflight]), new Promise((r) => setTimeout(r, deadline - Date.now()).unref())]);
      }
      // Queued audit records reach the store before the session reports done (the CLI closes the store after).
      await flushAudit(options.store);
      await Promise.all(state.upstreams.map((u) => u.close()));
      resolveDone();
    })();
    return closing;
  };
  server.onclose = () => void shutdown();
  await server.connect(transport);

  return {
    principal: state.principal,
    sessionId,
    server,
    done,
    async close() {
      await server.close().catch(() => undefined);
      await shutdown();
    },
  };
}

function advertised(upstreams: readonly UpstreamConnection[]): ServerCapabilities {
  const caps: ServerCapabilities = { tools: {}, resources: {} };
  for (const u of upstreams) {
    const c = u.serverCapabilities;
    for (const key of ['tools', 'resources', 'prompts', 'logging', 'completions', 'tasks'] as const) {
      if (c[key] !== undefined) caps[key] = { ...(caps[key] ?? {}), ...(c[key] as object) };
    }
  }
  return caps;
}

function withCapability(state: SessionState, cap: 'prompts' | 'resources' | 'logging' | 'completions'): UpstreamConnection[] {
  return state.upstreams.filter((u) => u.serverCapabilities[cap] !== undefined);
}

async function listAll(up: UpstreamConnection, method: string, field: string, extra: ForwardExtra): Promise<unknown[]> {
  const all: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = await forwardRequest(up, method, cursor === undefined ? {} : { cursor }, extra);
    all.push(...((page[field] as unknown[] | undefined) ?? []));
    cursor = typeof page['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
  } while (cursor !== undefined);
  return all;
}

async function resourceOwner(state: SessionState, uri: string, extra: ForwardExtra): Promise<UpstreamConnection> {
  if (state.upstreams.length === 1) return state.upstreams[0] as UpstreamConnection;
  const known = state.resourceOwners.get(uri);
  if (known !== undefined) return known;
  // Not listed (e.g. a template instance): ask each upstream with resources until one has it.
  for (const u of withCapability(state, 'resources')) {
    try {
      await forwardRequest(u, 'resources/read', { uri }, extra);
      state.resourceOwners.set(uri, u);
      return u;
    } catch {
      // try the next one
    }
  }
  throw new RelayedRpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

async function readGatewayResource(state: SessionState, uri: string): Promise<Record<string, unknown>> {
  try {
    // Re-authorized on every read (Z6): the handle must belong to this session's principal.
    const { meta, chunks } = await openResource(state.options.store, uri, { principal: state.principal, now: state.options.now?.() ?? new Date() });
    const parts: Buffer[] = [];
    for await (const c of chunks) parts.push(Buffer.from(c));
    const bytes = Buffer.concat(parts);
    const text = meta.mimeType.startsWith('text/') || meta.mimeType === 'application/json';
    return { contents: [text ? { uri, mimeType: meta.mimeType, text: bytes.toString('utf8') } : { uri, mimeType: meta.mimeType, blob: bytes.toString('base64') }] };
  } catch (error) {
    // One answer for unknown, foreign and expired handles: nothing about other sessions leaks.
    if (isError(error) && Object.values(HANDLE_ERROR_CODES).includes(error.code as never)) {
      throw new RelayedRpcError(RESOURCE_NOT_FOUND, `resource ${uri} is not available to this session`, { uri });
    }
    throw relayError(error);
  }
}
