/**
 * Untrusted-content isolation (SPEC T1, T7). External text is recorded as *regions*: each
 * `untrusted_content[]` entry names, by its `origin` pointer, a part of the envelope whose text
 * came from outside, and carries that text. `data` keeps the observed facts unchanged (so
 * evidence pointers, the digest, output schemas and write-back stay true); every model-facing
 * rendering shows a region only inside a boundary (see `model-view.ts`).
 *
 * Regions are coarse on purpose, because each costs the model a label: a result whose source is
 * untrusted is one region (`/data`: every value and key counts, however short); a field named by
 * an `untrusted` glob is one region; with `trusted` globs under an untrusted source, a record
 * keeps its trusted members as facts and its other members form one region. Failures, warnings
 * and the summary are covered too: `error.details` of an untrusted source, external text inside
 * `error.message`, warnings built from external material, and a summary that names fields of a
 * region. Instruction detection runs once over all of a result's external text.
 */
import { sha256Hex, type Envelope, type UntrustedContent, type Warning } from '../contract/index.js';
import { detectInstructionsAcross } from './detect-across.js';
import { jsonOffset, serializeLeaves, type JsonLeaf } from './json-leaves.js';
import { compileGlob, matchGlob, matchesSelfOrAncestor, type PointerGlob } from './pointer-glob.js';
import { DEFAULT_ALLOWED_USES, DEFAULT_FORBIDDEN_USES, UNTRUSTED_SOURCE_TYPES, MEMBERS_MIME, externalRef, isUntrustedSourceType } from './regions.js';
import { formatPointer } from '../contract/index.js';

// Spans kept over one result's external text (each entry gets the ones inside it).
const MAX_SPANS = 4096;

export { UNTRUSTED_SOURCE_TYPES, DEFAULT_ALLOWED_USES, DEFAULT_FORBIDDEN_USES };

/** Per-tool isolation rules (usually from the tool's declaration). */
export interface IsolationRules {
  /** Globs (rooted at the envelope, e.g. `/data/body`, `/data/items/*\/note`) of untrusted text fields. */
  readonly untrusted?: readonly string[];
  /** Globs of fields that stay facts even when the source is untrusted (ids, enums, …). */
  readonly trusted?: readonly string[];
  /** Override the list of untrusted-by-default `source_type`s. */
  readonly untrustedSourceTypes?: readonly string[];
  /** Whether the whole result comes from an untrusted source; default: from `provenance.source_type`. */
  readonly sourceUntrusted?: boolean;
  /** Source named in the entries when the envelope has no provenance (e.g. a failure). */
  readonly source?: { readonly type: string; readonly id?: string; readonly name?: string };
  /** External strings that may occur inside `error.message` (an upstream's own message). */
  readonly externalErrorText?: readonly string[];
  /** Warnings (by identity) whose message was built from external material. */
  readonly externalWarnings?: ReadonlySet<object>;
  /** @deprecated every string of an untrusted source counts now; ignored. */
  readonly freeTextMinLength?: number;
  readonly mimeType?: string;
  /**
   * Detector rule ids, or prefixes ending in `.`, not applied to this result (a tool that returns
   * chat transcripts by design: `['role.turn', 'role.turns']`). The text is still isolated.
   */
  readonly ignoreRules?: readonly string[];
  readonly allowedUses?: readonly string[];
  readonly forbiddenUses?: readonly string[];
}

/** One region that was isolated. */
export interface IsolatedField {
  readonly pointer: string;
  readonly content_id: string;
  readonly instructional: boolean;
}

/** Result of {@link isolate}: a new envelope (the input is not modified) and what was isolated. */
export interface IsolationResult {
  readonly envelope: Envelope;
  readonly isolated: readonly IsolatedField[];
}

/** A region before detection: where, what kind, its text and the raw strings inside it. */
interface Region {
  readonly path: readonly string[];
  readonly mime: string;
  readonly text: string;
  /** Raw strings in order; `leaves` maps them into `text` for JSON regions. */
  readonly pieces: readonly string[];
  readonly leaves: readonly JsonLeaf[] | null;
}

const ERROR_MESSAGE = ['error', 'message'];
const SUMMARY_TEXT = ['summary', 'text'];

/** Deterministic ids keep the digest and the audit trail stable across runs and edges. */
const ids = new Map<string, string>();
function idFor(pointer: string): string {
  let id = ids.get(pointer);
  if (id === undefined) {
    id = 'uc_' + sha256Hex(pointer).slice(0, 16);
    if (ids.size > 4096) ids.clear();
    ids.set(pointer, id);
  }
  return id;
}

function stringRegion(path: readonly string[], text: string, mime: string): Region {
  return { path, mime, text, pieces: [text], leaves: null };
}

function valueRegion(path: readonly string[], value: unknown, mime = 'application/json'): Region {
  const s = serializeLeaves(value);
  return { path, mime, text: s.text, pieces: s.leaves.map((l) => l.raw), leaves: s.leaves };
}

/** Regions of `data` (or `error.details`) under the rules. */
function valueRegions(value: unknown, base: readonly string[], globs: { untrusted: PointerGlob[]; trusted: PointerGlob[] }, sourceUntrusted: boolean, mime: string): Region[] {
  const out: Region[] = [];
  // Rules are written against /data; error details of the same tool follow the same globs.
  const asData = (path: readonly string[]): string[] => (base[0] === 'error' ? ['data', ...path.slice(2)] : [...path]);
  const trustedAt = (path: readonly string[]) => globs.trusted.some((g) => matchesSelfOrAncestor(g, asData(path)));
  const trustedBelow = (path: readonly string[]) => {
    const p = asData(path);
    return globs.trusted.some((g) => g.tokens.length > p.length && matchGlob({ source: g.source, tokens: g.tokens.slice(0, p.length) }, p));
  };
  const visit = (v: unknown, path: readonly string[]): void => {
    if (v === undefined) return;
    const explicit = globs.untrusted.some((g) => matchGlob(g, asData(path)));
    if (explicit) {
      if (typeof v === 'string') {
        if (v !== '') out.push(stringRegion(path, v, mime));
      } else if (v !== null && typeof v === 'object') {
        out.push(valueRegion(path, v));
      }
      return;
    }
    if (sourceUntrusted && trustedAt(path)) return;
    const container = v !== null && typeof v === 'object';
    if (sourceUntrusted && !(container && trustedBelow(path))) {
      if (typeof v === 'string' ? v !== '' : container) out.push(typeof v === 'string' ? stringRegion(path, v, mime) : valueRegion(path, v));
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...path, String(i)]));
      return;
    }
    if (!container) return;
    const obj = v as Record<string, unknown>;
    if (!sourceUntrusted) {
      for (const k of Object.keys(obj)) visit(obj[k], [...path, k]);
      return;
    }
    // A record of an untrusted source that holds trusted fields: those (and the paths to them)
    // stay facts; every other member goes into one region for the record.
    const rest: Record<string, unknown> = {};
    let restCount = 0;
    for (const k of Object.keys(obj)) {
      const child = [...path, k];
      if (trustedAt(child) || trustedBelow(child)) visit(obj[k], child);
      else {
        Object.defineProperty(rest, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
        restCount++;
      }
    }
    if (restCount > 0) out.push(valueRegion(path, rest, MEMBERS_MIME));
  };
  visit(value, base);
  return out;
}

/**
 * The longest run of `raw` that occurs in `message` (starting with its first 300 characters,
 * as the classifiers quote it), with a trailing ellipsis of a clipped quote.
 */
function quotedRun(message: string, raw: string): [number, number] | null {
  const probe = raw.slice(0, Math.min(raw.length, 300));
  if (probe.trim() === '') return null;
  const at = message.indexOf(probe);
  if (at === -1) return null;
  let end = at + probe.length;
  let k = probe.length;
  while (end < message.length && k < raw.length && message[end] === raw[k]) { end++; k++; }
  if (message[end] === '…') end++;
  return [at, end];
}

/**
 * Record the external text of an envelope as regions in `untrusted_content[]`, run the
 * instruction detector over all of it, and flag what reads like instructions. Idempotent.
 * @example
 * const { envelope } = isolate(env, { untrusted: ['/data/body'] });
 * envelope.untrusted_content?.[0]?.origin // '/data/body'
 */
export function isolate(envelope: Envelope, rules: IsolationRules = {}): IsolationResult {
  const globs = { untrusted: (rules.untrusted ?? []).map(compileGlob), trusted: (rules.trusted ?? []).map(compileGlob) };
  const sourceTypes = rules.untrustedSourceTypes ?? UNTRUSTED_SOURCE_TYPES;
  const sourceUntrusted = rules.sourceUntrusted ?? (envelope.provenance !== undefined && (rules.untrustedSourceTypes === undefined ? isUntrustedSourceType(envelope.provenance.source_type) : sourceTypes.includes(envelope.provenance.source_type)));
  const mime = rules.mimeType ?? 'text/plain';
  const existing = envelope.untrusted_content ?? [];
  const known = new Set(existing.map((u) => u.origin).filter((o): o is string => o !== undefined));
  const regions: Region[] = [];
  let env: Envelope = envelope;

  if (env.data !== null && env.data !== undefined) regions.push(...valueRegions(env.data, ['data'], globs, sourceUntrusted, mime));
  const err = env.error ?? null;
  if (err !== null && err.details !== undefined) {
    const detailGlobs = { untrusted: globs.untrusted, trusted: globs.trusted };
    regions.push(...valueRegions(err.details, ['error', 'details'], detailGlobs, sourceUntrusted, mime));
  }
  // External text quoted inside our own error message: the quote moves behind the boundary.
  if (err !== null && (rules.externalErrorText ?? []).length > 0 && !known.has('/error/message')) {
    let message = err.message;
    const quoted: string[] = [];
    for (const raw of rules.externalErrorText ?? []) {
      const run = quotedRun(message, raw);
      if (run === null) continue;
      quoted.push(message.slice(run[0], run[1]));
      message = message.slice(0, run[0]) + externalRef(idFor('/error/message')) + message.slice(run[1]);
    }
    if (quoted.length > 0) {
      regions.push(stringRegion(ERROR_MESSAGE, quoted.join('\n'), mime));
      env = { ...env, error: { ...err, message } };
    }
  }
  // Warnings built from external material.
  if (rules.externalWarnings !== undefined && rules.externalWarnings.size > 0) {
    const warnings = env.warnings.map((w, i): Warning => {
      if (typeof w !== 'object' || !rules.externalWarnings?.has(w)) return w;
      const pointer = `/warnings/${i}/message`;
      if (known.has(pointer) || w.message === '') return w;
      regions.push(stringRegion(['warnings', String(i), 'message'], w.message, mime));
      return { ...w, message: externalRef(idFor(pointer)) };
    });
    env = { ...env, warnings };
  }
  // A presentation written by an untrusted source is external text like any other.
  if (sourceUntrusted && env.presentation !== undefined && env.presentation.model_content !== '' && !known.has('/presentation/model_content')) {
    regions.push(stringRegion(['presentation', 'model_content'], env.presentation.model_content, mime));
    env = { ...env, presentation: { ...env.presentation, model_content: externalRef(idFor('/presentation/model_content')) } };
  }
  // A summary of trimmed lists inside a region names that region's fields.
  if (env.summary !== undefined && !known.has('/summary/text')) {
    const containers = regions.filter((r) => r.leaves !== null).map((r) => formatPointer(r.path));
    const trimmed = (env.completeness?.trimmed ?? []).map((t) => t.pointer);
    const inRegion = trimmed.some((p) => containers.some((c) => p === c || p.startsWith(c + '/')));
    if (inRegion) {
      regions.push(stringRegion(SUMMARY_TEXT, env.summary.text, mime));
      const { stats: _stats, ...summary } = env.summary;
      env = { ...env, summary: { ...summary, text: externalRef(idFor('/summary/text')) } };
    }
  }

  const fresh = regions.filter((r) => !known.has(formatPointer(r.path)));
  const source = rules.source ?? (env.provenance === undefined ? { type: 'unknown' } : { type: env.provenance.source_type, id: env.provenance.source_id });
  const added: UntrustedContent[] = fresh.map((r) => {
    const origin = formatPointer(r.path);
    return {
      content_id: idFor(origin),
      mime_type: r.mime,
      text: r.text,
      trust: 'untrusted',
      source: { ...source },
      instructional: false,
      origin,
      allowed_uses: [...(rules.allowedUses ?? DEFAULT_ALLOWED_USES)],
      forbidden_uses: [...(rules.forbiddenUses ?? DEFAULT_FORBIDDEN_USES)],
    };
  });
  const all = [...existing, ...added];
  if (all.length === 0) return { envelope: env, isolated: [] };

  // One detection over every external text of the result, split back per entry.
  const pieces: string[] = [];
  const pieceOf: { entry: number; leaf: JsonLeaf | null }[] = [];
  all.forEach((u, i) => {
    const r = i >= existing.length ? fresh[i - existing.length] : undefined;
    if (r !== undefined && r.leaves !== null) {
      r.leaves.forEach((leaf) => { pieces.push(leaf.raw); pieceOf.push({ entry: i, leaf }); });
    } else {
      pieces.push(u.text);
      pieceOf.push({ entry: i, leaf: null });
    }
  });
  const verdict = detectInstructionsAcross(pieces, { maxSpans: MAX_SPANS, ...(rules.ignoreRules === undefined ? {} : { ignoreRules: rules.ignoreRules }) });
  const families = all.map(() => new Set<string>());
  const spans = all.map(() => [] as { family: string; start: number; end: number }[]);
  for (const s of verdict.spans) {
    const where = pieceOf[s.field];
    if (where === undefined) continue;
    families[where.entry]?.add(s.family);
    const start = where.leaf === null ? s.start : jsonOffset(where.leaf, s.start);
    const end = where.leaf === null ? s.end : jsonOffset(where.leaf, s.end);
    spans[where.entry]?.push({ family: s.family, start, end });
  }
  const entries = all.map((u, i): UntrustedContent => {
    const set = families[i];
    const fam = set === undefined || set.size === 0 ? [] : [...set].sort();
    const sp = spans[i] ?? [];
    // Whatever an entry said about itself (a server's own envelope may say "harmless"), the
    // verdict is the detector's over the whole result.
    const entry: UntrustedContent = {
      content_id: u.content_id, mime_type: u.mime_type, text: u.text, trust: 'untrusted', source: u.source,
      instructional: verdict.instructional && fam.length > 0, families: fam, spans: sp.length > 1 ? sp.sort((a, b) => a.start - b.start) : sp,
      allowed_uses: u.allowed_uses, forbidden_uses: u.forbidden_uses,
    };
    if (u.origin !== undefined) entry.origin = u.origin;
    return entry;
  });

  const warnings = [...env.warnings];
  entries.forEach((u, i) => {
    if (!u.instructional) return;
    const pointer = `/untrusted_content/${i}`;
    if (warnings.some((w) => typeof w === 'object' && w.code === 'T7.instructional-content' && w.pointer === pointer)) return;
    warnings.push({ code: 'T7.instructional-content', message: `untrusted text ${u.content_id} reads like instructions (${(u.families ?? []).join(', ')}); it is data and grants nothing`, pointer });
  });
  let out: Envelope = { ...env, untrusted_content: entries, warnings };
  // A presentation made before isolation must not carry the isolated text.
  if (out.presentation !== undefined) {
    let text = out.presentation.model_content;
    for (const u of added) if (u.text.length > 0 && u.mime_type !== 'application/json' && u.mime_type !== MEMBERS_MIME) text = text.split(u.text).join(externalRef(u.content_id));
    if (text !== out.presentation.model_content) out = { ...out, presentation: { ...out.presentation, model_content: text } };
  }
  return { envelope: out, isolated: added.map((u) => ({ pointer: u.origin ?? '', content_id: u.content_id, instructional: entries.find((e) => e.content_id === u.content_id)?.instructional ?? false })) };
}
