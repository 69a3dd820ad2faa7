/**
 * Multi-round-trip requests (MCP 2026-07-28, SEP-2322) bridged to upstreams that ask during the
 * call. A 2026-07-28 client is stateless: a server cannot send it an elicitation or sampling
 * request; it answers `input_required` with the requests embedded, and the client repeats the
 * call with `inputResponses` and the opaque `requestState`. An upstream of the 2025 generation
 * asks the other way, with a server→client request in the middle of its `tools/call` (and a
 * 2026 upstream's own `input_required` rounds reach the gateway the same way: the v2 client
 * fulfils them through its request handlers). So the gateway keeps the upstream call running,
 * *parks* it under a random request state while the client answers, and hands each answer to
 * the upstream request that waits for it; the call's result, when it comes, answers the round
 * in progress. Nothing here looks at a tool result: the call itself runs the executor's pipeline
 * in the gateway session behind the 2026 endpoint.
 *
 * The request state is a random 128-bit id, never decoded: an unknown, expired or foreign one
 * is refused, and it is bound to the principal, the method, the tool/prompt/resource named and
 * the arguments ({@link roundTarget}).
 */
import { randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import { canonicalJson } from '../contract/index.js';
import type { RequestId } from './related-requests.js';

/** How long a parked call waits for the client's next round before it is cancelled. */
export const PARKED_TTL_MS = 10 * 60 * 1000;
/** Calls parked at once (each holds an upstream request open); beyond it, upstreams are refused. */
export const MAX_PARKED = 256;
/** Invalid params, as JSON-RPC names it. */
const INVALID_PARAMS = -32602;
/** Invalid request, as JSON-RPC names it. */
const INVALID_REQUEST = -32600;
/** Method not found: what a 2025 client without the capability answers a server's request. */
const METHOD_NOT_FOUND = -32601;

/** Which client capability each embeddable input request needs. */
const NEEDS: Readonly<Record<string, string>> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/** One input request of an upstream, waiting for the client's answer. */
export interface Ask {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: unknown) => void;
}

type Settled = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly error: unknown };

interface Call {
  readonly state: string;
  readonly principal: string;
  readonly target: string;
  readonly abort: AbortController;
  settled: Settled | null;
  /** Asks the client has not seen yet, and those it saw but did not answer, by key. */
  readonly fresh: Ask[];
  readonly shown: Map<string, Ask>;
  nextKey: number;
  /** The round being served, if one is: notifications of the call go on its stream. */
  ctx: ServerContext | undefined;
  wake: (() => void) | null;
  timer: NodeJS.Timeout | undefined;
  parked: boolean;
}

/** What a request handler hands over to start the inner request: its id and its answer. */
export interface Started {
  readonly id: RequestId | undefined;
  readonly result: Promise<Record<string, unknown>>;
}

/** The multi-round-trip bridge of one 2026-07-28 endpoint. */
export interface InputRounds {
  /**
   * Serve one round of a multi-round-trip request (`tools/call`, `prompts/get`,
   * `resources/read`): a fresh call is started with `start`, a retry carrying a request state
   * resumes its parked call. Answers the call's result, or `input_required`.
   */
  serve(ctx: ServerContext, principal: string, target: string, start: (signal: AbortSignal) => Started): Promise<Record<string, unknown>>;
  /** An upstream asks (through the inner session) during the inner request `related`. */
  ask(related: RequestId | undefined, method: string, params: unknown, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Hand the asks made during inner request `id` to `sink` (a task's, answered by `tasks/update`) until the returned function is called. */
  claim(id: RequestId, sink: (ask: Ask) => void): () => void;
  /** The round in progress of the call behind inner request `related`, if any. */
  roundOf(related: RequestId | undefined): ServerContext | undefined;
  /** Parked calls right now. */
  readonly parked: number;
  /** Calls of `principal` not ended yet (running, or waiting for the client's next round). */
  heldFor(principal: string): number;
  /** Cancel every call (endpoint shutdown). */
  close(): void;
}

/**
 * A multi-round-trip bridge.
 * @example const rounds = inputRounds(); server.setRequestHandler('tools/call', (r, ctx) => rounds.serve(ctx, principal, r.params.name, start));
 */
export function inputRounds(options: { ttlMs?: number; now?: () => number } = {}): InputRounds {
  const ttl = options.ttlMs ?? PARKED_TTL_MS;
  const byState = new Map<string, Call>();
  const byInner = new Map<RequestId, Call>();
  const claims = new Map<RequestId, (ask: Ask) => void>();

  const end = (call: Call, reason: string): void => {
    if (call.timer !== undefined) clearTimeout(call.timer);
    byState.delete(call.state);
    for (const [id, c] of byInner) if (c === call) byInner.delete(id);
    const error = new ProtocolError(INVALID_REQUEST, reason);
    for (const a of [...call.fresh, ...call.shown.values()]) a.reject(error);
    call.fresh.length = 0;
    call.shown.clear();
    if (call.settled === null) call.abort.abort(new Error(reason));
  };

  const round = async (call: Call, ctx: ServerContext): Promise<Record<string, unknown>> => {
    call.ctx = ctx;
    call.parked = false;
    if (call.timer !== undefined) clearTimeout(call.timer);
    const onAbort = (): void => end(call, 'the client cancelled the request');
    ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        // A request the client cannot fulfil is refused at once: the upstream gets the error.
        const caps = clientCapabilities(ctx);
        for (const a of call.fresh.splice(0)) {
          const need = NEEDS[a.method];
          if (need === undefined || caps[need] === undefined) a.reject(new ProtocolError(METHOD_NOT_FOUND, `the client does not support ${a.method} (it declared no ${need ?? a.method} capability)`));
          else call.shown.set(`r${++call.nextKey}`, a);
        }
        if (call.settled !== null) {
          end(call, 'done');
          if (call.settled.ok) return call.settled.value;
          throw call.settled.error;
        }
        if (call.shown.size > 0) {
          call.parked = true;
          call.timer = setTimeout(() => end(call, 'the client did not answer the input requests in time'), ttl);
          call.timer.unref();
          const inputRequests = Object.fromEntries([...call.shown].map(([k, a]) => [k, { method: a.method, params: a.params }]));
          return { resultType: 'input_required', inputRequests, requestState: call.state };
        }
        if (ctx.mcpReq.signal.aborted) throw new ProtocolError(INVALID_REQUEST, 'the client cancelled the request');
        await new Promise<void>((resolve) => (call.wake = resolve));
        call.wake = null;
      }
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', onAbort);
      if (call.ctx === ctx) call.ctx = undefined;
    }
  };

  return {
    async serve(ctx, principal, target, start) {
      const stateText = ctx.mcpReq.requestState();
      if (stateText !== undefined) {
        const call = typeof stateText === 'string' ? byState.get(stateText) : undefined;
        // Unknown, expired, or another principal's or request's state: one answer for all.
        if (call === undefined || call.principal !== principal || call.target !== target || !call.parked) {
          throw new ProtocolError(INVALID_PARAMS, 'requestState is unknown or expired: repeat the request without it');
        }
        for (const [key, response] of Object.entries(ctx.mcpReq.inputResponses ?? {})) {
          const ask = call.shown.get(key);
          if (ask === undefined || typeof response !== 'object' || response === null) continue;
          call.shown.delete(key);
          ask.resolve(response as Record<string, unknown>);
        }
        return round(call, ctx);
      }
      const abort = new AbortController();
      const call: Call = { state: randomBytes(16).toString('base64url'), principal, target, abort, settled: null, fresh: [], shown: new Map(), nextKey: 0, ctx, wake: null, timer: undefined, parked: false };
      const started = start(abort.signal);
      byState.set(call.state, call);
      if (started.id !== undefined) byInner.set(started.id, call);
      void started.result.then(
        (value) => (call.settled = { ok: true, value }),
        (error: unknown) => (call.settled = { ok: false, error }),
      ).then(() => {
        if (started.id !== undefined) byInner.delete(started.id);
        call.wake?.();
        // Settled while parked: kept for the retry until the TTL ends it.
      });
      return round(call, ctx);
    },
    ask(related, method, params, signal) {
      const sink = related === undefined ? undefined : claims.get(related);
      if (sink !== undefined) {
        return new Promise((resolve, reject) => {
          sink({ method, params: (params ?? {}) as Record<string, unknown>, resolve, reject });
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      const call = related === undefined ? undefined : byInner.get(related);
      if (call === undefined) return Promise.reject(new ProtocolError(INVALID_REQUEST, `a 2026-07-28 client answers ${method} only during tools/call, prompts/get or resources/read`));
      if (byState.size > MAX_PARKED && call.shown.size === 0) return Promise.reject(new ProtocolError(INVALID_REQUEST, 'too many requests are waiting for client input'));
      return new Promise((resolve, reject) => {
        const ask: Ask = { method, params: (params ?? {}) as Record<string, unknown>, resolve, reject };
        call.fresh.push(ask);
        signal.addEventListener('abort', () => {
          call.fresh.splice(call.fresh.indexOf(ask) >>> 0, call.fresh.includes(ask) ? 1 : 0);
          for (const [k, a] of call.shown) if (a === ask) call.shown.delete(k);
          reject(signal.reason);
        }, { once: true });
        call.wake?.();
      });
    },
    claim(id, sink) {
      claims.set(id, sink);
      return () => claims.delete(id);
    },
    roundOf: (related) => (related === undefined ? undefined : byInner.get(related)?.ctx),
    get parked() {
      return [...byState.values()].filter((c) => c.parked).length;
    },
    heldFor: (principal) => [...byState.values()].filter((c) => c.principal === principal).length,
    close() {
      for (const call of [...byState.values()]) end(call, 'the gateway is shutting down');
    },
  };
}

/**
 * What a request state is bound to: the method, the tool, prompt or resource, and the arguments
 * (compared as canonical JSON, so a client may rebuild them in any key order). A retry with other
 * arguments must not resume a call the upstream is running with the first ones: its result would
 * answer a request that never ran.
 * @example roundTarget('tools/call', { name: 'pay', arguments: { to: 'alice' } }) // 'tools/call pay {"to":"alice"}'
 */
export function roundTarget(method: string, params: Record<string, unknown>): string {
  const args = params['arguments'] ?? {};
  let written: string;
  try {
    written = canonicalJson(args);
  } catch {
    // A value canonical JSON refuses (a number JSON.parse made Infinity): compared as written.
    written = JSON.stringify(args) ?? '';
  }
  return `${method} ${String(params['name'] ?? params['uri'])} ${written}`;
}

function clientCapabilities(ctx: ServerContext): Record<string, unknown> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return typeof caps === 'object' && caps !== null ? (caps as Record<string, unknown>) : {};
}
