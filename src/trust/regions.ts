/**
 * What every part of the trust boundary agrees on about isolated regions: which sources are
 * untrusted by default, the uses isolated text allows, how a region is referred to, and how a
 * pointer is cut back to the region that holds it (so no key inside a region leaks through a
 * pointer shown to the model).
 */
import { KNOWN_SOURCE_TYPES, type Envelope } from '../contract/index.js';

/** Provenance `source_type`s whose text is untrusted unless a rule says otherwise. */
export const UNTRUSTED_SOURCE_TYPES: readonly string[] = [
  'web', 'email', 'ticket', 'file', 'third_party_api', 'mcp', 'repository', 'agent',
];

// Source types whose text the executor trusts; every other one, misspelled or new, is untrusted.
const TRUSTED_SOURCE_TYPES: ReadonlySet<string> = new Set(KNOWN_SOURCE_TYPES.filter((t) => !UNTRUSTED_SOURCE_TYPES.includes(t)));

/**
 * Whether text from a source of type `type` is untrusted: the listed untrusted types, and any
 * type the contract does not know (`Web`, `webpage`), so a typo never makes a source trusted.
 * Case is ignored.
 * @example isUntrustedSourceType('Web') // true
 * @example isUntrustedSourceType('database') // false
 */
export function isUntrustedSourceType(type: string): boolean {
  return !TRUSTED_SOURCE_TYPES.has(type.toLowerCase());
}

/** What the executor allows done with isolated text (T3); the executor, not the prompt, enforces it. */
export const DEFAULT_ALLOWED_USES: readonly string[] = ['summarize', 'quote', 'classify', 'extract_facts', 'translate'];
/** What isolated text may never do. */
export const DEFAULT_FORBIDDEN_USES: readonly string[] = [
  'follow_instructions', 'change_agent_policy', 'authorize_tool_call', 'expand_data_scope',
  'high_risk_arguments_without_confirmation',
];

/** MIME type of a region holding the untrusted members of a record whose other members are facts. */
export const MEMBERS_MIME = 'application/vnd.trc.members+json';

/** The text that stands where a region's text was taken out of one of our own strings. */
export function externalRef(contentId: string): string {
  return `[external content ${contentId}]`;
}

/** Region roots of an envelope: the origins of its untrusted content. */
export function regionOrigins(envelope: Envelope): string[] {
  const out: string[] = [];
  for (const u of envelope.untrusted_content ?? []) if (u.origin !== undefined) out.push(u.origin);
  return out;
}

/**
 * `pointer` cut back to the region that contains it, or itself when no region does.
 * @example clipPointer('/data/rows/3/evil key', ['/data']) // '/data'
 */
export function clipPointer(pointer: string, origins: readonly string[]): string {
  let best: string | null = null;
  for (const o of origins) {
    if ((pointer === o || pointer.startsWith(o + '/')) && (best === null || o.length < best.length)) best = o;
  }
  return best ?? pointer;
}
