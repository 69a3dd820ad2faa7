/**
 * The pipeline stages backed by the core modules: visibility and masking (trust `applyVisibility`,
 * `maskEnvelope`), budget (`fit`), evidence (`lintEvidence`, `compareContent`), isolation
 * (trust `isolate`) and the model text (trust `modelProjection`). Each stage only maps the
 * tool's rules onto the module's options; nothing is re-implemented here.
 */
import { fit, resolveBudget, type Budget } from '../budget/index.js';
import { CONTRACT_VERSION, isTrcError, type Envelope, type Warning } from '../contract/index.js';
import { compareContent, lintEvidence, type EvidencePolicy } from '../evidence/index.js';
import { applyVisibility, buildModelContext, compileVisibility, isolate, maskEnvelope, maskText, modelProjection, scrubText, HIDDEN_VALUE, type CompiledVisibility } from '../trust/index.js';
import type { ToolRules } from './rules.js';
import type { EnvelopeStage, StageContext } from './stages.js';

const compiledRules = new WeakMap<ToolRules, CompiledVisibility | null>();
/** The tool's visibility rules, compiled once per rule set. */
export function visibilityOf(rules: ToolRules | null): CompiledVisibility | null {
  if (rules === null) return null;
  let c = compiledRules.get(rules);
  if (c === undefined) {
    c = Object.keys(rules.visibility).length === 0 ? null : compileVisibility({ fields: rules.visibility });
    compiledRules.set(rules, c);
  }
  return c;
}

/**
 * Visibility stage (T6, Z3 step 2): `internal` fields leave `data` and a failure's
 * `error.details` (array items leave a placeholder, so indexes stay), their values are scrubbed
 * from every other text, and secrets are masked in every string and key — before anything is
 * fitted, summarized, stored, isolated or shown.
 */
export function visibilityStage(): EnvelopeStage {
  return (envelope, ctx) => {
    let env = envelope;
    const compiled = visibilityOf(ctx.tool);
    let hidden: readonly string[] = [];
    if (compiled !== null) {
      const r = applyVisibility(env, compiled, 'user');
      env = r.envelope;
      if (r.hidden.removed.length > 0) {
        ctx.notes.contract.push(`internal fields removed: ${r.hidden.removed.join(', ')}`);
        env = { ...env, warnings: [...env.warnings, { code: 'FIELDS_WITHHELD', message: `${r.hidden.removed.length} internal field(s) were withheld by policy` }] };
      }
      hidden = [...r.hidden.values].sort((a, b) => b.length - a.length);
    }
    const m = maskEnvelope(env);
    if (m.masked.length > 0) ctx.notes.contract.push(`secrets masked at ${m.masked.length} place(s)`);
    // External text the trust stage will look for inside our messages: masked and scrubbed alike.
    const texts = ctx.external.errorText;
    for (let i = 0; i < texts.length; i++) texts[i] = scrubText(maskText(texts[i] as string), hidden, HIDDEN_VALUE);
    return m.envelope;
  };
}

/**
 * Cheap upper bounds of a value in one walk: JSON bytes (each UTF-16 unit costs at most 6 bytes,
 * as a `\u0000` escape), longest array, longest string, depth.
 */
function bounds(value: unknown): { bytes: number; items: number; chars: number; depth: number } {
  let items = 0;
  let chars = 0;
  let depth = 0;
  let bytes = 0;
  const walk = (v: unknown, d: number) => {
    if (d > depth) depth = d;
    if (typeof v === 'string') {
      if (v.length > chars) chars = v.length;
      bytes += 6 * v.length + 2;
    } else if (Array.isArray(v)) {
      if (v.length > items) items = v.length;
      bytes += 2 + v.length;
      for (const x of v) walk(x, d + 1);
    } else if (v !== null && typeof v === 'object') {
      bytes += 2;
      const obj = v as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        bytes += 6 * k.length + 4;
        walk(obj[k], d + 1);
      }
    } else {
      bytes += 24; // the longest number, true, false or null
    }
  };
  walk(value, 0);
  return { bytes, items, chars, depth };
}

/** What the boundary of external text costs the model: the block's markers and each piece's label. */
const BOUNDARY = { tokens: 48, bytes: 160, perPieceTokens: 24, perPieceBytes: 96 };

/** How many regions isolation will make, as far as the rules tell before fitting. */
function expectedRegions(rules: ToolRules, env: Envelope): number {
  if (rules.sourceUntrusted && rules.trusted.length === 0) return 1;
  if (!rules.sourceUntrusted && rules.untrusted.length === 0) return 0;
  // Globs name fields per item: count an upper bound cheaply (items of the largest list).
  return Math.min(64, 1 + bounds(env.data).items);
}

/**
 * Budget stage (Z1–Z5): fit the envelope to the tool's budget (over the executor's), with the
 * store for externalized raw results and the executor's clock. The boundary that isolation will
 * add is reserved out of the budget. A result provably within every limit is passed through
 * without tokenizing: a token covers at least one byte, so JSON bytes ≤ maxTokens bounds it.
 */
export function budgetStage(defaults: Budget = {}): EnvelopeStage {
  const base = resolveBudget(defaults);
  const perRules = new WeakMap<ToolRules, Required<Budget>>();
  // Synchronous when nothing needs fitting, so the executor skips an await on the common path.
  return (envelope, ctx) => {
    const rules = ctx.tool;
    if (envelope.data === null || rules === null) return envelope;
    let limits = perRules.get(rules);
    if (limits === undefined) {
      limits = resolveBudget({ ...base, ...rules.budget });
      perRules.set(rules, limits);
    }
    const regions = expectedRegions(rules, envelope);
    const reserve = regions === 0 ? { tokens: 0, bytes: 0 } : {
      tokens: Math.min(Math.floor(limits.maxTokens / 4), BOUNDARY.tokens + regions * BOUNDARY.perPieceTokens),
      bytes: Math.min(Math.floor(limits.maxBytes / 4), BOUNDARY.bytes + regions * BOUNDARY.perPieceBytes),
    };
    const maxTokens = Math.max(32, limits.maxTokens - reserve.tokens);
    const maxBytes = Math.max(128, limits.maxBytes - reserve.bytes);
    const env = shortenTexts(envelope, Math.max(256, Math.min(limits.maxStringChars, Math.floor(maxBytes / 4))));
    const b = bounds(env.data);
    if (b.bytes <= Math.min(maxTokens, maxBytes) && b.items <= limits.maxItems && b.chars <= limits.maxStringChars && b.depth <= limits.maxDepth) return schemaStillHolds(env, rules, ctx);
    return fitToBudget(env, ctx, { ...limits, maxTokens, maxBytes }, rules).then((fitted) => schemaStillHolds(fitted, rules, ctx));
  };
}

/** Warning code: the data no longer matches the tool's output schema, so it is not sent as structured content. */
export const STRUCTURED_CONTENT_WITHHELD = 'STRUCTURED_CONTENT_WITHHELD';

/**
 * S12 after the contract changed the data: a result that matched its output schema may not once
 * internal fields are removed or fitting cut it. Structured content must validate, so such a
 * result says so (the renderer then sends none); the full result is stored when fitting cut it.
 */
function schemaStillHolds(env: Envelope, rules: ToolRules, ctx: StageContext): Envelope {
  const check = rules.validateOutput;
  if (check === null || (env.status !== 'succeeded' && env.status !== 'partial')) return env;
  const cut = env.completeness?.trimmed !== undefined && env.completeness.trimmed.length > 0;
  const filtered = env.warnings.some((w) => typeof w === 'object' && w.code === 'FIELDS_WITHHELD');
  if (!cut && !filtered) return env;
  const r = check(env.data);
  if (r.ok !== false) return env;
  const where = r.findings.slice(0, 3).map((f) => `${f.pointer || '(root)'} ${f.message}`).join('; ');
  const stored = (env.resources ?? []).map((x) => x.uri);
  const why = filtered ? 'internal fields were withheld' : 'the result was cut to fit the budget';
  ctx.notes.contract.push(`output schema no longer holds after ${filtered ? 'visibility' : 'fitting'}: ${where}`);
  const message = `${why}, so the data no longer matches the tool's output schema (${where}) and is not sent as structured content${stored.length > 0 ? `; the full result is stored at ${stored.join(', ')}` : ''}`;
  return { ...env, warnings: [...env.warnings, { code: STRUCTURED_CONTENT_WITHHELD, message }] };
}

/**
 * Text that came with structured content (an MCP result's text blocks) is not data the fit can
 * trim: each is cut to `max` characters here, and the cut is stated in a warning.
 */
function shortenTexts(env: Envelope, max: number): Envelope {
  const entries = env.untrusted_content;
  if (entries === undefined || !entries.some((u) => u.text.length > max)) return env;
  const warnings = [...env.warnings];
  const shortened = entries.map((u, i) => {
    if (u.text.length <= max) return u;
    let end = max;
    const code = u.text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    warnings.push({ code: 'CONTENT_TEXT_SHORTENED', message: `text ${u.content_id} kept ${end} of ${u.text.length} characters to fit the budget; the structured content carries the result`, pointer: `/untrusted_content/${i}` });
    return { ...u, text: u.text.slice(0, end), spans: [] };
  });
  return { ...env, untrusted_content: shortened, warnings };
}

/** The single text block of an MCP result, stored byte for byte (e.g. a file it read). */
function rawText(ctx: StageContext): string | undefined {
  const o = ctx.outcome;
  if (o === null || o.kind !== 'mcp') return undefined;
  const r = o.result as { content?: { type: string; text?: unknown }[] } | null;
  if (r === null || !Array.isArray(r.content) || r.content.length !== 1) return undefined;
  const block = r.content[0];
  return block?.type === 'text' && typeof block.text === 'string' ? maskText(block.text) : undefined;
}

/** The MIME type of a stored text: JSON when it is a JSON document, else plain text. */
function textMime(text: string): string {
  const t = text.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      JSON.parse(text);
      return 'application/json';
    } catch {
      // Plain text that starts with a bracket.
    }
  }
  return 'text/plain; charset=utf-8';
}

async function fitToBudget(envelope: Envelope, ctx: StageContext, budget: Budget, rules: ToolRules): Promise<Envelope> {
  const raw = rawText(ctx);
  const options = {
    principal: ctx.principal.id,
    tool: rules.name,
    callId: ctx.call.call_id,
    now: () => new Date(ctx.now()),
    ...(rules.handleTtlMs === undefined ? {} : { ttlMs: rules.handleTtlMs }),
    // Only an unchanged text is stored as the text: anything masked or filtered stores the envelope.
    ...(raw !== undefined && envelope.warnings.every((w) => typeof w !== 'object' || w.code !== 'FIELDS_WITHHELD') ? { raw, rawMimeType: textMime(raw) } : {}),
  };
  let fitted: Envelope;
  try {
    fitted = await fit(envelope, budget, { store: ctx.store, ...options });
  } catch (cause) {
    // The tool already ran: a store that cannot keep the full result (disk full, closed) costs
    // the link to it, not the answer. Fitting without a store touches no store; what fails
    // there is no store's failure and is thrown.
    const unstored = await fit(envelope, budget, options);
    const why = isTrcError(cause) ? cause.code : cause instanceof Error ? cause.message : String(cause);
    ctx.notes.contract.push(`budget: the full result could not be stored: ${cause instanceof Error ? cause.message : String(cause)}`);
    fitted = { ...unstored, warnings: [...unstored.warnings, { code: 'RESULT_NOT_STORED', message: `the full result could not be stored (${why}), so no link to it is given` }] };
  }
  ctx.notes.contract.push(`budget: ${fitted.completeness?.state ?? 'unknown'}${fitted.resources?.length ? `, raw result stored as ${fitted.resources.map((r) => r.uri).join(', ')}` : ''}`);
  return fitted;
}

/** E7: the text blocks of an MCP result must describe the same observation as its structured content. */
type ObjectWarning = Exclude<Warning, string>;

function contentConsistency(ctx: StageContext, env: Envelope): { citable: boolean; warnings: ObjectWarning[] } | null {
  const o = ctx.outcome;
  if (o === null || o.kind !== 'mcp' || env.status !== 'succeeded' && env.status !== 'partial') return null;
  const r = o.result as { content?: { type: string; text?: unknown }[]; structuredContent?: unknown; isError?: boolean } | null;
  if (r === null || r.isError === true || r.structuredContent === undefined) return null;
  const warnings: ObjectWarning[] = [];
  let citable = true;
  (r.content ?? []).forEach((b, index) => {
    if (b.type !== 'text' || typeof b.text !== 'string') return;
    const res = compareContent(viewData(b.text) ?? b.text, r.structuredContent, { textPointer: `/content/${index}/text` });
    if (res.verdict !== 'mismatch') return;
    citable = false;
    for (const f of res.findings.slice(0, 5)) {
      // The finding quotes the wire text, which the visibility stage never saw: masked here.
      warnings.push({ code: f.rule, message: maskText(`content vs structuredContent (E7) at ${f.pointer}: ${f.message}; the result is not citable and neither side was picked`), pointer: '/data' });
    }
  });
  return { citable, warnings };
}

/** Text rendered by a trc renderer is the contract's model view; E7 compares the data it wraps. */
function viewData(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith('{"contract"')) return undefined;
  try {
    const v = JSON.parse(t) as Record<string, unknown>;
    if (v['contract'] !== CONTRACT_VERSION || !('data' in v)) return undefined;
    return JSON.stringify(v['data']);
  } catch {
    return undefined;
  }
}

/**
 * Evidence stage (E1–E4, E7): lint the evidence, and compare an MCP result's text with its
 * structured content; findings become warnings with their pointers. Warnings about external
 * material are handed to the trust stage, which isolates their text.
 */
export function evidenceStage(policy: EvidencePolicy = {}): EnvelopeStage {
  return (envelope, ctx) => {
    let env = envelope;
    const untrusted = ctx.tool?.sourceUntrusted === true;
    const e7 = contentConsistency(ctx, env);
    if (e7 !== null && e7.warnings.length > 0) {
      for (const w of e7.warnings) {
        ctx.notes.contract.push(`E7 ${w.code}`);
        if (untrusted) ctx.external.warnings.add(w);
      }
      env = { ...env, warnings: [...env.warnings, ...e7.warnings], ...(e7.citable ? {} : { citable: false }) };
    }
    if ((env.evidence ?? []).length === 0) return env;
    const findings = lintEvidence(env, policy);
    if (findings.length === 0) return env;
    for (const f of findings) ctx.notes.contract.push(`evidence ${f.rule} at ${f.pointer}`);
    const warnings: ObjectWarning[] = findings.map((f) => ({ code: f.rule, message: f.message, pointer: f.pointer }));
    if (untrusted) for (const w of warnings) ctx.external.warnings.add(w);
    return { ...env, warnings: [...env.warnings, ...warnings] };
  };
}

/**
 * Trust stage (T1, T7): record the external text of the result — all of it when the source is
 * untrusted, the fields the rules name otherwise, and whatever normalization and the other
 * stages marked (error text, warnings) — as regions in `untrusted_content[]`, and run the
 * instruction detector once over all of it.
 */
export function trustStage(): EnvelopeStage {
  return (envelope, ctx) => {
    const rules = ctx.tool;
    if (rules === null) return envelope;
    const marked = ctx.external.errorText.length > 0 || ctx.external.warnings.size > 0;
    // A trusted source with no declared external text has nothing to isolate; skip the walk.
    if (!rules.sourceUntrusted && rules.untrusted.length === 0 && !marked && (envelope.untrusted_content ?? []).length === 0) return envelope;
    const r = isolate(envelope, {
      untrusted: rules.untrusted,
      trusted: rules.trusted,
      sourceUntrusted: rules.sourceUntrusted,
      source: { type: rules.source.type, id: rules.source.id },
      externalErrorText: ctx.external.errorText,
      externalWarnings: ctx.external.warnings,
      ...(rules.ignoreDetectorRules === undefined ? {} : { ignoreRules: rules.ignoreDetectorRules }),
    });
    for (const f of r.isolated) ctx.notes.model.push(`isolated ${f.content_id}${f.instructional ? ' (instruction-like: must not be followed)' : ''}`);
    return r.envelope;
  };
}

/**
 * The model text (S7, T2): what every renderer shows the model is the trust module's model view
 * of the envelope — facts without `user`-only fields, external text only inside the boundary,
 * instruction-like text withheld. A renderer computes it from the envelope alone (regions are in
 * `untrusted_content`), except where the tool's rules hide `user`-only fields from the model:
 * then the view is made here, with the rules, into `presentation.model_content`. (Writing the
 * text into every envelope doubled what each call stores and cost a fifth of the executor's
 * throughput, for a text any reader can recompute.)
 */
export function modelTextStage(): EnvelopeStage {
  return (envelope, ctx) => {
    const compiled = visibilityOf(ctx.tool);
    if (compiled === null || !compiled.fields.some((f) => f.level === 'user')) {
      // A presentation someone else wrote (a tool, a custom stage) is not the model text.
      if (envelope.presentation === undefined) return envelope;
      const { presentation: _p, ...rest } = envelope;
      return rest;
    }
    const { view } = modelProjection(envelope, { visibility: compiled, masked: true });
    return withPresentation(envelope, JSON.stringify(view));
  };
}

/** Set the presentation, keeping `result_digest` the last key (the finalize fast path looks for it). */
export function withPresentation(envelope: Envelope, text: string): Envelope {
  const { result_digest: d, presentation: _old, ...rest } = envelope;
  const out: Envelope = { ...rest, presentation: { model_content: text, user_visible: true } };
  if (d !== undefined) out.result_digest = d;
  return out;
}

/**
 * Labelled-parts presentation: the trust module's model context (facts, evidence, completeness,
 * warnings, and each external text inside its own boundary) as the model text. The fixed policy
 * part belongs in the system prompt and is left to the adapters.
 */
export function presentStage(): EnvelopeStage {
  return (envelope, ctx) => {
    const compiled = visibilityOf(ctx.tool);
    const mc = buildModelContext(envelope, { includePolicy: false, ...(compiled === null ? {} : { visibility: { fields: ctx.tool?.visibility ?? {} } }) });
    return withPresentation(envelope, mc.parts.filter((p) => p.role === 'tool').map((p) => p.text).join('\n\n'));
  };
}

/** @deprecated the default model text applies the visibility rules already; use {@link modelTextStage}. */
export const modelFactsStage = modelTextStage;
