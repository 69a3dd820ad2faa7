/**
 * The rules of one upstream tool, compiled from the configuration into the executor's
 * `ToolRules`: global defaults, the upstream's defaults and the tool's own entry; MCP annotations
 * count only when the upstream is marked `trusted` (SPEC T5), and even then never over explicit
 * configuration. Compiled once per listing entry.
 */
import { isUntrustedSourceType, outputCheckFor, underData, type McpListing, type ToolRules } from '../executor/index.js';
import type { GatewayConfig, ToolPolicy, UpstreamConfig } from './config.js';

/** Budget used when nothing is configured: results above this are externalized. */
export const DEFAULT_MAX_BYTES = 64 * 1024;
/**
 * Deadline used when nothing is configured: below the 60 s the official SDK clients wait by
 * default, so the gateway's TIMEOUT envelope (for a write: unknown, with the key to look it up
 * by) reaches the client before the client gives up on the call.
 */
export const DEFAULT_TIMEOUT_MS = 50_000;
/** Lifetime of stored results and handles when nothing is configured. */
const DEFAULT_TTL_SECONDS = 3600;

/** How a client confirms a call held for confirmation (edge-specific words of the policy's reason). */
export const confirmHow = (metaKey: string) => `repeat the call with _meta["${metaKey}"] = true once the user agreed`;


/**
 * How an upstream's MCP annotations count: `policy` (a `trusted` upstream: they decide effect
 * and idempotency), `hint` (the default: a `readOnlyHint` makes the tool a read — it is not
 * reported as a possible write and skips the ledger — and nothing else), `ignore` (every tool
 * not configured is a possible write).
 * @example annotationMode({ name: 'fs', command: 'x' }) // 'hint'
 */
export function annotationMode(upstream: UpstreamConfig): 'policy' | 'hint' | 'ignore' {
  return upstream.annotations ?? (upstream.trusted === true ? 'policy' : 'hint');
}

const cache = new WeakMap<UpstreamConfig, Map<string, { listing: McpListing | undefined; rules: ToolRules }>>();

/**
 * The rules of `tool` (as the client names it; `upstreamTool` on the upstream).
 * @example toolRulesFor({}, { name: 'fs', command: 'x', trusted: true }, 'read_file', 'read_file', { name: 'read_file', annotations: { readOnlyHint: true } }, 'k').effect // 'read'
 */
export function toolRulesFor(config: GatewayConfig, upstream: UpstreamConfig, tool: string, upstreamTool: string, listing: McpListing | undefined, confirmMetaKey: string): ToolRules {
  let perUpstream = cache.get(upstream);
  if (perUpstream === undefined) cache.set(upstream, (perUpstream = new Map()));
  const hit = perUpstream.get(tool);
  if (hit !== undefined && hit.listing === listing) return hit.rules;
  const merged: ToolPolicy = { ...config.defaults, ...upstream.defaults, ...upstream.tools?.[upstreamTool] };
  const annotations = listing?.annotations;
  const mode = annotationMode(upstream);
  const trusted = mode === 'policy';
  let effect: 'read' | 'write' = 'write';
  let effectSource: ToolRules['effectSource'] = 'default';
  if (merged.effect !== undefined) {
    effect = merged.effect;
    effectSource = 'declared';
  } else if (mode !== 'ignore' && annotations?.['readOnlyHint'] === true) {
    effect = 'read';
    effectSource = trusted ? 'annotation' : 'hint';
  }
  const idempotent = merged.idempotent ?? (trusted && annotations?.['idempotentHint'] === true ? true : effect === 'read');
  const sourceType = merged.source_type ?? 'mcp';
  const rules: ToolRules = {
    name: tool,
    effect,
    effectSource,
    operation: effect === 'write' ? upstreamTool : 'read',
    risk: merged.risk ?? (effect === 'write' ? 'medium' : 'low'),
    confirmation: { required: merged.confirmation_required ?? false, how: confirmHow(confirmMetaKey) },
    idempotent,
    honoursKey: merged.honours_key ?? false,
    // The gateway's invoker says when the request was handed to the upstream transport.
    reportsSend: true,
    reconcile: merged.reconcile === undefined
      ? { available: false, queryTool: 'manual' }
      : { available: true, queryTool: merged.reconcile.tool, queryArgs: merged.reconcile.args ?? { idempotency_key: '$key' } },
    untrusted: (merged.untrusted_fields ?? []).map(underData),
    trusted: [],
    sourceUntrusted: isUntrustedSourceType(sourceType),
    ...(merged.ignore_detector_rules === undefined ? {} : { ignoreDetectorRules: merged.ignore_detector_rules }),
    visibility: Object.fromEntries(Object.entries(merged.visibility ?? {}).map(([p, v]) => [underData(p), v])),
    budget: { maxBytes: merged.budget?.max_bytes ?? DEFAULT_MAX_BYTES, ...(merged.budget?.max_tokens === undefined ? {} : { maxTokens: merged.budget.max_tokens }) },
    validateInput: null,
    inputSchema: listing?.inputSchema ?? null,
    validateOutput: outputCheckFor(listing?.outputSchema),
    source: { type: sourceType, id: `${upstream.name}/${upstreamTool}` },
    timeoutMs: merged.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    handleTtlMs: (config.handle_ttl_seconds ?? DEFAULT_TTL_SECONDS) * 1000,
  };
  perUpstream.set(tool, { listing, rules });
  return rules;
}
