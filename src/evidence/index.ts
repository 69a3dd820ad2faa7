/**
 * `tool-result-contract/evidence` — evidence locators and lint, conflicts, declared
 * calculations, content-vs-structured comparison and the answer-citation checker.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { EVIDENCE_RULES } from './findings.js';
export type { EvidenceFinding, EvidenceRuleId } from './findings.js';
export { compareContent } from './compare-content.js';
export type { ContentComparison, CompareContentOptions } from './compare-content.js';
export { recordEvidence, documentEvidence, urlEvidence, apiEvidence } from './locators.js';
export type { EvidenceBase, RecordLocatorInput, DocumentLocatorInput, UrlLocatorInput, ApiLocatorInput } from './locators.js';
export { lintEvidence } from './lint.js';
export type { EvidencePolicy } from './lint.js';
export type { FreshnessPolicy } from './freshness.js';
export { detectConflicts } from './conflicts.js';
export type { ConflictIdentity, ResolutionRule, DetectConflictsOptions } from './conflicts.js';
export { aggregate } from './aggregate.js';
export type { AggregateRule, AggregateInput, AggregateResult, AggregateOperation } from './aggregate.js';
export { checkAnswer, VERDICTS } from './check-answer.js';
export type { AnswerCheck, ClaimCheck, CheckedValue, CheckAnswerOptions, Verdict } from './check-answer.js';
export { splitSentences } from './sentences.js';
export type { Sentence } from './sentences.js';
export { readMarkers, citedIds } from './citations.js';
export type { CitationMarker } from './citations.js';
export { extractTextValues } from './text-values.js';
export type { TextValue } from './text-values.js';
export { wallTimesAgree, parseIsoWallTime, zoneOffset } from './datetime.js';
export type { WallTime } from './datetime.js';
