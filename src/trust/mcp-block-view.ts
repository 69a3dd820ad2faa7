/**
 * The model view of an MCP result's own content blocks (T1, T2, T7). The MCP renderer gives the
 * client the blocks the upstream sent, in order; this decides what the *text* in them may say:
 * - text of an untrusted source stands inside a boundary (one random token per result, which no
 *   text contains), labelled with its region, its source and, when flagged, why;
 * - instruction-like text is withheld the way the model view withholds it (a whole field of a
 *   JSON region, whole lines of a text region);
 * - an embedded resource whose text was flagged is withheld;
 * - the contract view (status, facts, evidence, warnings, …) does not repeat a region that the
 *   blocks already show in full, so a small result renders small.
 * Binary blocks and resource links are the renderer's business: they carry no model text here.
 */
import { parsePointer, type Envelope, type Json, type UntrustedContent } from '../contract/index.js';
import { maskEnvelope } from './mask-envelope.js';
import { boundary, modelProjection, pooledRandom, shownText, sourceLabel, WITHHELD_TEXT } from './model-view.js';

/** What {@link mcpBlockView} decided for a result's blocks. */
export interface McpBlockView {
  /** Index of a text block → the text the model may read in it. */
  readonly texts: ReadonlyMap<number, string>;
  /**
   * Fields of resource links (`name`, `title`, `description`) and embedded resources (`text`)
   * withheld as instruction-like, by block index.
   */
  readonly withheld: ReadonlyMap<number, ReadonlySet<string>>;
  /** The contract view (JSON text) to add as its own block. */
  readonly contractText: string;
}

const JSON_MIME = new Set(['application/json', 'application/vnd.trc.members+json']);

/** The value at `tokens` under `value`, or undefined. */
function at(value: unknown, tokens: readonly string[]): unknown {
  let v = value;
  for (const t of tokens) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[t];
  }
  return v;
}

/** The region (entry) that holds `pointer`, outermost first. */
function regionOf(entries: readonly UntrustedContent[], pointer: string): UntrustedContent | undefined {
  let best: UntrustedContent | undefined;
  for (const u of entries) {
    const o = u.origin;
    if (o === undefined || !(pointer === o || pointer.startsWith(o + '/'))) continue;
    if (best === undefined || (best.origin ?? '').length > o.length) best = u;
  }
  return best;
}

/** What the model may read of the value at `pointer` inside region `u` (parsed once per region). */
function shownValue(u: UntrustedContent, pointer: string, cache: Map<string, unknown>): unknown {
  const origin = u.origin ?? '';
  if (!JSON_MIME.has(u.mime_type)) return pointer === origin ? shownText(u) : undefined;
  let parsed = cache.get(u.content_id);
  if (parsed === undefined) {
    try {
      parsed = JSON.parse(shownText(u)) as unknown;
    } catch {
      parsed = WITHHELD_TEXT;
    }
    cache.set(u.content_id, parsed);
  }
  const rel = parsePointer(pointer.slice(origin.length) || '');
  return Array.isArray(rel) ? at(parsed, rel) : undefined;
}

/** True when the only string value under `origin` (keys aside) is the one at `pointer`. */
function onlyTextAt(envelope: Envelope, origin: string, pointer: string): boolean {
  const tokens = parsePointer(origin);
  if (!Array.isArray(tokens)) return false;
  let found: string | null = null;
  let count = 0;
  const walk = (v: unknown, p: string): void => {
    if (count > 1) return;
    if (typeof v === 'string') {
      count++;
      found = p;
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, `${p}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(at(envelope, tokens), origin);
  return count === 1 && found === pointer;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/**
 * Decide the model-facing text of an MCP result's blocks. `blocks` are the envelope's normalized
 * blocks (`data.content`, or `extensions.mcp.content` beside structured content) and `base` the
 * pointer of that array.
 * @example mcpBlockView(env, env.data.content, '/data/content').texts.get(0) // '<<<EXTERNAL_CONTENT …'
 */
export function mcpBlockView(unmasked: Envelope, blocks: readonly Json[], base: string, random: (n: number) => Uint8Array = pooledRandom): McpBlockView {
  // Free for an envelope the executor marked masked.
  const envelope = maskEnvelope(unmasked).envelope;
  const entries = envelope.untrusted_content ?? [];
  const cache = new Map<string, unknown>();
  const plain = new Map<number, { text: string; region?: UntrustedContent; pointer: string }>();
  const withheld = new Map<number, Set<string>>();
  const shownIn = new Map<string, number>();
  let everyBlockShown = true;
  let errorTextShown = false;
  blocks.forEach((raw, i) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    if (b['type'] === 'text') {
      const id = b['content_id'];
      const copyOf = b['serializes'];
      if (typeof id === 'string') {
        // An error result's text blocks became its error message (one region): the first of
        // them shows that message, so the client reads the error as the server wrote it.
        const u = entries.find((e) => e.content_id === id) ?? (errorTextShown ? undefined : entries.find((e) => e.origin === '/error/message'));
        if (u !== undefined) {
          if (u.origin === '/error/message') errorTextShown = true;
          plain.set(i, { text: shownText(u), region: u, pointer: u.origin ?? `${base}/${i}/text` });
          shownIn.set(u.content_id, i);
        }
        return;
      }
      const pointer = typeof copyOf === 'string' ? copyOf : `${base}/${i}/text`;
      const u = regionOf(entries, pointer);
      const tokens = parsePointer(pointer);
      const value = u === undefined ? (Array.isArray(tokens) ? at(envelope, tokens) : undefined) : shownValue(u, pointer, cache);
      plain.set(i, { text: asText(value), ...(u === undefined ? {} : { region: u }), pointer });
      // A copy of a whole region, or of its only text, shows all of it.
      if (u !== undefined && (u.origin === pointer || onlyTextAt(envelope, u.origin ?? '', pointer))) shownIn.set(u.content_id, i);
      return;
    }
    if (b['type'] === 'image' || b['type'] === 'audio') return;
    everyBlockShown = false;
    const fields = b['type'] === 'resource_link' ? ['name', 'title', 'description'] : b['type'] === 'resource' ? ['text'] : [];
    for (const f of fields) {
      if (typeof b[f] !== 'string') continue;
      const pointer = `${base}/${i}/${f}`;
      const u = regionOf(entries, pointer);
      if (u === undefined) continue;
      // The block itself shows these words (beside structured content they are a region of their own).
      if (u.origin === `${base}/${i}`) shownIn.set(u.content_id, i);
      if (u.instructional && shownValue(u, pointer, cache) !== b[f]) {
        let set = withheld.get(i);
        if (set === undefined) withheld.set(i, (set = new Set()));
        set.add(f);
      }
    }
  });
  // The data region of a result made only of text (and binary) blocks is shown by its blocks.
  if (everyBlockShown && base === '/data/content') {
    const data = entries.find((u) => u.origin === '/data' || u.origin === '/data/content');
    const firstText = [...plain.keys()][0];
    if (data !== undefined && firstText !== undefined) shownIn.set(data.content_id, firstText);
  }
  const wrapped = [...plain.values()].filter((p) => p.region !== undefined).map((p) => p.text);
  const token = wrapped.length === 0 ? '' : boundary(wrapped, random);
  const texts = new Map<number, string>();
  for (const [i, p] of plain) {
    const u = p.region;
    if (u === undefined) {
      texts.set(i, p.text);
      continue;
    }
    const flagged = u.instructional && p.text.includes(WITHHELD_TEXT) ? `; instruction-like (${(u.families ?? []).join(', ') || 'yes'}): withheld where flagged` : '';
    const label = `[${u.content_id} at ${p.pointer}; source ${sourceLabel(u.source)}${flagged}]`;
    texts.set(i, `<<<EXTERNAL_CONTENT ${token}>>>\n${label}\n${p.text}\n<<<END_EXTERNAL_CONTENT ${token}>>>`);
  }
  const contractText = envelope.presentation?.model_content ?? JSON.stringify(modelProjection(envelope, { masked: true, shownInBlocks: shownIn, randomBytes: random }).view);
  return { texts, withheld, contractText };
}
