/**
 * Looking up a gateway write whose answer was lost (SPEC W2, W3): call the configured lookup
 * tool on the (restarted) upstream with the idempotency key and read its answer as a
 * `ReconcileLookup`; the executor's write path decides what follows. Never a blind retry.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ReconcileLookup } from '../executor/index.js';
import type { UpstreamConnection } from './upstream.js';

/** `"$key"` anywhere as a value in the configured args is replaced by the idempotency key. */
export function substituteKey(args: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = v === '$key' ? key : v;
  return out;
}

/**
 * Ask the upstream's reconciliation tool what happened under `key`. A lookup that errors, hangs
 * past the tool's deadline or answers in an unknown shape is `unknown`: it proves nothing.
 * @example const lookup = await lookupOnUpstream(up, { tool: 'find_charge', args: { idempotency_key: '$key' } }, key, 5000, signal);
 */
export async function lookupOnUpstream(up: UpstreamConnection, reconcile: { readonly tool: string; readonly args?: Readonly<Record<string, unknown>> | undefined }, key: string, timeoutMs: number, signal?: AbortSignal): Promise<ReconcileLookup> {
  try {
    const result = await up.client.request(
      { method: 'tools/call', params: { name: reconcile.tool, arguments: substituteKey(reconcile.args ?? { idempotency_key: '$key' }, key) } },
      CallToolResultSchema,
      { timeout: timeoutMs, maxTotalTimeout: timeoutMs, ...(signal === undefined ? {} : { signal }) },
    );
    return readLookup(result);
  } catch (cause) {
    return { state: 'unknown', reason: `the lookup ${reconcile.tool} failed: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
}

/**
 * Read a lookup tool's result. Its structured content (or the JSON of its single text block) is
 * an object with `found: true|false` (or `state: "found"|"absent"|"unknown"`) and, when found,
 * the downstream id as `external_id` or `id` and optionally `committed_at`.
 * @example readLookup({ content: [], structuredContent: { found: true, external_id: 'ch_1' } }) // { state: 'found', external_id: 'ch_1' }
 */
export function readLookup(result: { isError?: boolean | undefined; structuredContent?: unknown; content?: unknown }): ReconcileLookup {
  if (result.isError === true) return { state: 'unknown', reason: `the lookup tool reported an error: ${firstText(result.content)?.slice(0, 200) ?? '(no text)'}` };
  const body = isRecord(result.structuredContent) ? result.structuredContent : parseJson(firstText(result.content));
  if (!isRecord(body)) return { state: 'unknown', reason: 'the lookup answer has no object with "found"' };
  const state = body['state'] ?? (body['found'] === true ? 'found' : body['found'] === false ? 'absent' : undefined);
  if (state === 'absent') return { state: 'absent' };
  if (state !== 'found') return { state: 'unknown', reason: typeof body['reason'] === 'string' ? body['reason'] : 'the lookup could not tell' };
  const id = body['external_id'] ?? body['id'];
  if ((typeof id !== 'string' || id === '') && typeof id !== 'number') return { state: 'unknown', reason: 'the lookup said "found" without an external id' };
  const committed = body['committed_at'];
  return { state: 'found', external_id: String(id), ...(typeof committed === 'string' ? { committed_at: committed } : {}) };
}

function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const block = content.find((b): b is { type: 'text'; text: string } => isRecord(b) && b['type'] === 'text' && typeof b['text'] === 'string');
  return block?.text;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
