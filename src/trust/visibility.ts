/**
 * Field visibility (SPEC T6): per-tool rules mark fields `model` (model and user see it),
 * `user` (only the user sees it) or `internal` (neither); `mask` rules keep a field but hide its
 * value. The rules (rooted at `/data`) apply to `data` and, on error paths, to the structured
 * payload in `error.details`. A hidden array item leaves a placeholder, so the indexes evidence
 * points at never shift; a hidden value is also scrubbed from every other text of the envelope
 * (evidence quotes, warnings, summary, error message, untrusted text, presentation). Secrets in
 * every outgoing string are masked whatever the rules say.
 */
import { digest, formatPointer, type Envelope } from '../contract/index.js';
import { maskEnvelope } from './mask-envelope.js';
import { compileGlob, GLOB_ANY, GLOB_DEEP, matchesSelfOrAncestor, type PointerGlob } from './pointer-glob.js';
import { scrubStrings } from './scrub.js';

/** Who may see a field. */
export type Visibility = 'model' | 'user' | 'internal';
/** The audience a view is built for. */
export type Audience = 'model' | 'user';

/** Per-tool visibility rules; globs are rooted at the envelope (`/data/ssn`, `/data/**\/token`). */
export interface VisibilityRules {
  /** Glob → visibility. The most specific (longest) matching glob wins; default `model`. */
  readonly fields?: Readonly<Record<string, Visibility>>;
  /** Globs whose values are shown masked (e.g. `••••1234`) instead of removed. */
  readonly mask?: readonly string[];
  /** Mask secrets (API keys, JWTs, private keys, cloud credentials, passwords) in strings; default true. */
  readonly maskSecrets?: boolean;
}

/** A view of an envelope for one audience and what was taken out of it. */
export interface VisibilityView {
  readonly envelope: Envelope;
  /** Pointers of fields removed for this audience. */
  readonly removed: readonly string[];
  /** Pointers of fields shown masked. */
  readonly masked: readonly string[];
  /** Pointers of strings in which secrets were masked. */
  readonly secrets: readonly string[];
}

/** Placeholder for a removed array item, so later indexes (and pointers to them) stay valid. */
export const REDACTED_ITEM = Object.freeze({ $redacted: 'not_visible' });
/** What a hidden value becomes where it also appeared inside another text. */
export const HIDDEN_VALUE = '[hidden]';
/** Values shorter than this are not scrubbed from free text (they would match everywhere). */
const MIN_SCRUB = 4;

function maskValue(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  // Keep the last four characters of longer values so a person can still tell them apart.
  return s.length > 8 ? '••••' + s.slice(-4) : '••••';
}

function visible(level: Visibility, audience: Audience): boolean {
  return level === 'model' || (level === 'user' && audience === 'user');
}

/** Compiled field rules. */
export interface CompiledVisibility {
  readonly fields: readonly { glob: PointerGlob; level: Visibility }[];
  readonly mask: readonly PointerGlob[];
}

/**
 * Compile visibility rules once (e.g. per tool); null when they name no field.
 * @example compileVisibility({ fields: { '/data/ssn': 'internal' } })?.fields.length // 1
 */
export function compileVisibility(rules: VisibilityRules): CompiledVisibility | null {
  const fields = Object.entries(rules.fields ?? {}).map(([g, level]) => ({ glob: compileGlob(g), level }));
  const mask = (rules.mask ?? []).map(compileGlob);
  return fields.length === 0 && mask.length === 0 ? null : { fields, mask };
}

function levelOf(c: CompiledVisibility, path: readonly string[]): Visibility {
  let best: { len: number; level: Visibility } | undefined;
  for (const f of c.fields) {
    if (!matchesSelfOrAncestor(f.glob, path)) continue;
    const len = f.glob.tokens.length;
    if (best === undefined || len > best.len || (len === best.len && f.level === 'internal')) best = { len, level: f.level };
  }
  return best?.level ?? 'model';
}

/** True when a more specific rule may make something under `path` visible again. */
function visibleBelow(c: CompiledVisibility, path: readonly string[], audience: Audience): boolean {
  return c.fields.some((f) => {
    if (!visible(f.level, audience) || f.glob.tokens.length <= path.length) return false;
    for (let i = 0; i < path.length; i++) {
      const t = f.glob.tokens[i];
      if (t === GLOB_DEEP) return true;
      if (t !== GLOB_ANY && t !== path[i]) return false;
    }
    return true;
  });
}

/** The string forms of a hidden subtree worth scrubbing from other texts. */
function collectValues(v: unknown, out: Set<string>): void {
  if (typeof v === 'string') {
    if (v.length >= MIN_SCRUB) out.add(v);
  } else if (typeof v === 'number') {
    const s = String(v);
    if (s.length >= MIN_SCRUB) out.add(s);
  } else if (Array.isArray(v)) {
    for (const x of v) collectValues(x, out);
  } else if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) collectValues(x, out);
  }
}

/** What {@link hideFields} took out. */
export interface Hidden {
  readonly removed: string[];
  readonly masked: string[];
  readonly values: Set<string>;
}

/**
 * Drop (or mask) the fields of `value` that `audience` may not see. `match` is the path the
 * rules see (rooted at `data`), `at` the path reported in `removed`. Copy-on-write.
 */
export function hideFields(value: unknown, c: CompiledVisibility, audience: Audience, match: readonly string[], at: readonly string[], hidden: Hidden): { keep: boolean; value: unknown } {
  const walk = (v: unknown, path: string[], report: string[]): { keep: boolean; value: unknown } => {
    const container = v !== null && typeof v === 'object';
    if (!visible(levelOf(c, path), audience) && !(container && visibleBelow(c, path, audience))) {
      hidden.removed.push(formatPointer(report));
      collectValues(v, hidden.values);
      return { keep: false, value: undefined };
    }
    if (c.mask.length > 0 && c.mask.some((g) => matchesSelfOrAncestor(g, path))) {
      hidden.masked.push(formatPointer(report));
      collectValues(v, hidden.values);
      return { keep: true, value: maskValue(v) };
    }
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const r = walk(v[i], [...path, String(i)], [...report, String(i)]);
        const item = r.keep ? r.value : REDACTED_ITEM;
        if (item !== v[i]) (out ??= v.slice())[i] = item;
      }
      return { keep: true, value: out ?? v };
    }
    if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj);
      let out: Record<string, unknown> | null = null;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        const r = walk(obj[k], [...path, k], [...report, k]);
        if (out === null && (!r.keep || r.value !== obj[k])) {
          out = {};
          for (let j = 0; j < i; j++) define(out, keys[j] as string, obj[keys[j] as string]);
        }
        if (out !== null && r.keep) define(out, k, r.value);
      }
      return { keep: true, value: out ?? v };
    }
    return { keep: true, value: v };
  };
  return walk(value, [...match], [...at]);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const tokensOf = (pointer: string): string[] => (pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')));

/**
 * Apply compiled rules to an envelope for `audience`: fields of `data` and `error.details`,
 * evidence and untrusted content that point at hidden fields, and the hidden values wherever
 * else they appear. Secrets are not touched here (see {@link viewFor}).
 */
export function applyVisibility(envelope: Envelope, c: CompiledVisibility, audience: Audience): { envelope: Envelope; hidden: Hidden } {
  const hidden: Hidden = { removed: [], masked: [], values: new Set() };
  let env = envelope;
  const data = hideFields(env.data, c, audience, ['data'], ['data'], hidden);
  if (data.value !== env.data || !data.keep) env = { ...env, data: data.keep ? data.value : null };
  const details = env.error?.details;
  if (env.error !== undefined && env.error !== null && details !== undefined) {
    const d = hideFields(details, c, audience, ['data'], ['error', 'details'], hidden);
    if (d.value !== details || !d.keep) {
      const { details: _d, ...rest } = env.error;
      env = { ...env, error: d.keep ? { ...rest, details: d.value } : rest };
    }
  }
  if (hidden.removed.length === 0 && hidden.masked.length === 0) return { envelope: envelope, hidden };
  const isHidden = (p: string): boolean => hidden.removed.some((r) => p === r || p.startsWith(r + '/'));
  if (env.evidence !== undefined && hidden.removed.length > 0) {
    // Evidence for a hidden field must not leak it through its quote.
    env = {
      ...env,
      evidence: env.evidence.flatMap((e) => {
        const supports = e.supports.filter((p) => !isHidden(p));
        if (supports.length === e.supports.length) return [e];
        if (supports.length === 0) return [];
        const { quote: _quote, ...rest } = e;
        return [{ ...rest, supports }];
      }),
    };
  }
  if (env.untrusted_content !== undefined) {
    const data = env.data;
    env = {
      ...env,
      untrusted_content: env.untrusted_content.flatMap((u) => {
        if (u.origin === undefined) return [u];
        if (isHidden(u.origin)) return [];
        // A region holding a container is re-serialized from the filtered data.
        if (u.mime_type === 'application/json' && hidden.removed.some((r) => r.startsWith(u.origin + '/'))) {
          let cur: unknown = { data };
          for (const t of tokensOf(u.origin)) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[t] : undefined;
          if (cur !== undefined) return [{ ...u, text: JSON.stringify(cur), spans: [] }];
        }
        return [u];
      }),
    };
  }
  env = scrubStrings(env, [...hidden.values], HIDDEN_VALUE);
  if (env.result_digest !== undefined && env.data !== envelope.data) env = { ...env, result_digest: digest(env.data) };
  return { envelope: env, hidden };
}

/**
 * Build the view of `envelope` for `audience`: drop fields it may not see (in `data` and in a
 * failure's `error.details`), mask masked fields, scrub hidden values from every other text,
 * mask secrets everywhere, drop untrusted content whose origin it may not see, and recompute
 * `result_digest` for the view's data. The input is not modified.
 * @example viewFor(env, { fields: { '/data/internal_notes': 'internal' } }, 'model').removed // ['/data/internal_notes']
 */
export function viewFor(envelope: Envelope, rules: VisibilityRules, audience: Audience): VisibilityView {
  const compiled = compileVisibility(rules);
  let env = envelope;
  let removed: readonly string[] = [];
  let masked: readonly string[] = [];
  if (compiled !== null) {
    const r = applyVisibility(env, compiled, audience);
    env = r.envelope;
    removed = r.hidden.removed;
    masked = r.hidden.masked;
  }
  let secrets: readonly string[] = [];
  if (rules.maskSecrets !== false) {
    const m = maskEnvelope(env);
    secrets = m.masked;
    if (m.envelope !== env) {
      env = m.envelope;
      if (env.result_digest !== undefined && env.data !== envelope.data) env = { ...env, result_digest: digest(env.data) };
    }
  }
  return { envelope: env, removed, masked, secrets };
}
