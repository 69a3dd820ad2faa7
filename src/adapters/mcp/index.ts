/**
 * `tool-result-contract/mcp` — MCP `CallToolResult` in and out (SPEC I1, E7, T5, X1).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { fromMcpResult, mcpToolRules, mcpOutcome } from './from-mcp-result.js';
export { toMcpResult } from './to-mcp-result.js';
export type { ToMcpOptions } from './to-mcp-result.js';
export { checkMcpOutputSchema as checkOutputSchema, schemaDialect } from '../../executor/index.js';
export type { OutputCheck, SchemaDialect, SchemaViolation } from '../../executor/index.js';
export { asJsonRpcError } from './json-rpc-error.js';
export type { JsonRpcErrorObject } from './json-rpc-error.js';
export { ENVELOPE_META_KEY } from './types.js';
export type { SpecCallToolResult, FromMcpContext, McpServerRef, McpToolRef } from './types.js';
export { alignBatch, renderBatch, cancelledEnvelope, deniedEnvelope, renderModelText, modelView, RENDER_INVALID_ENVELOPE } from '../shared/index.js';
export type { CallRef } from '../shared/index.js';
