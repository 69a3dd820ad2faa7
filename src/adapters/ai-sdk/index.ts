/**
 * `tool-result-contract/ai-sdk` — make Vercel AI SDK tools run through the contract's pipeline
 * and emit envelopes (SPEC I4), plus the follow tool for links and cursors.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { envelopeTool, envelopeTools, envelopeModelOutput, followTool } from './envelope-tool.js';
export type { EnvelopeToolOptions, EnvelopeToolSet, ModelOutput } from './envelope-tool.js';
export { FOLLOW_TOOL_NAME } from '../../executor/index.js';
