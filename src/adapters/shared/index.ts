/**
 * Internal helpers shared by the adapters (not a public sub-path). Each adapter re-exports what
 * its users need by name.
 */
export { modelView, renderModelText, isErrorStatus, WITHHELD_TEXT } from './model-view.js';
export { cancelledEnvelope, deniedEnvelope, callInfo } from './outcome-envelope.js';
export type { CallRef } from './outcome-envelope.js';
export { alignBatch, renderBatch } from './batch.js';
export { frameworkRules, frameworkInvoker, runFrameworkCall, followParts, executorOf, storeOf, withInputSchema, splitWrapperOptions } from './framework.js';
export type { WrapperOptions } from './framework.js';
export { assertRenderable, RENDER_INVALID_ENVELOPE } from './renderable.js';
