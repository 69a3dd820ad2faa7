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
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { forwardRequest, RelayedRpcError, type ForwardExtra } from './forward.js';
import type { ErrorInfo } from '../contract/index.js';
import { namespaceBlockUri, namespacedUri, namespaceItems, upstreamUri } from './routing.js';
import { track, type GatewayOptions, type SessionState } from './session-state.js';
import { dispatchDirectly } from './stdio-transports.js';
import { connectAll, refreshToolRoutes, reviveUpstreams, vetListed } from './session-upstreams.js';
import { CALL_SCOPED_NOTIFICATIONS, relatedRequestOf, type RequestId } from './related-requests.js';
import { callTool, recordRefusedCall, toolRulesOf, type DoorAnswer } from './tool-call.js';
import { recordRead } from './content-taint.js';
import { refuseBadParams } from './call-params-check.js';
import { startTask, taskHandlers, TASKS_CAPABILITY } from './tasks.js';
import { readGatewayResource, RESOURCE_NOT_FOUND } from './stored-resource-read.js';
import { RESOURCE_URI_PREFIX, flushAudit, vetInstructions, type ToolRules } from '../executor/index.js';
import type { UpstreamConnection } from './upstream.js';

/** A running session. */
export interface GatewaySession {
  readonly principal: string;
  /** The rules a call of the exposed tool `name` would run with (null: no such tool), e.g. for the HTTP door's scope check. */
  toolRules(name: string): Promise<ToolRules | null>;
  /** Record a call refused before it reached the session (the HTTP door's scope check): audited, never run. */
  recordRefused(params: { name: string; arguments?: Record<string, unknown> | undefined }, error: ErrorInfo, answered: DoorAnswer): Promise<void>;
  readonly sessionId: string;
  readonly server: Server;
  /** Resolves when the client side closed and every upstream of the session was shut down. */
  readonly done: Promise<void>;
  /**
   * Settles with the error when `initialize` could not start the upstreams (the client got it as
   * the answer); pending otherwise. Such a session serves nothing: its owner closes it.
   */
  readonly startFailed: Promise<Error>;
  /** The gateway ends the session: calls in flight are cancelled and answered, then it closes. */
  close(): Promise<void>;
  /** The client went away (stdin ended): calls in flight end as disconnected, nothing is answered. */
  clientGone(): Promise<void>;
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

/** JSON-RPC method-not-found. */
const METHOD_NOT_FOUND = -32601;

/**
 * Serve one client on `transport`.
 * @example const session = await startSession({ config, store }, new StdioServerTransport());
 */
export async function startSession(options: GatewayOptions, transport: Transport, input: { sessionId?: string; transport?: 'stdio' | 'http'; principal?: string } = {}): Promise<GatewaySession> {
  const sessionId = input.sessionId ?? randomUUID();
  const server = new Server({ name: 'trc-gateway', version: '0.1.0' }, { capabilities: ALL_CAPABILITIES });
  let reportStartFailed!: (error: Error) => void;
  const startFailed = new Promise<Error>((resolve) => (reportStartFailed = resolve));
  const state: SessionState = {
    options,
    // An authenticated principal (the HTTP door's, from the bearer token) comes first.
    principal: input.principal ?? options.principal ?? options.config.principal ?? `session:${sessionId}`,
    sessionId,
    transport: input.transport ?? 'stdio',
    upstreams: [],
    clientCapabilities: {},
    toolRoutes: null,
    promptRoutes: null,
    toolHolds: new Map(),
    inflight: new Set(),
    clientClosed: false,
    stopping: new AbortController(),
    starting: null,
    hooks: (config) => {
      // Over HTTP, what the upstream sends during one of our requests goes on that request's stream.
      const related = (): { relatedRequestId?: RequestId } => {
        const id = relatedRequestOf(state.upstreams.find((u) => u.config === config)?.client);
        return id === undefined ? {} : { relatedRequestId: id };
      };
      return {
        onRequest: async (method, params, signal) =>
          (await server.request({ method, ...(params === undefined ? {} : { params: params as Record<string, unknown> }) }, ResultSchema, { signal, ...related() })) as Record<string, unknown>,
        onNotification: (method, raw) => {
          if (method === 'notifications/tools/list_changed') {
            state.toolRoutes = null;
            state.toolHolds.clear();
          }
          if (method === 'notifications/prompts/list_changed') state.promptRoutes = null;
          // With several upstreams the client knows their resources by namespaced URI.
          const uri = (raw as { uri?: unknown } | undefined)?.uri;
          const params = method === 'notifications/resources/updated' && typeof uri === 'string' && state.upstreams.length > 1 ? { ...(raw as object), uri: namespacedUri(config.name, uri) } : raw;
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
    state.starting = connecting.catch(() => undefined);
    track(state, connecting);
    await connecting.catch((error: unknown) => {
      reportStartFailed(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
    const base = await sdkInitialize(request);
    const only = state.upstreams.length === 1 ? state.upstreams[0] : undefined;
    // An untrusted server's instructions go into the model's context: scanned like its other text (T5).
    const instructions = state.upstreams
      .filter((u) => typeof u.instructions === 'string' && u.instructions.length > 0)
      .map((u) => (u.config.trusted === true ? (u.instructions as string) : vetInstructions(u.instructions as string, u.config.name, u.config.flagged_tools ?? 'marked').text));
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
    await reviveUpstreams(state);
    const only = single();
    if (!only) return { tools: await refreshToolRoutes(state) };
    const page = await forwardRequest(only, 'tools/list', params(req.params), extra);
    // Page by page as the upstream pages; an untrusted upstream's tools are pinned and scanned (T5).
    return { ...page, tools: await vetListed(state, only, (page['tools'] as Tool[] | undefined) ?? []) };
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
    await reviveUpstreams(state);
    requireCapability(state, 'prompts', 'prompts/list');
    const only = single();
    if (only) return forwardRequest(only, 'prompts/list', params(req.params), extra);
    return { prompts: await refreshPromptRoutes(state, extra) };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    const only = single();
    if (only) {
      const answer = await forwardRequest(only, 'prompts/get', params(req.params), extra);
      await recordRead(state, { method: 'prompts/get', upstream: only, name: req.params.name, answer, meta: req.params._meta }, extra);
      return answer;
    }
    // A client may get a prompt it knows without listing first.
    if (state.promptRoutes?.has(req.params.name) !== true) await refreshPromptRoutes(state, extra);
    const route = state.promptRoutes?.get(req.params.name);
    if (route === undefined) throw new RelayedRpcError(-32602, `Unknown prompt: ${req.params.name}`);
    const prompt = await forwardRequest(route.upstream, 'prompts/get', { ...req.params, name: route.name }, extra);
    // What the prompt says is untrusted content of the run, like a tool's result.
    await recordRead(state, { method: 'prompts/get', upstream: route.upstream, name: req.params.name, answer: prompt, meta: req.params._meta }, extra);
    // The resources a prompt's messages name are the upstream's: namespaced as in resources/list.
    if (!Array.isArray(prompt['messages'])) return prompt;
    const messages = (prompt['messages'] as { content?: unknown }[]).map((m) => ({ ...m, content: namespaceBlockUri(m.content, route.upstream.config.name) }));
    return { ...prompt, messages };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    requireCapability(state, 'resources', 'resources/list');
    const only = single();
    if (only) return forwardRequest(only, 'resources/list', params(req.params), extra);
    const resources: unknown[] = [];
    for (const u of withCapability(state, 'resources')) {
      for (const r of (await listAll(u, 'resources/list', 'resources', extra)) as { uri: string }[]) resources.push({ ...r, uri: namespacedUri(u.config.name, r.uri) });
    }
    return { resources };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    requireCapability(state, 'resources', 'resources/templates/list');
    const only = single();
    if (only) return forwardRequest(only, 'resources/templates/list', params(req.params), extra);
    const all: unknown[] = [];
    for (const u of withCapability(state, 'resources')) {
      for (const t of (await listAll(u, 'resources/templates/list', 'resourceTemplates', extra)) as { uriTemplate: string }[]) all.push({ ...t, uriTemplate: namespacedUri(u.config.name, t.uriTemplate) });
    }
    return { resourceTemplates: all };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    if (req.params.uri.startsWith(RESOURCE_URI_PREFIX)) return readGatewayResource(state, req.params.uri);
    requireCapability(state, 'resources', 'resources/read');
    const { upstream, uri } = resourceOwner(state, req.params.uri);
    const read = await forwardRequest(upstream, 'resources/read', { ...req.params, uri }, extra);
    // What the resource says is untrusted content of the run, like a tool's result.
    await recordRead(state, { method: 'resources/read', upstream, name: req.params.uri, answer: read, meta: req.params._meta }, extra);
    if (state.upstreams.length === 1 || !Array.isArray(read['contents'])) return read;
    return { ...read, contents: (read['contents'] as { uri: string }[]).map((c) => ({ ...c, uri: namespacedUri(upstream.config.name, c.uri) })) };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    requireCapability(state, 'resources', 'resources/subscribe');
    const { upstream, uri } = resourceOwner(state, req.params.uri);
    return forwardRequest(upstream, 'resources/subscribe', { ...req.params, uri }, extra);
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    requireCapability(state, 'resources', 'resources/unsubscribe');
    const { upstream, uri } = resourceOwner(state, req.params.uri);
    return forwardRequest(upstream, 'resources/unsubscribe', { ...req.params, uri }, extra);
  });

  server.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    requireCapability(state, 'completions', 'completion/complete');
    const only = single();
    if (only) return forwardRequest(only, 'completion/complete', params(req.params), extra);
    const ref = req.params.ref as { type: string; name?: string; uri?: string };
    const route = ref.type === 'ref/prompt' && ref.name !== undefined ? state.promptRoutes?.get(ref.name) : undefined;
    if (route !== undefined) return forwardRequest(route.upstream, 'completion/complete', { ...req.params, ref: { ...ref, name: route.name } }, extra);
    // A resource template is known by its namespaced URI: it goes to the upstream that owns it.
    const owned = ref.type === 'ref/resource' && ref.uri !== undefined ? upstreamUri(ref.uri) : null;
    const owner = owned === null ? undefined : withCapability(state, 'completions').find((u) => u.config.name === owned.upstream);
    if (owned !== null && owner !== undefined) return forwardRequest(owner, 'completion/complete', { ...req.params, ref: { ...ref, uri: owned.uri } }, extra);
    const target = withCapability(state, 'completions')[0];
    if (target === undefined) return { completion: { values: [] } };
    return forwardRequest(target, 'completion/complete', params(req.params), extra);
  });
  server.setRequestHandler(SetLevelRequestSchema, async (req, extra) => {
    await reviveUpstreams(state);
    requireCapability(state, 'logging', 'logging/setLevel');
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
  // Messages the stdio framer checked skip the SDK's per-message Zod dispatch checks (stdio
  // only); bad request params are answered before either dispatch (wraps what is installed).
  dispatchDirectly(server, transport);
  refuseBadParams(transport);

  return {
    principal: state.principal,
    sessionId,
    server,
    toolRules: (name) => toolRulesOf(state, name),
    recordRefused: (params, error, answered) => recordRefusedCall(state, params, error, answered),
    done,
    startFailed,
    async clientGone() {
      state.clientClosed = true;
      await server.close().catch(() => undefined);
      await shutdown();
    },
    async close() {
      // The gateway ends the session (shutdown, idle): calls in flight are cancelled and answer
      // while the client can still read it (a write's unknown result carries its key), then the
      // transport closes.
      state.stopping.abort(new DOMException('the gateway is shutting down', 'AbortError'));
      const deadline = Date.now() + INFLIGHT_GRACE_MS;
      while (state.inflight.size > 0 && Date.now() < deadline) {
        await Promise.race([Promise.all([...state.inflight]), new Promise((r) => setTimeout(r, deadline - Date.now()).unref())]);
      }
      // The SDK sends a handler's answer a few callbacks after it settles; stdio writes leave on the next turn.
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      await server.close().catch(() => undefined);
      await shutdown();
    },
  };
}

/**
 * The union of the upstreams' capabilities, and nothing they lack: a client then gets −32601 for
 * `resources/list` or `logging/setLevel` exactly as it would directly. (The gateway's own
 * `trc://resource/…` links are still read with `resources/read`: SDK clients do not check the
 * capability before a request unless told to.)
 */
function advertised(upstreams: readonly UpstreamConnection[]): ServerCapabilities {
  const caps: ServerCapabilities = { tools: {} };
  for (const u of upstreams) {
    const c = u.serverCapabilities;
    for (const key of ['tools', 'resources', 'prompts', 'logging', 'completions', 'tasks'] as const) {
      if (c[key] !== undefined) caps[key] = { ...(caps[key] ?? {}), ...(c[key] as object) };
    }
  }
  return caps;
}

/** −32601 when no upstream has `cap`, as a direct connection to those servers answers. */
function requireCapability(state: SessionState, cap: 'prompts' | 'resources' | 'logging' | 'completions', method: string): void {
  if (withCapability(state, cap).length === 0) throw new RelayedRpcError(METHOD_NOT_FOUND, `Method not found: ${method}`);
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

/** Every upstream's prompts, named for the client; also refreshes the routes. */
async function refreshPromptRoutes(state: SessionState, extra: ForwardExtra): Promise<unknown[]> {
  const lists = await Promise.all(withCapability(state, 'prompts').map(async (u) => [u, await listAll(u, 'prompts/list', 'prompts', extra)] as const));
  const { items, routes } = namespaceItems(lists as [UpstreamConnection, { name: string }[]][]);
  state.promptRoutes = routes;
  return items;
}

/** The upstream that serves `uri` (namespaced when there are several), and its own URI. */
function resourceOwner(state: SessionState, uri: string): { upstream: UpstreamConnection; uri: string } {
  if (state.upstreams.length === 1) return { upstream: state.upstreams[0] as UpstreamConnection, uri };
  const parsed = upstreamUri(uri);
  const upstream = parsed === null ? undefined : withCapability(state, 'resources').find((u) => u.config.name === parsed.upstream);
  if (parsed === null || upstream === undefined) throw new RelayedRpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  return { upstream, uri: parsed.uri };
}
