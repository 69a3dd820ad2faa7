/**
 * The fetch the gateway's HTTP upstream transports use.
 *
 * The SDK's Streamable HTTP transports (v1 and v2) pass every request the transport's one
 * long-lived AbortSignal. Node's fetch (undici) adds an abort listener to that signal per request
 * and removes it only once the request has been garbage-collected, so a busy upstream piles up
 * thousands of listeners between two collections, and every one past 1,500 prints a
 * "MaxListenersExceededWarning: Possible EventTarget memory leak" on the gateway's stderr
 * (measured: ~370 warnings in 4,000 calls to one upstream). Here each request gets a signal of
 * its own; the long-lived signal has one listener, which aborts every request still alive.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Dead entries are dropped every this many requests of one transport signal. */
const PRUNE_EVERY = 256;
// The request's signal keeps its controller alive: fetch holds the signal as long as the
// request lives, and the transport's listener only holds the controller weakly.
const CONTROLLER = Symbol('controller');

interface Requests {
  readonly alive: Set<WeakRef<AbortController>>;
  made: number;
}

/**
 * A fetch that gives each request a signal of its own, aborted with the caller's signal, so the
 * caller's long-lived signal carries one listener however many requests it has seen.
 * @example new StreamableHTTPClientTransport(url, { fetch: ownSignalFetch() })
 */
export function ownSignalFetch(base: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  const bySignal = new WeakMap<AbortSignal, Requests>();
  return (url, init) => {
    const outer = init?.signal ?? undefined;
    if (outer === undefined || outer === null || outer.aborted) return base(url, init);
    let requests = bySignal.get(outer);
    if (requests === undefined) {
      const created: Requests = { alive: new Set(), made: 0 };
      requests = created;
      bySignal.set(outer, created);
      outer.addEventListener('abort', () => {
        for (const ref of created.alive) ref.deref()?.abort(outer.reason);
        created.alive.clear();
      }, { once: true });
    }
    const inner = new AbortController();
    Object.defineProperty(inner.signal, CONTROLLER, { value: inner });
    requests.alive.add(new WeakRef(inner));
    if (++requests.made % PRUNE_EVERY === 0) for (const ref of requests.alive) if (ref.deref() === undefined) requests.alive.delete(ref);
    return base(url, { ...init, signal: inner.signal });
  };
}
