/**
 * The shape check of one JSON-RPC message read from a stdio line: what the SDK's
 * `JSONRPCMessageSchema.parse` accepts and returns, without Zod. Every message through the
 * gateway is read twice — by the framer, then by the SDK's `Protocol`, which checks each message
 * against its schemas again before dispatching it — and the framer's Zod parse was the larger
 * half of that (about 12 µs of a stdio call's CPU). The SDK's second check stays: this one only
 * has to keep malformed lines out, answer exactly as the schema does, and cost next to nothing.
 * A property test holds it to the SDK's schema (test/gateway/jsonrpc-shape.test.ts).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A JSON object (not an array, not null). */
type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): boolean => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

// The members each kind may have (the schemas are strict at the top level).
const REQUEST = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION = new Set(['jsonrpc', 'method', 'params']);
const RESULT = new Set(['jsonrpc', 'id', 'result']);
const ERROR = new Set(['jsonrpc', 'id', 'error']);
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** `o` without an own `__proto__` member, which the schema's loose objects drop (a copy only then). */
function loose(o: JsonObject): JsonObject {
  if (!Object.hasOwn(o, '__proto__')) return o;
  const copy: JsonObject = {};
  for (const k of Object.keys(o)) if (k !== '__proto__') Object.defineProperty(copy, k, { value: o[k], enumerable: true, writable: true, configurable: true });
  return copy;
}

function onlyKeys(o: JsonObject, allowed: ReadonlySet<string>): boolean {
  for (const k of Object.keys(o)) if (!allowed.has(k)) return false;
  return true;
}

/**
 * `_meta` of params or of a result as the schema returns it: its own keys kept, a progress token
 * a string or an integer, a related task `{ taskId }` (other members of that object dropped).
 * Null when the schema refuses it.
 */
function checkedMeta(meta: unknown): JsonObject | null {
  if (!isObject(meta)) return null;
  const token = meta['progressToken'];
  if (token !== undefined && !isId(token)) return null;
  const related = meta[RELATED_TASK];
  if (related === undefined) return loose(meta);
  if (!isObject(related) || typeof related['taskId'] !== 'string') return null;
  const kept = loose(meta);
  return Object.keys(related).length === 1 ? kept : { ...kept, [RELATED_TASK]: { taskId: related['taskId'] } };
}

/** `o` (params or a result: an object, members kept) with its `_meta` checked; null when refused. */
function withCheckedMeta(o: unknown): JsonObject | null {
  if (!isObject(o)) return null;
  const kept = loose(o);
  if (!Object.hasOwn(kept, '_meta')) return kept;
  const meta = checkedMeta(kept['_meta']);
  if (meta === null) return null;
  return meta === kept['_meta'] ? kept : { ...kept, _meta: meta };
}

/** A request or a notification (`withId`), or null. */
function callMessage(m: JsonObject, withId: boolean): JsonObject | null {
  if (!onlyKeys(m, withId ? REQUEST : NOTIFICATION) || typeof m['method'] !== 'string') return null;
  if (!Object.hasOwn(m, 'params')) return m;
  const params = withCheckedMeta(m['params']);
  if (params === null) return null;
  return params === m['params'] ? m : { ...m, params };
}

/**
 * The message `value` (a parsed JSON line) is, as the SDK's `JSONRPCMessageSchema.parse` would
 * return it, or null where that schema throws. `value` is returned itself when nothing is
 * dropped from it; otherwise the objects on the way to what is dropped are copies.
 * @example asJsonRpcMessage(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping"}')) // the same object
 */
export function asJsonRpcMessage(value: unknown): JSONRPCMessage | null {
  if (!isObject(value) || value['jsonrpc'] !== '2.0') return null;
  const hasId = Object.hasOwn(value, 'id');
  if (hasId && !isId(value['id'])) return null;
  let out: JsonObject | null;
  if (Object.hasOwn(value, 'method')) out = callMessage(value, hasId);
  else if (Object.hasOwn(value, 'result')) {
    if (!hasId || !onlyKeys(value, RESULT)) return null;
    const result = withCheckedMeta(value['result']);
    out = result === null ? null : result === value['result'] ? value : { ...value, result };
  } else if (Object.hasOwn(value, 'error')) {
    const error = value['error'];
    if (!onlyKeys(value, ERROR) || !isObject(error)) return null;
    const code = error['code'];
    if (typeof code !== 'number' || !Number.isSafeInteger(code) || typeof error['message'] !== 'string') return null;
    // The schema's error object keeps code, message and data only.
    const kept = Object.keys(error).every((k) => k === 'code' || k === 'message' || k === 'data');
    out = kept ? value : { ...value, error: { code, message: error['message'], ...(Object.hasOwn(error, 'data') ? { data: error['data'] } : {}) } };
  } else out = null;
  return out as JSONRPCMessage | null;
}
