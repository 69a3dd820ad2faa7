/**
 * `tool-result-contract/executor` — the one pipeline of every tool call: tools and their rules,
 * invokers, the stages, parallel calls, audit sinks, recovery and diagnosis, and the model text
 * every renderer shows.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { defineTool } from './define-tool.js';
export type { ToolDefinition } from './define-tool.js';
export { createExecutor, inProcessInvoker } from './executor.js';
export type { Executor, ExecutorOptions, CallOptions, AnyTool, TaskRun } from './executor.js';
export type { OpenRunOptions } from './persisted-run.js';
export { createRunAuthority as createRun } from '../trust/index.js';
export type { RunAuthorityOptions as RunStartOptions, RunScope, ConfirmationRequest, RunHoldReason, Taint, RunEvent } from '../trust/index.js';
export type { RunOptions, PipelineSegment } from './pipeline.js';
export { toolRules, underData, RULE_DEFAULTS } from './rules.js';
export type { ToolRules, Risk, EffectSource, SchemaCheck, SchemaFinding, ReconcileRule } from './rules.js';
export type { Invoker, Outcome, AttemptContext, LookupContext, McpListing } from './invoker.js';
export { normalizeMcp, ENVELOPE_META_KEY } from './normalize-mcp.js';
export type { McpInput, McpNormalized, ExternalMarks } from './normalize-mcp.js';
export { checkOutputSchema as checkMcpOutputSchema, compileOutputSchema, outputCheckFor, schemaDialect } from './output-schema.js';
export type { OutputCheck, SchemaDialect, SchemaViolation } from './output-schema.js';
export { ToolFailure, isToolFailure } from './tool-failure.js';
export type { ToolFailureInput } from './tool-failure.js';
export { checkCallIds, assertCallIds, newCallId } from './call-ids.js';
export type { CallIdCheck } from './call-ids.js';
export { referencedCalls } from './call-all.js';
export type { CallAllOptions, CallAllResult } from './call-all.js';
export { permissivePolicy, passThrough, presentAsJson, defaultStages, checkOutputSchema } from './stages.js';
export type { Stages, EnvelopeStage, StageContext, Policy, PolicyDecision } from './stages.js';
export { STRUCTURED_CONTENT_WITHHELD } from './module-stages.js';
export { visibilityStage, trustStage, budgetStage, evidenceStage, modelTextStage, presentStage, modelFactsStage } from './module-stages.js';
export { callShapeProblem, invalidCallError, recordableCall } from './call-shape.js';
export type { CallShapeProblem } from './call-shape.js';
export { storeAuditSink, writeBehindAuditSink, lateAuditEntry, enqueueAudit, flushAudit, AUDIT_WINDOW_MS, AUDIT_MAX_BATCH, AUDIT_HIGH_WATER, AUDIT_MAX_TRIES, AUDIT_MAX_RETAINED } from './audit-sink.js';
export type { AuditSink, AuditEntry, AuditTrouble, WriteBehindOptions } from './audit-sink.js';
export { trustPolicy } from './trust-policy.js';
export { diagnose } from './diagnose.js';
export type { Diagnosis, Layer, LayerVerdict } from './diagnose.js';
export { toModelContext, writeBackOf } from './model-context.js';
export { followLinkTool, FOLLOW_TOOL_NAME } from './follow-tool.js';
// What an edge needs of the stages' modules, without reaching into them: keys, stored results.
export { idempotencyKey } from '../effects/index.js';
export { openResource, HANDLE_ERROR_CODES, RESOURCE_URI_PREFIX } from '../budget/index.js';
export type { FollowArgs } from './follow-tool.js';
export { envelopeFromOutcome } from './standalone.js';
export type { OutcomeOptions } from './standalone.js';
export { renderModelText, modelView, mcpBlockView, scanTool, vetInstructions, vetToolListing, WITHHELD_TEXT, UNTRUSTED_SOURCE_TYPES, isUntrustedSourceType, runScopeProblem, ignoreListProblems, assertToolIgnoreList } from '../trust/index.js';
export type { FlaggedListing, McpBlockView, ToolMetadataFinding, VettedTool } from '../trust/index.js';
export type { ReconcileReport } from './recover.js';
export type { LeaseOptions } from './write-lease.js';
export { DEFAULT_LEASE_MS } from './write-lease.js';
export type { CallAuditDetail, EffectPosition, LayerNotes } from './audit.js';
export { AUDIT_PART_REF_PREFIX, AUDIT_INLINE_PART_CHARS } from './audit-parts.js';
export type { Principal, ToolCall, ToolOutput, ToolContext, ToolSpec, ModelContext, WriteBack, FieldVisibility, JsonSchema } from './types.js';
// Types of the stages' options that edges pass through (the edges import the executor only).
export type { Budget } from '../budget/index.js';
export type { ReconcileLookup } from '../effects/index.js';
export type { Visibility } from '../trust/index.js';
