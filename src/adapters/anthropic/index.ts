/**
 * `tool-result-contract/anthropic` — envelopes as `tool_result` blocks with `is_error`, evidence
 * as citable `search_result` blocks, and the model's citations mapped back to evidence ids
 * (SPEC I3, E3, P1).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { toToolResultBlock, toToolResultBlocks, toSearchResultBlocks } from './tool-result.js';
export { citationsToEvidence, responseCitations } from './citations.js';
export type { CitedEvidence, CitedText } from './citations.js';
export { evidenceSource, parseEvidenceSource } from './evidence-source.js';
export { alignBatch, cancelledEnvelope, deniedEnvelope, renderModelText, modelView, RENDER_INVALID_ENVELOPE } from '../shared/index.js';
export type { CallRef } from '../shared/index.js';
