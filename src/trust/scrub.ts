/**
 * Scrubbing of known values out of free text: a field hidden by visibility rules must not
 * survive inside another string (an evidence quote, a warning, the summary, an error message,
 * untrusted text or the presentation). Copy-on-write over the envelope.
 */
import type { Envelope } from '../contract/index.js';

// The library's own identifiers, digests and enums hold no tool value.
const SKIP = new Set(['contract_version', 'call', 'status', 'result_digest', 'resources', 'side_effect']);
/** More distinct values than this are scrubbed by their longest members only (cost bound). */
const MAX_VALUES = 512;

/** Replace every occurrence of each value in `s`; longest values first. */
export function scrubText(s: string, values: readonly string[], replacement: string): string {
  let out = s;
  for (const v of values) if (out.includes(v)) out = out.split(v).join(replacement);
  return out;
}

function walk(v: unknown, values: readonly string[], replacement: string): unknown {
  if (typeof v === 'string') return scrubText(v, values, replacement);
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const item = walk(v[i], values, replacement);
      if (item !== v[i]) (out ??= v.slice())[i] = item;
    }
    return out ?? v;
  }
  const obj = v as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(obj)) {
    const item = walk(obj[k], values, replacement);
    if (item !== obj[k]) {
      out ??= { ...obj };
      Object.defineProperty(out, k, { value: item, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? v;
}

/**
 * Replace `values` wherever they occur in the envelope's strings.
 * @example scrubStrings(env, ['123-45-6789'], '[hidden]')
 */
export function scrubStrings(envelope: Envelope, values: readonly string[], replacement: string): Envelope {
  if (values.length === 0) return envelope;
  const sorted = [...values].sort((a, b) => b.length - a.length).slice(0, MAX_VALUES);
  const src = envelope as unknown as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(src)) {
    if (SKIP.has(key)) continue;
    const after = walk(src[key], sorted, replacement);
    if (after !== src[key]) (out ??= { ...src })[key] = after;
  }
  return (out ?? envelope) as unknown as Envelope;
}
