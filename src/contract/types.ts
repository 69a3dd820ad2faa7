/**
 * TypeScript types of the envelope, derived from the schema in `schema.ts` — never written twice.
 */
import type { Static } from '@sinclair/typebox';
import type {
  CalculationSchema,
  CallSchema,
  CompletenessSchema,
  ConflictSchema,
  CursorSchema,
  EnvelopeSchema,
  ErrorSchema,
  EvidenceSchema,
  LocatorSchema,
  MemoryCandidateSchema,
  MinimalEnvelopeSchema,
  PresentationSchema,
  ProvenanceSchema,
  ReconciliationSchema,
  ResourceRefSchema,
  SideEffectSchema,
  StatePatchSchema,
  SummarySchema,
  ToolHintsSchema,
  TrimSchema,
  UntrustedContentSchema,
  WarningSchema,
} from './schema.js';

/**
 * A full `agent.tool.result.v1` envelope as a JSON document may carry it: lists whose absence
 * means none (`warnings`) may be absent.
 */
export type EnvelopeDocument = Static<typeof EnvelopeSchema>;
/**
 * A full `agent.tool.result.v1` envelope, as the builders make it and as `validate()` leaves a
 * valid document (it fills an absent `warnings` with `[]`).
 */
export type Envelope = EnvelopeDocument & Required<Pick<EnvelopeDocument, 'warnings'>>;
/** An envelope in the minimal profile (S11), as a document may carry it. */
export type MinimalEnvelope = Static<typeof MinimalEnvelopeSchema>;
export type CallInfo = Static<typeof CallSchema>;
export type ErrorInfo = Static<typeof ErrorSchema>;
export type Completeness = Static<typeof CompletenessSchema>;
export type Cursor = Static<typeof CursorSchema>;
export type Trim = Static<typeof TrimSchema>;
export type Provenance = Static<typeof ProvenanceSchema>;
export type Evidence = Static<typeof EvidenceSchema>;
export type Locator = Static<typeof LocatorSchema>;
export type UntrustedContent = Static<typeof UntrustedContentSchema>;
export type Presentation = Static<typeof PresentationSchema>;
export type SideEffect = Static<typeof SideEffectSchema>;
export type Reconciliation = Static<typeof ReconciliationSchema>;
export type Warning = Static<typeof WarningSchema>;
export type Conflict = Static<typeof ConflictSchema>;
export type Calculation = Static<typeof CalculationSchema>;
export type ResourceRef = Static<typeof ResourceRefSchema>;
export type Summary = Static<typeof SummarySchema>;
export type StatePatch = Static<typeof StatePatchSchema>;
export type MemoryCandidate = Static<typeof MemoryCandidateSchema>;
export type ToolHints = Static<typeof ToolHintsSchema>;

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
