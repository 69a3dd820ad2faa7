/**
 * The effective policy of one upstream tool: configuration first; MCP annotations only count
 * when the upstream is marked `trusted` (SPEC T5), and even then never over explicit config.
 */
import type { GatewayConfig, ToolPolicy, UpstreamConfig } from './config.js';

/** What the gateway enforces for one tool. */
export interface EffectivePolicy {
  readonly effect: 'read' | 'write';
  /** Where `effect` came from, for the audit trail. */
  readonly effectSource: 'config' | 'annotation' | 'default';
  readonly idempotent: boolean;
  /** The upstream deduplicates on the idempotency key (sent in `_meta`). */
  readonly honoursKey: boolean;
  readonly reconcile: { readonly tool: string; readonly args?: Record<string, unknown> } | null;
  readonly untrustedFields: readonly string[];
  readonly visibility: Readonly<Record<string, 'model' | 'user' | 'internal'>>;
  readonly maxBytes: number;
  readonly maxTokens: number | null;
  readonly risk: 'low' | 'medium' | 'high' | 'critical';
  readonly confirmationRequired: boolean;
  readonly timeoutMs: number;
  readonly sourceType: string;
}

/** Budget used when nothing is configured: results above this are externalized. */
export const DEFAULT_MAX_BYTES = 64 * 1024;
/** Deadline used when nothing is configured. */
export const DEFAULT_TIMEOUT_MS = 60_000;

interface Annotations {
  readonly readOnlyHint?: unknown;
  readonly destructiveHint?: unknown;
  readonly idempotentHint?: unknown;
}

/**
 * Merge global defaults, upstream defaults, the tool's own entry and (for trusted upstreams)
 * its annotations.
 * @example resolveToolPolicy({}, { name: 'fs', command: 'x', trusted: true }, 'read_file', { readOnlyHint: true }).effect // 'read'
 */
export function resolveToolPolicy(config: GatewayConfig, upstream: UpstreamConfig, tool: string, annotations: Annotations | undefined): EffectivePolicy {
  const merged: ToolPolicy = { ...config.defaults, ...upstream.defaults, ...upstream.tools?.[tool] };
  let effect: 'read' | 'write' = 'write';
  let effectSource: EffectivePolicy['effectSource'] = 'default';
  let idempotent = merged.idempotent;
  if (merged.effect !== undefined) {
    effect = merged.effect;
    effectSource = 'config';
  } else if (upstream.trusted === true && annotations?.readOnlyHint === true) {
    effect = 'read';
    effectSource = 'annotation';
  }
  if (idempotent === undefined && upstream.trusted === true && annotations?.idempotentHint === true) idempotent = true;
  return {
    effect,
    effectSource,
    idempotent: idempotent ?? effect === 'read',
    honoursKey: merged.honours_key ?? false,
    reconcile: merged.reconcile ?? null,
    untrustedFields: merged.untrusted_fields ?? [],
    visibility: merged.visibility ?? {},
    maxBytes: merged.budget?.max_bytes ?? DEFAULT_MAX_BYTES,
    maxTokens: merged.budget?.max_tokens ?? null,
    risk: merged.risk ?? (effect === 'write' ? 'medium' : 'low'),
    confirmationRequired: merged.confirmation_required ?? false,
    timeoutMs: merged.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    sourceType: merged.source_type ?? 'tool',
  };
}
