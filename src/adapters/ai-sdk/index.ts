/**
 * `tool-result-contract/ai-sdk` — make Vercel AI SDK tools emit envelopes (SPEC I4).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { envelopeTool, envelopeTools, envelopeModelOutput } from './envelope-tool.js';
export type { EnvelopeToolOptions, ModelOutput } from './envelope-tool.js';
