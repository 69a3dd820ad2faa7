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
} from './contract/index.js';
export type { Envelope, MinimalEnvelope, Finding, ValidationResult, ErrorInfo, Evidence, UntrustedContent } from './contract/index.js';
