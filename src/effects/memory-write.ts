/**
 * Memory / knowledge write-back (W5): a fact becomes trusted memory only if the user said it,
 * the user confirmed it, or a domain policy allows inference; external text stays source material.
 */
import type { MemoryCandidate } from '../contract/index.js';

/** Source types whose text is external content, never trusted knowledge. */
const EXTERNAL_SOURCES: ReadonlySet<string> = new Set(['web', 'email', 'mail', 'ticket', 'repository', 'third_party_api', 'mcp', 'agent']);

/** Domain policy for memory writes. */
export interface MemoryPolicy {
  /** The domain allows storing facts inferred by the model or observed by tools. */
  readonly allowInference?: boolean;
}

/** A memory decision with the rule that made it. */
export interface MemoryDecision {
  readonly decision: 'store_as_fact' | 'store_as_source_material' | 'reject';
  readonly reason: string;
}

/**
 * Decide how a memory candidate may be stored. `originSourceType` is the provenance source type
 * of the result the fact came from (e.g. `web`); external origins are stored only as source
 * material unless the user confirmed the fact.
 * @example decideMemoryWrite({ fact: 'prefers email', source: 'user_explicit_statement', confidence: 'high' }).decision // 'store_as_fact'
 */
export function decideMemoryWrite(candidate: MemoryCandidate, options: { policy?: MemoryPolicy; originSourceType?: string } = {}): MemoryDecision {
  const external = candidate.source === 'external_content' || (options.originSourceType !== undefined && EXTERNAL_SOURCES.has(options.originSourceType));
  if (candidate.source === 'user_confirmed') return { decision: 'store_as_fact', reason: 'the user confirmed the fact' };
  if (external) return { decision: 'store_as_source_material', reason: 'text from web, mail, tickets or other external content is kept as source material, never as trusted knowledge' };
  if (candidate.source === 'user_explicit_statement') return { decision: 'store_as_fact', reason: 'the user stated the fact explicitly' };
  if (options.policy?.allowInference === true) return { decision: 'store_as_fact', reason: 'the domain policy allows storing inferred or observed facts' };
  if (candidate.source === 'tool_observation') return { decision: 'store_as_source_material', reason: 'a tool observation is not a standing fact unless policy allows it' };
  return { decision: 'reject', reason: 'a model inference is not stored without user confirmation or a policy that allows it' };
}

/**
 * The candidate with its decision filled in, ready to put in `memory_candidate`.
 * @example withMemoryDecision(candidate, { originSourceType: 'web' }).decision // 'store_as_source_material'
 */
export function withMemoryDecision(candidate: MemoryCandidate, options: { policy?: MemoryPolicy; originSourceType?: string } = {}): MemoryCandidate {
  return { ...candidate, decision: decideMemoryWrite(candidate, options).decision };
}
