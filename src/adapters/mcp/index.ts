/**
 * `tool-result-contract/mcp` — MCP `CallToolResult` in and out (SPEC I1, E7, T5, X1).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { fromMcpResult } from './from-mcp-result.js';
export { toMcpResult } from './to-mcp-result.js';
export type { ToMcpOptions } from './to-mcp-result.js';
export { checkOutputSchema, schemaDialect } from './output-schema.js';
export type { OutputCheck, SchemaDialect, SchemaViolation } from './output-schema.js';
export { asJsonRpcError } from './json-rpc-error.js';
export type { JsonRpcErrorObject } from './json-rpc-error.js';
export { defaultIsolate } from './content-blocks.js';
export { ENVELOPE_META_KEY } from './types.js';
export type { SpecCallToolResult, FromMcpContext, IsolateHook, IsolateInput, McpServerRef, McpToolRef } from './types.js';
export { alignBatch, renderBatch, cancelledEnvelope, deniedEnvelope, renderModelText } from '../shared/index.js';
export type { CallRef } from '../shared/index.js';
