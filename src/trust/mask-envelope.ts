/**
 * Secret masking over a whole envelope (SPEC T6): every string and every object key that a
 * model may read or a store may keep — data, error, summary, warnings, completeness cursors,
 * untrusted text, evidence, state and memory write-back, presentation, extensions. A value
 * whose key names a secret (`password`, `api_key`, …) is masked whole. Copy-on-write: an
 * envelope without secrets comes back as the very same object.
 */
import type { Envelope } from '../contract/index.js';
import { isSecretName, maskSecrets } from './secrets.js';

/** What {@link maskEnvelope} did. */
export interface EnvelopeMask {
  readonly envelope: Envelope;
  /** Envelope pointers of the strings (or keys) in which secrets were masked. */
  readonly masked: readonly string[];
}

const NAMED = '[redacted:named_secret]';

// Envelopes the pipeline masked and finalized: a renderer need not scan them again.
const masked = new WeakSet<object>();

/**
 * Record that an envelope is masked throughout (the executor does, once per call, on the envelope
 * it returns), so rendering it does not scan every string a second time. A copy is not marked.
 * @example markMasked(envelope); maskEnvelope(envelope).envelope === envelope // true, without a scan
 */
export function markMasked(envelope: Envelope): Envelope {
  masked.add(envelope);
  return envelope;
}
// Fields that hold only the library's own identifiers, digests and enums.
const SKIP = new Set(['contract_version', 'call', 'status', 'result_digest', 'resources', 'side_effect']);

/** What a key needs, once per distinct key: its masked text, and whether it names a secret. */
interface KeyInfo {
  readonly masked: string;
  readonly secret: boolean;
}
const keys = new Map<string, KeyInfo>();
function keyInfo(key: string): KeyInfo {
  let info = keys.get(key);
  if (info === undefined) {
    info = { masked: maskText(key), secret: isSecretName(key) };
    // Keys repeat across rows and calls; the cache is bounded for results with generated keys.
    if (keys.size > 10_000) keys.clear();
    keys.set(key, info);
  }
  return info;
}

// Per ASCII character: 2 = an assignment or URL separator (`=`, `:`), 1 = a key character
// (letters, digits, `-_./+`), 0 = anything else.
const CHAR_CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const key = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2b;
    t[c] = c === 0x3a || c === 0x3d ? 2 : key ? 1 : 0;
  }
  return t;
})();

/**
 * Cheap pre-check: a secret needs a run of 16 key characters, an assignment or URL separator
 * (`=`, `:`), an invisible (non-ASCII) character, or a PEM dash run. Most strings have none.
 */
function mayHoldSecret(s: string): boolean {
  const n = s.length;
  if (n < 5) return false;
  let run = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return true;
    const k = CHAR_CLASS[c];
    if (k === 2) return true;
    if (k === 1) {
      if (++run >= 16) return true;
    } else run = 0;
  }
  return false;
}

/**
 * Mask the secrets of one string.
 * @example maskText('DB_PASSWORD=hunter22') // 'DB_PASSWORD=[redacted:named_secret]'
 */
export function maskText(s: string): string {
  return mayHoldSecret(s) ? maskSecrets(s).text : s;
}

/** A JSON value with its secrets masked; the same reference when nothing changed. */
export function maskValue(value: unknown, report?: (path: readonly string[]) => void): unknown {
  // Array indexes stay numbers until a hit is reported (most walks report nothing).
  const path: (string | number)[] = [];
  const hit = report === undefined ? undefined : () => report(path.map(String));
  const walk = (v: unknown, secret: boolean): unknown => {
    if (typeof v === 'string') {
      if (secret) {
        if (v === '' || v.startsWith('[redacted')) return v;
        hit?.();
        // Say what it was when it is recognizable; a value under a secret's name goes whole regardless.
        const m = maskText(v);
        return m !== v && m.startsWith('[redacted:') && m.endsWith(']') && !m.slice(1, -1).includes('[') ? m : NAMED;
      }
      const m = maskText(v);
      if (m !== v) hit?.();
      return m;
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const item = walk(v[i], secret);
        path.pop();
        if (item !== v[i]) (out ??= v.slice())[i] = item;
      }
      return out ?? v;
    }
    const obj = v as Record<string, unknown>;
    let out: Record<string, unknown> | null = null;
    const own = Object.keys(obj);
    for (let i = 0; i < own.length; i++) {
      const k = own[i] as string;
      path.push(k);
      const info = keyInfo(k);
      const key = info.masked;
      const item = walk(obj[k], secret || info.secret);
      if (key !== k) hit?.();
      path.pop();
      if (out === null && (key !== k || item !== obj[k])) {
        out = {};
        for (let j = 0; j < i; j++) define(out, own[j] as string, obj[own[j] as string]);
      }
      if (out !== null) define(out, key, item);
    }
    return out ?? v;
  };
  return walk(value, false);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not assignment: a key named __proto__ must stay an own data property.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const escape = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Mask secrets everywhere in an envelope except its own identifiers (call block, digest,
 * stored-resource references). The input is not modified.
 * @example maskEnvelope(env).envelope.error?.message // '… [redacted:openai_api_key] …'
 */
export function maskEnvelope(envelope: Envelope): EnvelopeMask {
  if (masked.has(envelope)) return { envelope, masked: [] };
  const found: string[] = [];
  let out: Record<string, unknown> | null = null;
  const src = envelope as unknown as Record<string, unknown>;
  for (const key of Object.keys(src)) {
    if (SKIP.has(key)) continue;
    const before = src[key];
    if (before === null || before === undefined || typeof before === 'number' || typeof before === 'boolean') continue;
    if (key === 'provenance') {
      // Its timestamps are ours; its source id may be a URL with credentials.
      const p = before as NonNullable<Envelope['provenance']>;
      const id = maskText(p.source_id);
      if (id !== p.source_id) {
        found.push('/provenance/source_id');
        (out ??= { ...src })[key] = { ...p, source_id: id };
      }
      continue;
    }
    let after = maskValue(before, (path) => found.push(`/${key}${path.map((t) => '/' + escape(t)).join('')}`));
    if (after !== before && key === 'untrusted_content' && Array.isArray(after)) {
      // Detection spans are offsets into the text; a masked text no longer has them.
      const old = before as Envelope['untrusted_content'] & object;
      after = after.map((u: NonNullable<Envelope['untrusted_content']>[number], i) => (u.text !== old[i]?.text && (u.spans ?? []).length > 0 ? { ...u, spans: [] } : u));
    }
    if (after !== before) (out ??= { ...src })[key] = after;
  }
  return { envelope: (out ?? envelope) as unknown as Envelope, masked: found };
}
