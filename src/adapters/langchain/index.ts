/**
 * `tool-result-contract/langchain` — make LangChain.js tools emit envelopes as
 * `content_and_artifact` (SPEC I4).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { envelopeTool } from './envelope-tool.js';
export type { EnvelopeToolFields } from './envelope-tool.js';
