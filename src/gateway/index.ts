/**
 * `tool-result-contract/gateway` — an MCP gateway that enforces the contract in front of
 * unmodified MCP servers (stdio or Streamable HTTP, one or several upstreams). Every tool call
 * runs through the executor's pipeline; the gateway is transport, routing, sessions and config.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { parseGatewayConfig, loadGatewayConfig, checkGatewayConfig } from './config.js';
export type { GatewayConfig, UpstreamConfig, ToolPolicy, ConfigProblem } from './config.js';
export { gatewayConfigSchema } from './config-schema.js';
export { authConfigSchema, ASYMMETRIC_ALGORITHMS, AUTH_DEFAULTS } from './auth/auth-config.js';
export type { AuthConfig } from './auth/auth-config.js';
export { principalFromClaims } from './auth/principal-from-claims.js';
export type { ClaimsIdentity } from './auth/principal-from-claims.js';
export { resourceServer, isRefusal } from './auth/resource-server.js';
export type { Identity, Refusal, ResourceServer } from './auth/resource-server.js';
export { toolRulesFor, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from './tool-rules.js';
export { startSession } from './session.js';
export type { GatewaySession } from './session.js';
export type { GatewayOptions } from './session-state.js';
export { serveHttp, HTTP_DEFAULTS } from './http-server.js';
export type { HttpGateway, HttpListen } from './http-server.js';
export { gatewayExecutor, IDEMPOTENCY_META_KEY, CONFIRM_META_KEY, SCOPE_META_KEY } from './tool-call.js';
export { upstreamInvoker } from './mcp-invoker.js';
export { RUN_ID_META_KEY, RUN_ID_HEADER, RUN_SCOPE_META_KEY, RUN_USER_TEXT_META_KEY, CONFIRMATION_META_KEY } from './run-identity.js';
export { ENVELOPE_META_KEY, enqueueAudit, flushAudit, AUDIT_WINDOW_MS, AUDIT_MAX_BATCH } from '../executor/index.js';
export { startSweeper, SWEEP_EVERY_MS } from './sweeper.js';
export type { SweepOptions } from './sweeper.js';
export { coalesceWrites } from './coalesce-writes.js';
export { ownSignalFetch } from './upstream-fetch.js';
export { readLookup } from './write-reconcile.js';
export { NAMESPACE_SEPARATOR } from './routing.js';
export { upstreamFromCommand } from './upstream-from-command.js';
export { openGatewayStore } from './open-store.js';
export { MAX_CLIENT_MESSAGE_BYTES, MAX_UPSTREAM_MESSAGE_BYTES, lineTransport, spawnTransport } from './stdio-transports.js';
export type { SpawnedTransport } from './stdio-transports.js';
export { lineFramer, MessageTooLargeError } from './line-framer.js';
export type { FramerEvents, LineFramer } from './line-framer.js';
