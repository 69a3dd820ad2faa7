/**
 * `tool-result-contract/openai-agents` — make OpenAI Agents SDK function tools run through the
 * contract's pipeline and emit envelopes (SPEC I4), plus the follow tool.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { envelopeTool, followTool } from './envelope-tool.js';
export type { EnvelopeToolOptions, ToolParameters } from './envelope-tool.js';
export { FOLLOW_TOOL_NAME } from '../../executor/index.js';
