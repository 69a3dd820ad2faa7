/**
 * `tool-result-contract/openai` — envelopes as Chat Completions `tool` messages and Responses
 * `function_call_output` items, and the strict-mode schema check (SPEC I2, P1).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { toChatToolMessage, toChatToolMessages, toFunctionCallOutput, toFunctionCallOutputs } from './messages.js';
export type { FunctionCallOutputItem } from './messages.js';
export { checkStrictSchema, STRICT_RULES } from '../../contract/index.js';
export type { StrictRule, StrictSchemaFinding } from '../../contract/index.js';
export { alignBatch, cancelledEnvelope, deniedEnvelope, renderModelText, modelView, RENDER_INVALID_ENVELOPE } from '../shared/index.js';
export type { CallRef } from '../shared/index.js';
