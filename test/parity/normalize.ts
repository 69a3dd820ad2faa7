/**
 * What may differ between the envelopes of one behaviour on different edges, and nothing else:
 * - ids: the call id, handle and cursor ids (random), the boundary token of a model text;
 * - timestamps (`retrieved_at`, `expires_at`, …): any RFC 3339 date-time;
 * - transport provenance — which edge the result came through, and its wire: the source id
 *   (`provenance.source_id`, `untrusted_content[].source.id`, evidence `source`), where in the wire
 *   answer the facts sat (`evidence[].locator.response_path`, `upstream_response_path` once fitted), the MCP wire's own summaries and
 *   hints (`extensions.mcp`, `tool_hints`), and the stored raw copy of the wire answer
 *   (`resources[].bytes`, `sha256`, `mime_type`: an MCP text, an in-process tool's envelope).
 */
import type { Envelope } from '../../src/contract/index.js';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const HANDLE = /(?<=trc:\/\/resource\/)[\w-]{22}/g;
const TOKEN = /(?<=EXTERNAL_CONTENT )[0-9a-f]{32}/g;

/** Replace every occurrence of the given ids (and handle ids, boundary tokens) in a string. */
function scrubIds(s: string, ids: readonly [string, string][]): string {
  let out = s;
  for (const [id, as] of ids) if (id !== '') out = out.split(id).join(as);
  return out.replace(HANDLE, '<handle>').replace(TOKEN, '<token>');
}

function walk(v: unknown, ids: readonly [string, string][]): unknown {
  if (typeof v === 'string') return DATE_TIME.test(v) ? '<time>' : scrubIds(v, ids);
  if (Array.isArray(v)) return v.map((x) => walk(x, ids));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, ids)]));
  return v;
}

/**
 * The envelope with exactly the edge-specific parts replaced by placeholders.
 * @example expect(normalizeEnvelope(gateway)).toEqual(normalizeEnvelope(inProcess))
 */
export function normalizeEnvelope(env: Envelope): unknown {
  const e = structuredClone(env) as Envelope & Record<string, unknown>;
  const ids: [string, string][] = [[e.call.call_id, '<call_id>']];
  const cursor = e.completeness?.next?.value;
  if (cursor !== undefined) ids.push([cursor, '<cursor>']);
  e.call = { ...e.call, call_id: '<call_id>' };
  if (e.provenance !== undefined) e.provenance = { ...e.provenance, source_id: '<source>' };
  for (const u of e.untrusted_content ?? []) if (typeof u.source === 'object') u.source = { ...u.source, id: '<source>' };
  for (const ev of e.evidence ?? []) {
    if (ev.source !== undefined) ev.source = '<source>';
    if (ev.locator?.response_path !== undefined) ev.locator = { ...ev.locator, response_path: '<wire path>' };
    // Fitting moves the wire path aside when the evidence now points into the stored copy.
    const locator = ev.locator as Record<string, unknown> | undefined;
    if (locator?.['upstream_response_path'] !== undefined) locator['upstream_response_path'] = '<wire path>';
  }
  delete e.tool_hints;
  if (e.extensions !== undefined) {
    const { mcp: _mcp, ...rest } = e.extensions;
    if (Object.keys(rest).length === 0) delete e.extensions;
    else e.extensions = rest;
  }
  if (e.resources !== undefined) e.resources = e.resources.map((r) => ({ ...r, bytes: -1, sha256: '<raw copy>', mime_type: '<raw copy>' }));
  return walk(e, ids);
}
