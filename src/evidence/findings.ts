/**
 * Findings of the evidence checks. Same shape as the contract's `Finding` (rule, pointer,
 * message, severity) so callers can merge both lists; the rule ids are evidence-specific.
 */
import type { Severity } from '../contract/index.js';

/** Stable rule ids of the evidence checks. A rule id is API: never reused for another meaning. */
export const EVIDENCE_RULES = {
  E1_NO_EVIDENCE: 'E1.no-evidence',
  E1_NO_SUPPORTS: 'E1.no-supports',
  E2_UNRESOLVED_SUPPORT: 'E2.unresolved-support',
  E2_TOO_COARSE: 'E2.too-coarse',
  E2_BARE_SOURCE: 'E2.bare-source',
  E2_URL_UNPINNED: 'E2.url-unpinned',
  E4_OBSERVED_AT_MISSING: 'E4.observed-at-missing',
  E4_OBSERVED_AFTER_RETRIEVED: 'E4.observed-after-retrieved',
  E4_STALE: 'E4.stale',
  E7_JSON_MISMATCH: 'E7.json-mismatch',
  E7_VALUE_MISMATCH: 'E7.value-mismatch',
} as const;

/** A stable evidence rule id (see {@link EVIDENCE_RULES}). */
export type EvidenceRuleId = (typeof EVIDENCE_RULES)[keyof typeof EVIDENCE_RULES];

/** One thing an evidence check found, located by a JSON Pointer into the envelope. */
export interface EvidenceFinding {
  readonly rule: EvidenceRuleId;
  readonly pointer: string;
  readonly message: string;
  readonly severity: Severity;
}
