/**
 * `tool-result-contract` — the root entry: the contract core only. Stages and adapters have
 * their own sub-path exports (`tool-result-contract/budget`, `/trust`, `/mcp`, …) so that heavy
 * or native dependencies stay out of this import.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export {
  CONTRACT_VERSION,
  validate,
  isEnvelope,
  RULES,
  digest,
  canonicalJson,
  resolvePointer,
  TrcError,
  isTrcError,
  envelopeJsonSchema,
  minimalJsonSchema,
  succeeded,
  partial,
  failed,
  unknown,
  accepted,
  needsInput,
  classifyError,
  COMMIT_STATUS_UNKNOWN,
  parseJson,
} from './contract/index.js';
export type {
  Envelope,
  MinimalEnvelope,
  Finding,
  ValidationResult,
  ErrorInfo,
  Evidence,
  UntrustedContent,
  ClassifiedError,
  ClassifyOptions,
} from './contract/index.js';
