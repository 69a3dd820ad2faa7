/**
 * Findings: what `validate()` returns. Validation reports data; only boundaries throw.
 */

/**
 * Stable rule ids. A rule id is API: tools and dashboards match on it, so ids are never reused
 * for a different meaning.
 */
export const RULES = {
  SCHEMA: 'SCHEMA',
  S3_SUCCESS_WITHOUT_DATA: 'S3.success-without-data',
  S3_FAILED_WITH_DATA: 'S3.failed-with-data',
  S3_FAILED_WITHOUT_ERROR: 'S3.failed-without-error',
  S3_SUCCESS_WITH_ERROR: 'S3.success-with-error',
  S3_UNKNOWN_WITHOUT_ERROR: 'S3.unknown-without-error',
  S3_UNKNOWN_SIDE_EFFECT_UNSTATED: 'S3.unknown-side-effect-unstated',
  S4_PARTIAL_MARKED_COMPLETE: 'S4.partial-marked-complete',
  S4_SUCCEEDED_BUT_INCOMPLETE: 'S4.succeeded-but-incomplete',
  S5_COMPLETENESS_MISSING: 'S5.completeness-missing',
  S5_CURSOR_BUT_COMPLETE: 'S5.cursor-but-complete',
  S5_FEWER_RETURNED_BUT_COMPLETE: 'S5.fewer-returned-but-complete',
  S5_RETURNED_EXCEEDS_AVAILABLE: 'S5.returned-exceeds-available',
  S5_ZERO_AVAILABLE_WITH_ITEMS: 'S5.zero-available-with-items',
  S6_PROVENANCE_MISSING: 'S6.provenance-missing',
  S6_OBSERVED_AFTER_RETRIEVED: 'S6.observed-after-retrieved',
  S9_DIGEST_MISMATCH: 'S9.digest-mismatch',
  S9_DATA_NOT_CANONICAL: 'S9.data-not-canonicalizable',
  W1_OCCURRED_WITHOUT_EXTERNAL_ID: 'W1.occurred-without-external-id',
  W1_OCCURRED_CONTRADICTS_POSSIBLY: 'W1.occurred-contradicts-possibly',
  W1_IDEMPOTENCY_KEY_MISMATCH: 'W1.idempotency-key-mismatch',
  W2_UNKNOWN_WITHOUT_RECONCILIATION: 'W2.unknown-without-reconciliation',
  W2_UNKNOWN_RETRYABLE: 'W2.unknown-marked-retryable',
  E1_DUPLICATE_EVIDENCE_ID: 'E1.duplicate-evidence-id',
  E2_UNRESOLVED_SUPPORT: 'E2.unresolved-support',
  T1_DUPLICATE_CONTENT_ID: 'T1.duplicate-content-id',
  /** Found by the readers of JSON text (`trc validate`, `trc cite`), not by `validate()`. */
  JSON_NUMBER_NOT_EXACT: 'JSON.number-not-exact',
  /** Found by the readers of JSON text, like the one above: a member name repeated in one object. */
  JSON_DUPLICATE_KEY: 'JSON.duplicate-key',
} as const;

/** A stable rule id (see {@link RULES}). */
export type RuleId = (typeof RULES)[keyof typeof RULES];

/** `error` makes an envelope invalid; `warning` does not. */
export type Severity = 'error' | 'warning';

/** One thing `validate()` found wrong, located by a JSON Pointer into the envelope. */
export interface Finding {
  readonly rule: RuleId;
  readonly pointer: string;
  readonly message: string;
  readonly severity: Severity;
}

/** Result of validating one envelope. `valid` is false when any finding is an error. */
export interface ValidationResult {
  readonly valid: boolean;
  readonly findings: readonly Finding[];
}
