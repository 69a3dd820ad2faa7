/**
 * `tool-result-contract/contract/typebox` — the TypeBox schema objects of the envelope, for
 * code that composes them into its own TypeBox schemas or compiles parts of them with Ajv.
 *
 * Kept out of `tool-result-contract/contract` on purpose: importing this entry loads TypeBox,
 * which the rest of the contract (validation included) does not need at run time.
 */
export {
  EnvelopeSchema,
  MinimalEnvelopeSchema,
  CallSchema,
  ErrorSchema,
  CompletenessSchema,
  ProvenanceSchema,
  EvidenceSchema,
  UntrustedContentSchema,
  SideEffectSchema,
  ReconciliationSchema,
  ConflictSchema,
  CalculationSchema,
  ResourceRefSchema,
  SummarySchema,
  StatePatchSchema,
  MemoryCandidateSchema,
  ToolHintsSchema,
} from './schema.js';
export { deriveSchemaDocuments } from './derive-schema.js';
