/**
 * Per-source freshness (E4): how old evidence may be before it is stale. Age is measured from
 * when the agent last read the fact (`retrieved_at`), since that is when it was last known true.
 */
import type { Envelope, Evidence } from '../contract/index.js';
import { epochMs } from './datetime.js';

/** Maximum age in milliseconds, per source key, with an optional default. */
export interface FreshnessPolicy {
  /** Keys are matched against evidence source id/name/type, then provenance source_id, then source_type. */
  readonly sources?: Readonly<Record<string, number>>;
  /** Used when no source key matches; absent means "never stale". */
  readonly default?: number;
}

/** The names a piece of evidence's source goes by, most specific first. */
export function sourceKeys(ev: Evidence | undefined, env: Envelope): string[] {
  const keys: string[] = [];
  const s = ev?.source;
  if (typeof s === 'string') keys.push(s);
  else if (s !== undefined) for (const k of [s.id, s.name, s.uri, s.type]) if (k !== undefined) keys.push(k);
  if (env.provenance !== undefined) keys.push(env.provenance.source_id, env.provenance.source_type);
  return keys;
}

/** Maximum age allowed for this evidence, or null when the policy sets none. */
export function maxAgeFor(policy: FreshnessPolicy, ev: Evidence | undefined, env: Envelope): number | null {
  for (const key of sourceKeys(ev, env)) {
    const v = policy.sources?.[key];
    if (v !== undefined) return v;
  }
  return policy.default ?? null;
}

/** When the fact was last read: the evidence's own `retrieved_at`, else the envelope's. */
export function retrievedAtOf(ev: Evidence | undefined, env: Envelope): string | null {
  return ev?.retrieved_at ?? ev?.locator?.retrieved_at ?? env.provenance?.retrieved_at ?? null;
}

/** Staleness of one piece of evidence at `now`, or null when it cannot be judged. */
export function staleness(
  policy: FreshnessPolicy,
  ev: Evidence | undefined,
  env: Envelope,
  now: number,
): { stale: boolean; ageMs: number; maxAgeMs: number; retrievedAt: string } | null {
  const maxAgeMs = maxAgeFor(policy, ev, env);
  const retrievedAt = retrievedAtOf(ev, env);
  const t = epochMs(retrievedAt);
  if (maxAgeMs === null || retrievedAt === null || t === null) return null;
  const ageMs = now - t;
  return { stale: ageMs > maxAgeMs, ageMs, maxAgeMs, retrievedAt };
}

/** Human-readable duration, e.g. `3h 5m`. */
export function formatDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [d > 0 ? `${d}d` : '', h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : ''].filter((p) => p !== '');
  return parts.length === 0 ? `${s}s` : parts.join(' ');
}
