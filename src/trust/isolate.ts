/**
 * Untrusted-content isolation (SPEC T1, T7): external free text leaves `data` for
 * `untrusted_content[]`, and `data` keeps a typed reference `{ "$untrusted": "<content_id>" }`
 * in its place. Facts (numbers, booleans, ids, enums, timestamps) stay in `data`.
 */
import { digest, sha256Hex, type Envelope, type UntrustedContent } from '../contract/index.js';
import { detectInstructions } from './detect-instructions.js';
import { compileGlob, matchesSelfOrAncestor, setAtPath, stringLeaves, type PointerGlob } from './pointer-glob.js';

/** Provenance `source_type`s whose text is untrusted unless a rule says otherwise. */
export const UNTRUSTED_SOURCE_TYPES: readonly string[] = [
  'web', 'email', 'ticket', 'file', 'third_party_api', 'mcp', 'repository', 'agent',
];

/** What the executor allows done with isolated text (T3); the executor, not the prompt, enforces it. */
export const DEFAULT_ALLOWED_USES: readonly string[] = ['summarize', 'quote', 'classify', 'extract_facts', 'translate'];
/** What isolated text may never do. */
export const DEFAULT_FORBIDDEN_USES: readonly string[] = [
  'follow_instructions', 'change_agent_policy', 'authorize_tool_call', 'expand_data_scope',
  'high_risk_arguments_without_confirmation',
];

/** Per-tool isolation rules (usually from the tool's declaration). */
export interface IsolationRules {
  /** Globs (rooted at the envelope, e.g. `/data/body`, `/data/items/*\/note`) of untrusted text fields. */
  readonly untrusted?: readonly string[];
  /** Globs of fields that stay in `data` even when the provenance is untrusted (ids, enums, …). */
  readonly trusted?: readonly string[];
  /** Override the list of untrusted-by-default `source_type`s. */
  readonly untrustedSourceTypes?: readonly string[];
  /**
   * With an untrusted provenance and no explicit rule for a field, a string moves when it looks
   * like free text: at least this many characters and at least one space (default 24), or a line
   * break. Shorter strings are taken for ids, names and enum values.
   */
  readonly freeTextMinLength?: number;
  readonly mimeType?: string;
  readonly allowedUses?: readonly string[];
  readonly forbiddenUses?: readonly string[];
}

/** One field that moved. */
export interface IsolatedField {
  readonly pointer: string;
  readonly content_id: string;
  readonly instructional: boolean;
}

/** Result of {@link isolate}: a new envelope (the input is not modified) and what moved. */
export interface IsolationResult {
  readonly envelope: Envelope;
  readonly isolated: readonly IsolatedField[];
}

function looksLikeFreeText(s: string, minLength: number): boolean {
  if (s.includes('\n')) return true;
  if (s.length < minLength || !s.includes(' ')) return false;
  // Timestamps and bare URLs with spaces encoded are facts, not prose.
  return !/^\d{4}-\d{2}-\d{2}[ T][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?$/.test(s);
}

/**
 * Move external text out of `data` into `untrusted_content[]`, run the instruction detector on
 * it, and leave `{ "$untrusted": id }` behind. Idempotent: references are not moved twice.
 * @example
 * const { envelope } = isolate(env, { untrusted: ['/data/body'] });
 * envelope.data.body // { $untrusted: 'uc_…' }
 */
export function isolate(envelope: Envelope, rules: IsolationRules = {}): IsolationResult {
  const untrustedGlobs: PointerGlob[] = (rules.untrusted ?? []).map(compileGlob);
  const trustedGlobs: PointerGlob[] = (rules.trusted ?? []).map(compileGlob);
  const sourceTypes = rules.untrustedSourceTypes ?? UNTRUSTED_SOURCE_TYPES;
  const provenanceUntrusted = envelope.provenance !== undefined && sourceTypes.includes(envelope.provenance.source_type);
  const minLength = rules.freeTextMinLength ?? 24;
  const out = structuredClone(envelope);
  const existing = new Set((out.untrusted_content ?? []).map((u) => u.content_id));
  const added: UntrustedContent[] = [];
  const isolated: IsolatedField[] = [];
  const source = out.provenance === undefined
    ? { type: 'unknown' }
    : { type: out.provenance.source_type, id: out.provenance.source_id };

  const candidates = [
    ...(out.data === undefined ? [] : stringLeaves(out.data, ['data'])),
    ...(out.error?.details === undefined ? [] : stringLeaves(out.error.details, ['error', 'details'])),
  ];
  for (const leaf of candidates) {
    const explicit = untrustedGlobs.some((g) => matchesSelfOrAncestor(g, leaf.path));
    const trusted = trustedGlobs.some((g) => matchesSelfOrAncestor(g, leaf.path));
    const byProvenance = provenanceUntrusted && !trusted && looksLikeFreeText(leaf.value, minLength);
    if (!explicit && !byProvenance) continue;
    // Deterministic ids keep the digest and audit trail stable across runs.
    const baseId = 'uc_' + sha256Hex(`${out.call.call_id}\u0000${leaf.pointer}`).slice(0, 16);
    let id = baseId;
    for (let k = 2; existing.has(id); k++) id = `${baseId}_${k}`;
    existing.add(id);
    const detection = detectInstructions(leaf.value);
    const entry: UntrustedContent = {
      content_id: id,
      mime_type: rules.mimeType ?? 'text/plain',
      text: leaf.value,
      trust: 'untrusted',
      source,
      instructional: detection.instructional,
      families: [...detection.families],
      spans: detection.spans.map((s) => ({ family: s.family, start: s.start, end: s.end })),
      origin: leaf.pointer,
      allowed_uses: [...(rules.allowedUses ?? DEFAULT_ALLOWED_USES)],
      forbidden_uses: [...(rules.forbiddenUses ?? DEFAULT_FORBIDDEN_USES)],
    };
    added.push(entry);
    setAtPath(out, leaf.path, { $untrusted: id });
    isolated.push({ pointer: leaf.pointer, content_id: id, instructional: detection.instructional });
  }
  if (added.length === 0) return { envelope: out, isolated };

  const base = out.untrusted_content ?? [];
  out.untrusted_content = [...base, ...added];
  added.forEach((u, i) => {
    if (u.instructional) {
      out.warnings.push({
        code: 'T7.instructional-content',
        message: `untrusted text from ${u.origin ?? 'the result'} reads like instructions (${(u.families ?? []).join(', ')}); it is data and grants nothing`,
        pointer: `/untrusted_content/${base.length + i}`,
      });
    }
  });
  // The model-facing text must not carry what was just isolated.
  if (out.presentation !== undefined) {
    let text = out.presentation.model_content;
    for (const u of added) if (u.text.length > 0) text = text.split(u.text).join(`[untrusted content ${u.content_id}]`);
    out.presentation = { ...out.presentation, model_content: text };
  }
  if (out.result_digest !== undefined) out.result_digest = digest(out.data);
  return { envelope: out, isolated };
}
