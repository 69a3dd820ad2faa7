/**
 * Which client request an upstream's server→client message belongs to. Over Streamable HTTP a
 * sampling or elicitation request, or a log message, sent during a tool call must travel on
 * that call's own response stream: a client that opens no standalone GET stream would never
 * see it otherwise, and the call would hang. The upstream's wire (stdio, or its own HTTP
 * session) does not say which of our requests caused it, so the answer is a request of this
 * client still in flight on that upstream — the oldest one, whose stream is surely open.
 */

/** A JSON-RPC request id as the SDK types it. */
export type RequestId = string | number;

const inflight = new WeakMap<object, RequestId[]>();

/**
 * Record that client request `id` is being served by the upstream `key` (its SDK client)
 * until the returned function is called.
 * @example const done = beginRelated(up.client, extra.requestId); try { … } finally { done(); }
 */
export function beginRelated(key: object, id: RequestId | undefined): () => void {
  if (id === undefined) return () => undefined;
  let ids = inflight.get(key);
  if (ids === undefined) inflight.set(key, (ids = []));
  ids.push(id);
  return () => {
    const list = inflight.get(key);
    const at = list?.indexOf(id) ?? -1;
    if (list !== undefined && at !== -1) list.splice(at, 1);
  };
}

/**
 * The client request a message from upstream `key` should travel with, or undefined (then it
 * goes on the standalone stream).
 * @example server.request(req, schema, { relatedRequestId: relatedRequestOf(up.client) })
 */
export function relatedRequestOf(key: object | undefined): RequestId | undefined {
  return key === undefined ? undefined : inflight.get(key)?.[0];
}

/** Notifications that belong to the call that caused them (others, such as list changes, do not). */
export const CALL_SCOPED_NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/message', 'notifications/progress']);
