/**
 * Normalize an MCP `CallToolResult` (already shape-checked by the invoker with the SDK's schema)
 * into an envelope, or the failure it reports. Wrapping only: the output-schema check, the E7
 * comparison, isolation and detection are the pipeline's stages.
 */
import { CONTRACT_VERSION, digest, escapePointerToken, failed, type CallInput, type Envelope, type ErrorInfo, type Evidence, type SideEffect, type Warning } from '../contract/index.js';
import { toolHints } from '../trust/index.js';
import type { McpListing } from './invoker.js';
import { normalizeContent, type McpBlock, type NormalizedContent } from './mcp-content.js';
import { checkEmbeddedEnvelope } from './mcp-embedded.js';
import { classifyToolError, errorPayload } from './mcp-tool-error.js';
import type { ToolRules } from './rules.js';
import { externalIdOf } from './external-id.js';

/** `_meta` key under which a contract-aware server puts its whole envelope. */
export const ENVELOPE_META_KEY = 'dev.tool-result-contract/envelope';

/** External material the trust stage must isolate (what only normalization can tell). */
export interface ExternalMarks {
  /** External strings that may be quoted inside `error.message`. */
  readonly errorText: string[];
  /** Warnings (by identity) built from external material. */
  readonly warnings: Set<object>;
}

/** What normalizing an MCP result gave. */
export type McpNormalized =
  | { readonly kind: 'ok'; readonly envelope: Envelope; readonly notes: readonly string[] }
  | { readonly kind: 'tool_error'; readonly error: ErrorInfo; readonly extensions: Record<string, unknown>; readonly evidence: Evidence[] }
  | { readonly kind: 'contract_error'; readonly error: ErrorInfo };

/** Input of {@link normalizeMcp}. */
export interface McpInput {
  readonly rules: ToolRules;
  readonly call: CallInput;
  readonly result: { readonly content?: readonly McpBlock[]; readonly structuredContent?: Record<string, unknown>; readonly isError?: boolean; readonly _meta?: Record<string, unknown> };
  readonly listing?: McpListing | undefined;
  readonly server: { readonly name: string; readonly trusted: boolean };
  readonly retrievedAt: string;
  readonly idempotencyKey: string | null;
  readonly noise?: number | undefined;
  readonly external: ExternalMarks;
}

/**
 * Where in the data `text` is a plain copy of a structured value: `/data` when it is a JSON
 * serialization of the whole structured content (key order and spacing aside), the pointer of a
 * string value it equals (a server that returns a file as `{ content }` and as text), or
 * undefined. Such a text says nothing the data does not, so it is kept once, as the data.
 */
function copyPointer(text: string, structured: Record<string, unknown>): string | undefined {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      if (sameJsonValue(JSON.parse(t), structured)) return '/data';
    } catch {
      // Not JSON: maybe a copy of one string value.
    }
  }
  if (text === '') return undefined;
  let budget = 10_000;
  const find = (v: unknown, at: string): string | undefined => {
    if (--budget < 0) return undefined;
    if (typeof v === 'string') return v === text ? at : undefined;
    if (v === null || typeof v !== 'object') return undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const hit = find(v[i], `${at}/${i}`);
        if (hit !== undefined) return hit;
      }
      return undefined;
    }
    for (const [k, x] of Object.entries(v)) {
      const hit = find(x, `${at}/${escapePointerToken(k)}`);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  return find(structured, '/data');
}

function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJsonValue(v, bb[i]));
  }
  const ka = Object.keys(a);
  const rb = b as Record<string, unknown>;
  if (ka.length !== Object.keys(rb).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && sameJsonValue((a as Record<string, unknown>)[k], rb[k]));
}

/** Evidence for the result itself: one support per top-level field (as for a framework value). */
function resultEvidence(data: unknown, structured: boolean, rules: ToolRules): Evidence {
  const keys = data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
  return {
    evidence_id: 'tool_output',
    kind: 'tool_output',
    source: { type: rules.source.type, id: rules.source.id },
    locator: { response_path: structured ? '/structuredContent' : '/content' },
    // Retrieved when the provenance says: the evidence does not repeat it.
    supports: keys.length === 0 ? ['/data'] : keys.map((k) => `/data/${escapePointerToken(k)}`),
  };
}

/**
 * Wrap one MCP result.
 * @example normalizeMcp({ rules, call, result, server: { name: 'fs', trusted: false }, retrievedAt, idempotencyKey: null, external })
 */
export function normalizeMcp(input: McpInput): McpNormalized {
  const { rules, result } = input;
  const isError = result.isError === true;
  const structured = result.structuredContent;
  const schema = input.listing?.outputSchema;
  const asData = !isError && structured === undefined;
  const content = normalizeContent(result.content ?? [], {
    server: input.server.name,
    tool: rules.name,
    base: asData ? '/data/content' : '/extensions/mcp/content',
    asData,
    untrustedSource: rules.sourceUntrusted,
    source: rules.source,
    ...(structured === undefined || isError ? {} : { serializes: (text: string) => copyPointer(text, structured) }),
  });
  const texts = content.texts.map((t) => t.text);
  const embedded = result._meta?.[ENVELOPE_META_KEY];
  if (isError) {
    const payload = errorPayload(structured, texts);
    const error = classifyToolError(payload, texts, input.server.trusted);
    if (embedded !== undefined) {
      // A trusted contract-aware server's own failure (or unknown outcome) is taken as it stated it.
      const checked = checkEmbeddedEnvelope(failed({ call: input.call, error }), embedded, { isError, structured, trusted: input.server.trusted });
      if (checked.adopted) return { kind: 'ok', envelope: checked.envelope, notes: [checked.note] };
    }
    if (rules.sourceUntrusted) {
      input.external.errorText.push(...texts);
      const said = payload?.['message'] ?? (payload?.['error'] as Record<string, unknown> | undefined)?.['message'];
      if (typeof said === 'string') input.external.errorText.push(said);
    }
    return { kind: 'tool_error', error, extensions: mcpExtension(content, false), evidence: content.evidence };
  }
  if (structured === undefined && schema !== undefined) {
    return { kind: 'contract_error', error: { category: 'contract', code: 'MCP_STRUCTURED_CONTENT_MISSING', message: 'the tool declares an output schema but returned no structuredContent', retryable: false, action: 'explain_to_user', kind: 'execution' } };
  }
  const now = input.retrievedAt;
  const data: unknown = structured ?? { content: content.blocks };
  const evidence: Evidence[] = [...content.evidence];
  evidence.unshift(resultEvidence(data, structured !== undefined, rules));
  const warnings: Warning[] = [];
  if ((input.noise ?? 0) > 0) warnings.push({ code: 'UPSTREAM_PROTOCOL_NOISE', message: `the upstream wrote ${input.noise} line(s) that were not MCP messages; they were ignored` });
  let side_effect: SideEffect;
  if (rules.effect === 'read') side_effect = { occurred: false, operation: 'read' };
  else if (rules.effectSource === 'default') {
    side_effect = { occurred: false, possibly_occurred: true, operation: rules.operation };
    warnings.push({ code: 'EFFECT_UNDECLARED', message: `the effect of ${rules.name} is not configured (annotations of an untrusted server are only hints); it is handled as a possible write` });
  } else {
    side_effect = { occurred: true, operation: rules.operation, external_id: externalIdOf(structured) ?? `idempotency:${input.idempotencyKey ?? input.call.call_id}`, idempotency_key: input.idempotencyKey, committed_at: null };
  }
  let env: Envelope = {
    contract_version: CONTRACT_VERSION,
    call: { ...input.call, attempt: input.call.attempt ?? 1 },
    status: 'succeeded',
    data,
    completeness: { state: 'unknown', reason: 'not_reported_by_tool' },
    provenance: { source_type: rules.source.type, source_id: rules.source.id, retrieved_at: now, observed_at: null },
    evidence,
    untrusted_content: content.untrusted,
    side_effect,
    warnings,
    extensions: mcpExtension(content, asData),
    result_digest: digest(data),
  };
  const annotations = input.listing?.annotations;
  if (annotations !== undefined) env = { ...env, tool_hints: toolHints(input.server.name, input.server.trusted, annotations) };
  const notes: string[] = [];
  if (embedded !== undefined) {
    const checked = checkEmbeddedEnvelope(env, embedded, { isError, structured, trusted: input.server.trusted });
    env = checked.envelope;
    notes.push(checked.note);
  }
  return { kind: 'ok', envelope: env, notes };
}

/**
 * Where the renderer finds the upstream's blocks: in the data (`content_at`) or here
 * (`content`), with the binary payloads (`parts`) that never enter the data.
 */
function mcpExtension(content: NormalizedContent, asData: boolean): Record<string, unknown> {
  return { mcp: { ...(asData ? { content_at: '/data/content' } : { content: content.blocks }), ...(content.parts.length === 0 ? {} : { parts: content.parts }) } };
}

/** The MCP wire facts the evidence stage compares (E7): text blocks next to structured content. */
export function mcpTexts(result: McpInput['result']): { texts: { index: number; text: string }[]; structured: Record<string, unknown> | undefined } {
  const texts: { index: number; text: string }[] = [];
  (result.content ?? []).forEach((b, index) => {
    if (b.type === 'text' && typeof b['text'] === 'string') texts.push({ index, text: b['text'] });
  });
  return { texts, structured: result.structuredContent };
}

export type { ErrorInfo };
