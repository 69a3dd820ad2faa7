/**
 * Anthropic wire format (SPEC I3): a `tool_result` block per call id with `is_error`, and the
 * envelope's evidence as `search_result` blocks with citations enabled, so the model's
 * citations point back at evidence ids (E3). A non-citable result (E7) gets no search results.
 */
import type { SearchResultBlockParam, TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { resolvePointer, type Envelope, type Evidence } from '../../contract/index.js';
import { assertRenderable, isErrorStatus, renderBatch, renderModelText } from '../shared/index.js';
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
 * evidence id; each text block is the quote or one supported value. Empty when the envelope
 * is marked non-citable.
 * @example toSearchResultBlocks(env)[0].source // 'trc:evidence/call_1/ev_status'
 */
export function toSearchResultBlocks(env: Envelope): SearchResultBlockParam[] {
  assertRenderable(env);
  if (env.citable === false || isErrorStatus(env)) return [];
  const blocks: SearchResultBlockParam[] = [];
  for (const ev of env.evidence ?? []) {
    const texts = evidenceTexts(env, ev);
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

function evidenceTexts(env: Envelope, ev: Evidence): string[] {
  const texts: string[] = [];
  if (ev.quote !== undefined && ev.quote !== '') texts.push(ev.quote);
  for (const pointer of ev.supports) {
    const r = resolvePointer(env, pointer);
    if (!r.ok) continue;
    const value = JSON.stringify(r.value) ?? 'null';
    texts.push(`${pointer} = ${value.length > MAX_VALUE_CHARS ? value.slice(0, MAX_VALUE_CHARS) + '…' : value}`);
  }
  return texts;
}

function sourceName(ev: Evidence): string {
  const s = ev.source;
  if (s === undefined) return '';
  if (typeof s === 'string') return ` (${s})`;
  return ` (${s.name ?? s.uri ?? s.type})`;
}
