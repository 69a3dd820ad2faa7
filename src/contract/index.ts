/**
 * `tool-result-contract/contract` — the envelope: schema, types, builders, validation, digest,
 * JSON Pointer, error taxonomy.
 *
 * Cheap to import: no TypeBox, no Ajv until `createAjv2020()` is called. The TypeBox schema
 * objects (`EnvelopeSchema`, …) live in `./typebox.ts` (`tool-result-contract/contract/typebox`).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { CONTRACT_VERSION, STATUSES, COMPLETENESS_STATES, ERROR_CATEGORIES, ERROR_ACTIONS, KNOWN_SOURCE_TYPES, MEMORY_SOURCES } from './taxonomy.js';
export type { Status, CompletenessState, ErrorCategory, ErrorAction, KnownSourceType, MemorySource } from './taxonomy.js';
export type {
  Envelope,
  EnvelopeDocument,
  MinimalEnvelope,
  CallInfo,
  ErrorInfo,
  Completeness,
  Cursor,
  Trim,
  Provenance,
  Evidence,
  Locator,
  UntrustedContent,
  Presentation,
  SideEffect,
  Reconciliation,
  Warning,
  Conflict,
  Calculation,
  ResourceRef,
  Summary,
  StatePatch,
  MemoryCandidate,
  ToolHints,
  Json,
} from './types.js';
export { envelopeJsonSchema, minimalJsonSchema, schemaDocuments } from './schema-json.js';
export { validate, isEnvelope } from './validate.js';
export { validateText, validateKeptDigits } from './validate-text.js';
export type { TextValidation } from './validate-text.js';
export type { Profile } from './validate.js';
export { RULES } from './findings.js';
export type { Finding, RuleId, Severity, ValidationResult } from './findings.js';
export { resolvePointer, pointerResolves, parsePointer, formatPointer, escapePointerToken } from './pointer.js';
export type { PointerResult, PointerFailure } from './pointer.js';
export { canonicalJson, digest, sha256Hex } from './digest.js';
export { randomId } from './random-id.js';
export { createAjv2020 } from './ajv.js';
export { TrcError, isTrcError } from './trc-error.js';
export { succeeded, partial, failed, unknown, accepted, needsInput } from './builders.js';
export { timestampValue } from './timestamp-value.js';
export { nonJsonAt } from './non-json.js';
export type { NonJsonValue } from './non-json.js';
export type { TimestampValue } from './timestamp-value.js';
export type { CallInput, ProvenanceInput, SideEffectInput, CommonInput, Data, CompleteInput, IncompleteInput } from './builders.js';
export { classifyError, COMMIT_STATUS_UNKNOWN } from './classify.js';
export { isMcpClientError } from './classify-thrown.js';
export { parseRetryAfter } from './classify-http.js';
export type { ClassifiedError, ClassifyOptions, ClassifiableFailure, ErrorKind, HttpFailure, JsonRpcFailure } from './classify-types.js';
export { parseJson, lineAndColumn } from './parse-json.js';
export { firstInvalidUtf8 } from './utf8-bytes.js';
export { findDuplicateKeys, duplicateKeyFindings } from './duplicate-keys.js';
export { findInexactNumbers, isExactNumber, keepExactDigits, describeInexact, numberFindings, NUMBER_KEPT_AS_TEXT } from './exact-numbers.js';
export type { InexactNumber } from './exact-numbers.js';
export type { ParseJsonResult } from './parse-json.js';
export { checkStrictSchema, STRICT_RULES } from './strict-schema.js';
export type { StrictRule, StrictSchemaFinding } from './strict-schema.js';
