/**
 * `tool-result-contract/trust` — the trust boundary: untrusted-content isolation (T1), the
 * instruction detector (T7), field visibility and secrets masking (T6), the model view and the
 * model-context builder (T2), call policy with argument taint (T3, T4) and MCP annotations as
 * hints (T5).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { detectInstructions, INSTRUCTION_FAMILIES } from './detect-instructions.js';
export type { Detection, DetectionSpan, DetectOptions, InstructionFamily } from './detect-instructions.js';
export { detectInstructionsAcross } from './detect-across.js';
export type { FieldSpan, FieldsDetection } from './detect-across.js';
export { detectInToolMetadata, TOOL_METADATA_IGNORED_RULES } from './tool-metadata-scan.js';
export type { ToolMetadataInput, ToolMetadataFinding, ToolMetadataDetection } from './tool-metadata-scan.js';
export { normalizeText } from './normalize-text.js';
export type { NormalizedText, HiddenUnicode } from './normalize-text.js';
export { isolate, UNTRUSTED_SOURCE_TYPES, DEFAULT_ALLOWED_USES, DEFAULT_FORBIDDEN_USES } from './isolate.js';
export { isUntrustedSourceType } from './regions.js';
export { assertToolIgnoreList, detectorRuleIds, ignoreListProblems } from './rule-ids.js';
export type { IsolationRules, IsolationResult, IsolatedField } from './isolate.js';
export { MEMBERS_MIME, externalRef, clipPointer, regionOrigins } from './regions.js';
export { isUntrustedRef, compileGlob, matchGlob } from './pointer-glob.js';
export type { UntrustedRef, PointerGlob } from './pointer-glob.js';
export { viewFor, applyVisibility, compileVisibility, hideFields, REDACTED_ITEM, HIDDEN_VALUE } from './visibility.js';
export type { Visibility, Audience, VisibilityRules, VisibilityView, CompiledVisibility, Hidden } from './visibility.js';
export { findSecrets, maskSecrets, isSecretName } from './secrets.js';
export type { SecretKind, SecretMatch, MaskResult } from './secrets.js';
export { maskEnvelope, maskText, maskValue, markMasked } from './mask-envelope.js';
export type { EnvelopeMask } from './mask-envelope.js';
export { scrubStrings, scrubText } from './scrub.js';
export { modelView, modelProjection, renderModelText, externalBlock, shownText, sourceLabel, WITHHELD_TEXT } from './model-view.js';
export type { ModelViewOptions } from './model-view.js';
export { mcpBlockView } from './mcp-block-view.js';
export { scanTool, vetInstructions, vetToolListing } from './tool-metadata-view.js';
export type { FlaggedListing, VetOptions, VettedTool } from './tool-metadata-view.js';
export type { McpBlockView } from './mcp-block-view.js';
export { buildModelContext, EXTERNAL_CONTENT_POLICY } from './model-context.js';
export type { ModelContext, ModelContextOptions, ContextPart, ContextPartKind, ContextRole } from './model-context.js';
export { authorize, argsDigest, checkResourceScope } from './authorize.js';
export type {
  AuthorizeRequest,
  Confirmation,
  Decision,
  DecisionChecks,
  DecisionReason,
  Policy,
  Principal,
  Risk,
  ScopeRule,
  Session,
  ToolPolicy,
} from './authorize.js';
export { TaintIndex } from './taint.js';
export { findTaint } from './find-taint.js';
export type { Taint, TaintKind, TaintContent, TaintIndexOptions } from './taint.js';
export type { TaintEncoding } from './taint-encodings.js';
export { taintForm, taintViews, TAINT_MIN_CHARS } from './taint-normalize.js';
export { createRunAuthority, needsCleanArguments } from './run-authority.js';
export { runScopeProblem, runOptionsProblem } from './run-options-check.js';
export type { RunOptionProblem } from './run-options-check.js';
export type { RunAuthority, RunAuthorityOptions, RunScope, RunCall, RunVerdict, RunHoldReason, ConfirmationRequest, RunEvent } from './run-authority.js';
export { effectivePolicy, riskFromAnnotations, toolHints } from './tool-hints.js';
export { findAuthorityClaims, authorityWarnings } from './authority-claims.js';
export { isUseAllowed } from './content-uses.js';
export type { AuthorityClaim } from './authority-claims.js';
