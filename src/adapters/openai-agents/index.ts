/**
 * `tool-result-contract/openai-agents` — make OpenAI Agents SDK function tools emit envelopes
 * (SPEC I4).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { envelopeTool } from './envelope-tool.js';
export type { EnvelopeToolOptions, ToolParameters } from './envelope-tool.js';
