/**
 * `tool-result-contract/gateway` — an MCP gateway that enforces the contract in front of
 * unmodified MCP servers (stdio or Streamable HTTP, one or several upstreams).
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { parseGatewayConfig, loadGatewayConfig, checkGatewayConfig } from './config.js';
export type { GatewayConfig, UpstreamConfig, ToolPolicy, ConfigProblem } from './config.js';
export { gatewayConfigSchema } from './config-schema.js';
export { resolveToolPolicy, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from './tool-policy.js';
export type { EffectivePolicy } from './tool-policy.js';
export { startSession } from './session.js';
export type { GatewaySession } from './session.js';
export type { GatewayOptions } from './session-state.js';
export { serveHttp, HTTP_DEFAULTS } from './http-server.js';
export type { HttpGateway, HttpListen } from './http-server.js';
export { runResultPipeline } from './result-pipeline.js';
export type { PipelineContext, PipelineOutput, ToolOutcome } from './result-pipeline.js';
export { ENVELOPE_META_KEY } from '../adapters/mcp/index.js';
export { IDEMPOTENCY_META_KEY, CONFIRM_META_KEY, SCOPE_META_KEY } from './tool-call.js';
export { enqueueAudit, flushAudit, AUDIT_WINDOW_MS, AUDIT_MAX_BATCH } from './audit-queue.js';
export { startSweeper, SWEEP_EVERY_MS } from './sweeper.js';
export { coalesceWrites } from './coalesce-writes.js';
export { readLookup } from './write-reconcile.js';
export { NAMESPACE_SEPARATOR } from './routing.js';
export { upstreamFromCommand } from './upstream-from-command.js';
export { openGatewayStore, DEFAULT_STORE_PATH } from './open-store.js';
