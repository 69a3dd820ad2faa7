/**
 * Anthropic wire format (SPEC I3): a `tool_result` block per call id with `is_error`, and the
 * envelope's evidence as `search_result` blocks with citations enabled, so the model's
 * citations point back at evidence ids (E3). A non-citable result (E7) gets no search results.
 * Search results show only what the model view shows (T1, T6, T7): they are read from it, not
 * from the envelope, so no `user`-only field, secret or external text gets around the boundary.
 */
import type { SearchResultBlockParam, TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { resolvePointer, type Envelope, type Evidence, type Json } from '../../contract/index.js';
import { assertRenderable, isErrorStatus, modelView, renderBatch, renderModelText } from '../shared/index.js';
import { evidenceSource } from './evidence-source.js';

const MAX_VALUE_CHARS = 2000;

/**
 * The `tool_result` block answering `env.call.call_id`.
 * @example userMessage.content.push(toToolResultBlock(env)); // { type: 'tool_result', tool_use_id, is_error, content }
 */
export function toToolResultBlock(env: Envelope): ToolResultBlockParam {
  assertRenderable(env);
  const content: Array<TextBlockParam | SearchResultBlockParam> = [{ type: 'text', text: renderModelText(env) }];
  content.push(...toSearchResultBlocks(env));
  return { type: 'tool_result', tool_use_id: env.call.call_id, content, is_error: isErrorStatus(env) };
}

/**
 * One `tool_result` block per requested tool_use id, in request order (P1). Throws
 * `TrcError('BATCH_MISMATCH')` when the envelopes do not answer exactly the requested ids.
 * @example toToolResultBlocks(toolUses.map((u) => u.id), envelopes)
 */
export function toToolResultBlocks(callIds: readonly string[], envelopes: readonly Envelope[]): ToolResultBlockParam[] {
  return renderBatch(callIds, envelopes, toToolResultBlock);
}

/**
 * The envelope's evidence as citable `search_result` blocks: source and title name the
 * evidence id; each text block is the quote or one supported value as the model view shows it.
 * A value inside external content is not repeated here (its text reaches the model only
 * between the view's boundary markers), nor is a field the model may not see. Empty when the
 * envelope is marked non-citable.
 * @example toSearchResultBlocks(env)[0].source // 'trc:evidence/call_1/ev_status'
 */
export function toSearchResultBlocks(env: Envelope): SearchResultBlockParam[] {
  assertRenderable(env);
  if (env.citable === false || isErrorStatus(env)) return [];
  const view = modelView(env);
  // The view lists each piece of evidence the model may see, its pointers cut back to the
  // external content they point into and stripped of fields it may not see.
  const shown = new Map(((view['evidence'] ?? []) as { id: string; supports: string[] }[]).map((e) => [e.id, e.supports]));
  const blocks: SearchResultBlockParam[] = [];
  for (const ev of env.evidence ?? []) {
    const supports = shown.get(ev.evidence_id);
    if (supports === undefined) continue;
    const texts = evidenceTexts(view, ev, supports);
    if (texts.length === 0) continue;
    blocks.push({
      type: 'search_result',
      source: evidenceSource(env.call.call_id, ev.evidence_id),
      title: `${ev.evidence_id}${sourceName(ev)}`,
      content: texts.map((text) => ({ type: 'text', text })),
      citations: { enabled: true },
    });
  }
  return blocks;
}

/** A value that is only the reference to an isolated region: nothing the model may cite. */
const isRegionReference = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && Object.hasOwn(v, '$untrusted');

function evidenceTexts(view: Record<string, Json>, ev: Evidence, supports: readonly string[]): string[] {
  const values: string[] = [];
  for (const pointer of supports) {
    const r = resolvePointer(view, pointer);
    if (!r.ok || isRegionReference(r.value)) continue;
    const value = JSON.stringify(r.value) ?? 'null';
    values.push(`${pointer} = ${value.length > MAX_VALUE_CHARS ? value.slice(0, MAX_VALUE_CHARS) + '…' : value}`);
  }
  // The quote speaks about the fields the evidence supports: it is shown only when the model
  // sees every one of them as facts (none left out, none inside external content).
  const whole = supports.length === ev.supports.length && supports.every((p, i) => p === ev.supports[i]) && values.length === supports.length;
  return whole && ev.quote !== undefined && ev.quote !== '' ? [ev.quote, ...values] : values;
}

function sourceName(ev: Evidence): string {
  const s = ev.source;
  if (s === undefined) return '';
  if (typeof s === 'string') return ` (${s})`;
  return ` (${s.name ?? s.uri ?? s.type})`;
}
