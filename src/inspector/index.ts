/**
 * Public API of the inspector (SPEC I5): a read-only web UI over the audit store.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { startInspector } from './server.js';
export type { Inspector, InspectorOptions } from './server.js';
export { summarize, viewCall } from './call-view.js';
export type { CallSummary, CallView } from './call-view.js';
export { BOUNDARY_PLACEHOLDER } from './model-seen.js';
export type { ModelSeen } from './model-seen.js';
