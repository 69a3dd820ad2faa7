/**
 * `tool-result-contract/executor` — tools, the call pipeline, parallel calls, recovery and
 * diagnosis.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { defineTool } from './define-tool.js';
export type { ToolDefinition } from './define-tool.js';
export { createExecutor } from './executor.js';
export type { Executor, ExecutorOptions, CallOptions, AnyTool } from './executor.js';
export { ToolFailure, isToolFailure } from './tool-failure.js';
export type { ToolFailureInput } from './tool-failure.js';
export { checkCallIds, assertCallIds } from './call-ids.js';
export type { CallIdCheck } from './call-ids.js';
export { referencedCalls } from './call-all.js';
export type { CallAllOptions, CallAllResult } from './call-all.js';
export { permissivePolicy, passThrough, presentAsJson, defaultStages, checkOutputSchema } from './stages.js';
export type { Stages, EnvelopeStage, StageContext, Policy, PolicyDecision } from './stages.js';
export { trustStage, budgetStage, evidenceStage, presentStage, modelFactsStage } from './module-stages.js';
export { trustPolicy } from './trust-policy.js';
export { diagnose } from './diagnose.js';
export type { Diagnosis, Layer, LayerVerdict } from './diagnose.js';
export { toModelContext, writeBackOf } from './model-context.js';
export type { ReconcileReport } from './recover.js';
export type { CallAuditDetail, EffectPosition, LayerNotes } from './audit.js';
export type { Principal, ToolCall, ToolOutput, ToolContext, ToolSpec, ModelContext, WriteBack, FieldVisibility, JsonSchema } from './types.js';
