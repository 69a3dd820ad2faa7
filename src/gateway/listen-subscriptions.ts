/**
 * Upstream resource subscriptions held for 2026-07-28 listen streams: a URI is subscribed
 * upstream when the first open stream names it and unsubscribed when the last one naming it
 * ends (closed by the client, cut off, or ended by the gateway), so an upstream is never left
 * sending updates nobody listens to.
 */

import type { McpHttpHandler } from '@modelcontextprotocol/server';

/** The subscriptions of one set of upstreams (one inner session). */
export interface ListenSubscriptions {
  /** Hold `uris` for one stream: subscribes the ones no other stream holds. Returns the release (idempotent). */
  acquire(uris: readonly string[]): Promise<() => void>;
  /** URIs held now, with how many streams hold each (for tests and diagnosis). */
  held(): ReadonlyMap<string, number>;
}

/**
 * Reference-counted subscriptions over `subscribe` / `unsubscribe` (the upstream requests).
 * A URI the upstream refused to subscribe is not held. Unsubscribe failures are ignored: the
 * stream that needed it is gone either way.
 * @example const subs = listenSubscriptions((u) => up.subscribe(u), (u) => up.unsubscribe(u)); const release = await subs.acquire(['note://a']);
 */
export function listenSubscriptions(subscribe: (uri: string) => Promise<boolean>, unsubscribe: (uri: string) => Promise<void>): ListenSubscriptions {
  const counts = new Map<string, number>();
  const drop = (uri: string): void => {
    const n = (counts.get(uri) ?? 0) - 1;
    if (n > 0) {
      counts.set(uri, n);
      return;
    }
    counts.delete(uri);
    void unsubscribe(uri).catch(() => undefined);
  };
  return {
    async acquire(uris) {
      const mine: string[] = [];
      for (const uri of new Set(uris)) {
        const n = counts.get(uri) ?? 0;
        counts.set(uri, n + 1);
        if (n === 0 && !(await subscribe(uri).catch(() => false))) {
          // Refused: drop this stream's claim without an unsubscribe (there is nothing to undo).
          const left = (counts.get(uri) ?? 1) - 1;
          if (left > 0) counts.set(uri, left);
          else counts.delete(uri);
          continue;
        }
        mine.push(uri);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const uri of mine) drop(uri);
      };
    },
    held: () => counts,
  };
}

/**
 * `response` with its body watched: `done` runs once when the body ends, fails, or is
 * cancelled by its reader (a client that went away). A response without a body is done at once.
 */
export function whenBodyEnds(response: Response, done: () => void): Response {
  if (response.body === null) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    done();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: end } = await reader.read();
        if (end) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * The resource URIs a `subscriptions/listen` request asks to follow (at most 256).
 * @example listenedUris({ method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['note://a'] } } }) // ['note://a']
 */
export function listenedUris(body: unknown): string[] {
  const b = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (b?.method !== 'subscriptions/listen') return [];
  const uris = b.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string').slice(0, 256) : [];
}

/**
 * Publish a change notification to the listen streams of `handler`; false when `method` is not one.
 * @example publish(handler, 'notifications/tools/list_changed', {})
 */
export function publish(handler: McpHttpHandler, method: string, params: Record<string, unknown>): boolean {
  if (method === 'notifications/tools/list_changed') handler.notify.toolsChanged();
  else if (method === 'notifications/prompts/list_changed') handler.notify.promptsChanged();
  else if (method === 'notifications/resources/list_changed') handler.notify.resourcesChanged();
  else if (method === 'notifications/resources/updated' && typeof params['uri'] === 'string') handler.notify.resourceUpdated(params['uri']);
  else return false;
  return true;
}
