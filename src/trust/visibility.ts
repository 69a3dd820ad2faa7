/**
 * Field visibility (SPEC T6): per-tool rules mark fields `model` (model and user see it),
 * `user` (only the user sees it) or `internal` (neither); `mask` rules keep a field but hide its
 * value. Secrets in every outgoing string are masked whatever the rules say.
 */
import { digest, formatPointer, type Envelope } from '../contract/index.js';
import { compileGlob, GLOB_ANY, GLOB_DEEP, matchesSelfOrAncestor, type PointerGlob } from './pointer-glob.js';
import { maskSecrets } from './secrets.js';

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
  /** Mask secrets (API keys, JWTs, private keys, cloud credentials) in strings; default true. */
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

function maskValue(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  // Keep the last four characters of longer values so a person can still tell them apart.
  return s.length > 8 ? '••••' + s.slice(-4) : '••••';
}

function visible(level: Visibility, audience: Audience): boolean {
  return level === 'model' || (level === 'user' && audience === 'user');
}

interface Compiled {
  readonly fields: readonly { glob: PointerGlob; level: Visibility }[];
  readonly mask: readonly PointerGlob[];
}

function levelOf(c: Compiled, path: readonly string[]): Visibility {
  let best: { len: number; level: Visibility } | undefined;
  for (const f of c.fields) {
    if (!matchesSelfOrAncestor(f.glob, path)) continue;
    const len = f.glob.tokens.length;
    if (best === undefined || len > best.len || (len === best.len && f.level === 'internal')) best = { len, level: f.level };
  }
  return best?.level ?? 'model';
}

/** True when a more specific rule may make something under `path` visible again. */
function visibleBelow(c: Compiled, path: readonly string[], audience: Audience): boolean {
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

/**
 * Build the view of `envelope` for `audience`: drop fields it may not see, mask masked fields,
 * mask secrets in all strings, drop untrusted content whose origin it may not see, and recompute
 * `result_digest` for the view's data. The input is not modified.
 * @example viewFor(env, { fields: { '/data/internal_notes': 'internal' } }, 'model').removed // ['/data/internal_notes']
 */
export function viewFor(envelope: Envelope, rules: VisibilityRules, audience: Audience): VisibilityView {
  const compiled: Compiled = {
    fields: Object.entries(rules.fields ?? {}).map(([g, level]) => ({ glob: compileGlob(g), level })),
    mask: (rules.mask ?? []).map(compileGlob),
  };
  const removed: string[] = [];
  const masked: string[] = [];
  const secrets: string[] = [];
  const doSecrets = rules.maskSecrets !== false;

  const walk = (v: unknown, path: string[]): { keep: boolean; value: unknown } => {
    const container = v !== null && typeof v === 'object';
    if (!visible(levelOf(compiled, path), audience) && !(container && visibleBelow(compiled, path, audience))) {
      removed.push(formatPointer(path));
      return { keep: false, value: undefined };
    }
    if (compiled.mask.some((g) => matchesSelfOrAncestor(g, path))) {
      masked.push(formatPointer(path));
      return { keep: true, value: maskValue(v) };
    }
    if (typeof v === 'string') {
      if (!doSecrets) return { keep: true, value: v };
      const m = maskSecrets(v);
      if (m.found.length > 0) secrets.push(formatPointer(path));
      return { keep: true, value: m.text };
    }
    if (Array.isArray(v)) {
      return { keep: true, value: v.map((item, i) => { const r = walk(item, [...path, String(i)]); return r.keep ? r.value : REDACTED_ITEM; }) };
    }
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) {
        const r = walk(item, [...path, k]);
        if (r.keep) Object.defineProperty(out, k, { value: r.value, enumerable: true, writable: true, configurable: true });
      }
      return { keep: true, value: out };
    }
    return { keep: true, value: v };
  };

  const env = structuredClone(envelope);
  const data = walk(env.data, ['data']);
  env.data = data.keep ? data.value : null;
  if (env.untrusted_content !== undefined) {
    env.untrusted_content = env.untrusted_content.flatMap((u, i) => {
      const origin = u.origin === undefined ? undefined : u.origin.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (origin !== undefined && !visible(levelOf(compiled, origin), audience)) {
        removed.push(`/untrusted_content/${i}`);
        return [];
      }
      if (!doSecrets) return [u];
      const m = maskSecrets(u.text);
      if (m.found.length > 0) secrets.push(`/untrusted_content/${i}/text`);
      return [{ ...u, text: m.text, spans: m.found.length > 0 ? [] : u.spans ?? [] }];
    });
  }
  if (env.evidence !== undefined && removed.length > 0) {
    // Evidence for a hidden field must not leak it through its quote.
    const hidden = (p: string): boolean => removed.some((r) => p === r || p.startsWith(r + '/'));
    env.evidence = env.evidence.flatMap((e) => {
      const supports = e.supports.filter((p) => !hidden(p));
      if (supports.length === e.supports.length) return [e];
      if (supports.length === 0) return [];
      const { quote: _quote, ...rest } = e;
      return [{ ...rest, supports }];
    });
  }
  if (env.presentation !== undefined && doSecrets) {
    const m = maskSecrets(env.presentation.model_content);
    if (m.found.length > 0) secrets.push('/presentation/model_content');
    env.presentation = { ...env.presentation, model_content: m.text };
  }
  if (env.error !== undefined && env.error !== null && doSecrets) {
    const m = maskSecrets(env.error.message);
    if (m.found.length > 0) secrets.push('/error/message');
    env.error = { ...env.error, message: m.text };
  }
  if (env.result_digest !== undefined) env.result_digest = digest(env.data);
  return { envelope: env, removed, masked, secrets };
}
