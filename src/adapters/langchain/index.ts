/**
 * `tool-result-contract/langchain` — make LangChain.js tools run through the contract's pipeline
 * and emit envelopes as `content_and_artifact` (SPEC I4), plus the follow tool.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { envelopeTool, followTool } from './envelope-tool.js';
export type { EnvelopeToolFields } from './envelope-tool.js';
export { FOLLOW_TOOL_NAME } from '../../executor/index.js';
