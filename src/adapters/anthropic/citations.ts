/**
 * Anthropic citations in a model response → evidence ids (E3). Only `search_result_location`
 * citations of search results rendered by `toSearchResultBlocks` map back; every other
 * citation is reported as unmapped rather than dropped.
 */
import type { ContentBlock, TextCitation } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Envelope } from '../../contract/index.js';
import { parseEvidenceSource } from './evidence-source.js';

/** One citation, mapped to the evidence it names (or why it could not be). */
export type CitedEvidence =
  | { readonly mapped: true; readonly call_id: string; readonly evidence_id: string; readonly known: boolean; readonly cited_text: string }
  | { readonly mapped: false; readonly reason: 'not-a-search-result' | 'foreign-source'; readonly cited_text: string };

/**
 * Map citation objects to evidence ids. With `envelopes`, `known` says whether the evidence id
 * exists in the envelope of that call (a citation of an id that does not exist is a finding).
 * @example citationsToEvidence(block.citations ?? [], envelopes)
 */
export function citationsToEvidence(citations: readonly TextCitation[], envelopes: readonly Envelope[] = []): CitedEvidence[] {
  const ids = new Map<string, Set<string>>();
  for (const env of envelopes) ids.set(env.call.call_id, new Set((env.evidence ?? []).map((e) => e.evidence_id)));
  return citations.map((c): CitedEvidence => {
    if (c.type !== 'search_result_location') return { mapped: false, reason: 'not-a-search-result', cited_text: c.cited_text };
    const ref = parseEvidenceSource(c.source);
    if (ref === undefined) return { mapped: false, reason: 'foreign-source', cited_text: c.cited_text };
    return { mapped: true, ...ref, known: ids.get(ref.call_id)?.has(ref.evidence_id) ?? false, cited_text: c.cited_text };
  });
}

/** A text block of the answer with the evidence its citations name. */
export interface CitedText {
  readonly text: string;
  readonly evidence: CitedEvidence[];
}

/**
 * Walk a response's content and map each text block's citations to evidence ids.
 * @example responseCitations(message.content, envelopes).filter((t) => t.evidence.length === 0) // uncited claims
 */
export function responseCitations(content: readonly ContentBlock[], envelopes: readonly Envelope[] = []): CitedText[] {
  const out: CitedText[] = [];
  for (const block of content) {
    if (block.type !== 'text') continue;
    out.push({ text: block.text, evidence: citationsToEvidence(block.citations ?? [], envelopes) });
  }
  return out;
}
