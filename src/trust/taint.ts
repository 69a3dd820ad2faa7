/**
 * Argument taint by value flow (SPEC T3): an argument is tainted when it — or a run of at
 * least {@link TAINT_MIN_CHARS} significant characters inside it — occurs in untrusted content
 * seen earlier in the run, compared in taint form (case, spacing and punctuation folded, NFKC,
 * look-alikes folded, URL/HTML escapes decoded: `taint-normalize.ts`), and that run is not also
 * in trusted text (the user's prompt, facts from trusted sources). An IBAN copied with other
 * spacing, an address in capitals, a URL-encoded value, a value split over two fields of the
 * result, a value embedded in a longer argument and an exfiltration URL built from an untrusted
 * prefix plus trusted data are all traced. An e-mail address or a host name too short for a
 * window (`z@qz.io`, `https://qz.io/c`) is traced as a whole name (short-names). The index is
 * built once per piece of content and looked up per window, so the cost is linear in the
 * content plus the arguments.
 */
import type { UntrustedContent } from '../contract/index.js';
import { argumentLeaves } from './argument-leaves.js';
import { significantLength } from './email-addresses.js';
import { GramTable } from './gram-table.js';
import { argumentNames, shortNames } from './short-names.js';
import { spokenValues } from './spoken-values.js';
import { decodedRunsByKind, reversedForm, rot13Form, type TaintEncoding } from './taint-encodings.js';
import { charCodeTexts } from './char-codes.js';
import { leetWords } from './leet-tokens.js';
import { morseTexts } from './morse-code.js';
import { shortPieces } from './split-values.js';
import { TAINT_MIN_CHARS, taintForm, taintForms, taintViews, unescapedTexts } from './taint-normalize.js';
import { taintKindOf, type TaintKind } from './taint-kind.js';
import { textAroundPlaceholders } from './own-placeholders.js';
import { trustedReadings, untaggedTexts } from './taint-readings.js';

export type { TaintKind } from './taint-kind.js';
export { trustedReadings };

/** One tainted argument: which, how much of it, and where that text came from. */
export interface Taint {
  /** JSON Pointer into the call's arguments, e.g. `/to`. */
  readonly argument: string;
  /** The argument's text (at most 120 characters). */
  readonly value: string;
  /** Significant characters of the argument traced to untrusted content. */
  readonly matched: number;
  /** The untrusted content it came from (the first piece that holds a traced run). */
  readonly content_id: string;
  /** That content's source, `type:id` (e.g. `file:read_file`). */
  readonly source: string;
  /** The call whose result carried that content, when known. */
  readonly call_id?: string;
  readonly kind: TaintKind;
  /** How the content wrote the value, when it was not as it is: base64, hex, binary, backwards, ROT13, in words, split across fields, as character codes, in leetspeak or in Morse code. */
  readonly encoding?: TaintEncoding;
}

/** A piece of untrusted content, as a run records it. */
export interface TaintContent {
  readonly content_id: string;
  readonly text: string;
  readonly source: UntrustedContent['source'];
  readonly call_id?: string;
}

/** Where a traced value was found: its origin, how many characters, and the reading that found it. */
interface Trace { readonly origin: number; readonly matched: number; readonly reading?: 'reversed' | 'rot13' | 'split' }

interface Origin { readonly content_id: string; readonly source: string; readonly call_id?: string; readonly encoding?: TaintEncoding }

/**
 * An origin numbered on first use. Most content a long run reads adds nothing a look-up can
 * return (its windows are stored already, or the index is full), and such content must not
 * cost the run memory for the rest of its life.
 */
class PendingOrigin {
  id = -1;
  constructor(readonly origin: Origin) {}
}

/** Options of a {@link TaintIndex}. */
export interface TaintIndexOptions {
  /** Distinct windows kept per side before the index counts as full (default 2 Mi: ~50 MB of table a side at worst). */
  readonly maxGrams?: number;
}

const DEFAULT_MAX_GRAMS = 2 * 1024 * 1024;
/** A character that can start an escape (URL `%XX`, an HTML entity, `\u`): only then has a text more than one form. */
const ESCAPE_SIGN = /[%&\\]/;
const PIECE_START_BITS = 1 << 16;
/** The bit of the two units of `form` at `i` (see `TaintIndex.pieceStarts`). */
const pieceStart = (form: string, i: number): number => (Math.imul(form.charCodeAt(i), 0x9e37) + form.charCodeAt(i + 1)) & (PIECE_START_BITS - 1);
/** Fewest significant characters of an argument assembled from short pieces of content. */
const MIN_ASSEMBLED = 8;
/** Fewest short pieces such an argument is made of (two common words side by side are no value). */
const MIN_ASSEMBLED_PIECES = 3;
/** A short piece of content counts from this many significant characters (one letter is no piece). */
const MIN_ASSEMBLY_PIECE = 2;
/** Argument forms longer than this are not read as assembled from short pieces (a value to assemble is short). */
const MAX_ASSEMBLED_FORM = 128;
/** Distinct short names kept a side (each is a few bytes; more is not a realistic run). */
const MAX_SHORT_NAMES = 65_536;
/** `type:id` of a content source. */
export function taintSourceLabel(source: UntrustedContent['source']): string {
  return typeof source === 'string' ? source : `${source.type}:${source.id}`;
}


/**
 * The untrusted and trusted text of one run, indexed for taint look-ups.
 * @example
 * const index = new TaintIndex();
 * index.addUntrusted({ content_id: 'uc_1', text: 'pay DE89 3704 0044 0532 0130 00', source: { type: 'file', id: 'bill' } });
 * index.taintOf({ iban: 'de89370400440532013000' })[0]?.argument // '/iban'
 */
export class TaintIndex {
  private readonly untrusted: GramTable;
  private readonly trusted: GramTable;
  // Origins that something in the index refers to, by number.
  private readonly origins: Origin[] = [];
  // Piece of the untrusted gram table → its origin's number.
  private readonly pieceOrigins: number[] = [];
  // Names too short for a window, compared whole: name → the origin of the content that held it first.
  private readonly shortNames = new Map<string, number>();
  private readonly trustedNames = new Set<string>();
  // Short pieces of untrusted content (short JSON values and keys, short texts) → the content's origin.
  private readonly pieces = new Map<string, number>();
  // The first two units of every piece, hashed to a bit: most positions of an argument start no
  // piece, and this answers so without cutting a string for the look-up.
  private readonly pieceStarts = new Uint8Array(PIECE_START_BITS / 8);

  constructor(options: TaintIndexOptions = {}) {
    const max = options.maxGrams ?? DEFAULT_MAX_GRAMS;
    this.untrusted = new GramTable(max);
    this.trusted = new GramTable(max);
  }

  /** Record untrusted content (every view of its text, and the runs of it that decode). */
  addUntrusted(content: TaintContent): void {
    const origin: Origin = { content_id: content.content_id, source: taintSourceLabel(content.source), ...(content.call_id === undefined ? {} : { call_id: content.call_id }) };
    const own = new PendingOrigin(origin);
    const encoded = (encoding: TaintEncoding) => new PendingOrigin({ ...origin, encoding });
    let any = false;
    // Our own placeholders (a masked secret, a hidden value) are not the source's words.
    for (const part of textAroundPlaceholders(content.text)) any = this.addText(part, own, encoded) || any;
    if (any) this.addShortPieces(content.text, own);
  }

  /** Index one stretch of a content's text from `own` (and its encodings); whether it had any form. */
  private addText(text: string, own: PendingOrigin, encoded: (encoding: TaintEncoding) => PendingOrigin): boolean {
    const texts = [...unescapedTexts(text), ...untaggedTexts(text)];
    const any = this.addPieces(texts, own);
    this.addShortNames(texts, own);
    // Decoded runs are pieces of their own, so a finding can say the value was encoded there.
    for (const run of decodedRunsByKind(texts)) {
      const decoded = unescapedTexts(run.text);
      const from = encoded(run.kind);
      if (this.addPieces(decoded, from)) this.addShortNames(decoded, from);
    }
    // Values read out in words ("G B eight two, …"), given as character codes, in leetspeak or
    // in Morse code are pieces of their own too.
    for (const value of spokenValues(text)) this.addPieces([value], encoded('words'));
    for (const value of charCodeTexts(text)) this.addPieces(unescapedTexts(value), encoded('char_codes'));
    for (const value of leetWords(text)) this.addPieces([value], encoded('leet'));
    for (const value of morseTexts(text)) this.addPieces([value], encoded('morse'));
    return any;
  }

  /** The number of `pending`'s origin, recording it on first use. */
  private originOf(pending: PendingOrigin): number {
    if (pending.id < 0) {
      pending.id = this.origins.length;
      this.origins.push(pending.origin);
    }
    return pending.id;
  }

  /**
   * Keep the short pieces of `text` (see {@link shortPieces}) for arguments assembled from them,
   * and index its runs of short values and keys as pieces of their own.
   */
  private addShortPieces(text: string, own: PendingOrigin): void {
    const { pieces, runs } = shortPieces(text);
    const split = new PendingOrigin({ ...own.origin, encoding: 'split' });
    for (const run of runs) this.addPieces(unescapedTexts(run), split);
    for (const short of pieces) {
      // Most pieces have nothing to unescape: their one form is enough.
      for (const form of ESCAPE_SIGN.test(short) ? taintViews(short) : [taintForm(short)]) {
        if (form.length < MIN_ASSEMBLY_PIECE || form.length >= TAINT_MIN_CHARS || this.pieces.has(form) || this.pieces.size >= MAX_SHORT_NAMES) continue;
        this.pieces.set(form, this.originOf(own));
        const bit = pieceStart(form, 0);
        this.pieceStarts[bit >> 3] = (this.pieceStarts[bit >> 3] as number) | (1 << (bit & 7));
      }
    }
  }

  /** Record trusted text: a run found here is not taint, even when untrusted content has it too. */
  addTrusted(text: string): void {
    const texts = trustedReadings(text);
    for (const view of taintForms(texts)) this.trusted.add(view);
    for (const name of shortNames(texts)) if (this.trustedNames.size < MAX_SHORT_NAMES) this.trustedNames.add(name);
  }

  /** Index the taint forms of `texts` as pieces from `origin`; whether `texts` had any form. */
  private addPieces(texts: readonly string[], origin: PendingOrigin): boolean {
    let any = false;
    for (const view of taintForms(texts)) {
      any = true;
      const piece = this.untrusted.add(view);
      if (piece >= 0) this.pieceOrigins[piece] = this.originOf(origin);
    }
    return any;
  }

  private addShortNames(texts: readonly string[], origin: PendingOrigin): void {
    for (const name of shortNames(texts)) {
      if (!this.shortNames.has(name) && this.shortNames.size < MAX_SHORT_NAMES) this.shortNames.set(name, this.originOf(origin));
    }
  }

  /**
   * True once the untrusted side stopped storing new windows: a run that saw this much text
   * cannot vouch for any argument, so callers treat every checked argument as tainted.
   */
  get saturated(): boolean {
    return this.untrusted.full;
  }

  /** Work and memory counters of both sides, for tests that count instead of timing. */
  stats(): { untrusted: ReturnType<GramTable['stats']>; trusted: ReturnType<GramTable['stats']>; origins: number } {
    return { untrusted: this.untrusted.stats(), trusted: this.trusted.stats(), origins: this.origins.length };
  }

  /**
   * The tainted arguments of `args`, one finding per tainted leaf, in argument order. With the
   * tool's `inputSchema`, member names it treats as data (a map's keys) are checked too.
   */
  taintOf(args: unknown, inputSchema?: unknown): Taint[] {
    const out: Taint[] = [];
    const leaves = argumentLeaves(args, inputSchema);
    const joined = this.traceShortRuns(leaves);
    for (const [n, leaf] of leaves.entries()) {
      const views = taintViews(leaf.value);
      const hit: Trace | null = this.traceLeaf(views) ?? joined.get(n) ?? this.traceShortName(leaf.value) ?? this.traceAssembled(views);
      if (hit === null) continue;
      const origin = this.origins[hit.origin] as Origin;
      const encoding = hit.reading ?? origin.encoding;
      out.push({
        argument: leaf.pointer,
        value: leaf.value.length > 120 ? `${leaf.value.slice(0, 119)}…` : leaf.value,
        matched: hit.matched,
        content_id: origin.content_id,
        source: origin.source,
        ...(origin.call_id === undefined ? {} : { call_id: origin.call_id }),
        kind: taintKindOf(leaf.value),
        ...(encoding === undefined ? {} : { encoding }),
      });
    }
    return out;
  }

  /**
   * Leaves too short to be traced alone (fewer than 6 significant characters) that are traced
   * together: an attacker's value cut into several short arguments (`"US13"`, `"3000"`, …) is
   * read as the run of those arguments, in order. Only windows crossing a leaf boundary count,
   * and they taint every short leaf they cover.
   */
  private traceShortRuns(leaves: readonly { value: string }[]): Map<number, Trace> {
    const found = new Map<number, Trace>();
    let start = 0;
    while (start < leaves.length) {
      let end = start;
      const forms: string[] = [];
      while (end < leaves.length) {
        const form = taintViews((leaves[end] as { value: string }).value)[0] as string;
        if (form.length >= TAINT_MIN_CHARS) break;
        forms.push(form);
        end++;
      }
      if (end - start >= 2) {
        const text = forms.join('');
        const owner: number[] = [];
        forms.forEach((f, k) => { for (let c = 0; c < f.length; c++) owner.push(start + k); });
        for (let i = 0; i + TAINT_MIN_CHARS <= text.length; i++) {
          const first = owner[i] as number;
          const last = owner[i + TAINT_MIN_CHARS - 1] as number;
          if (first === last) continue;
          const piece = this.untrusted.find(text, i);
          if (piece < 0 || this.trusted.find(text, i) >= 0) continue;
          const origin = this.pieceOrigins[piece] as number;
          for (let k = first; k <= last; k++) if (!found.has(k)) found.set(k, { origin, matched: (forms[k - start] as string).length });
        }
      }
      start = Math.max(end, start + 1);
    }
    return found;
  }

  /**
   * A stretch of the argument's form (one of `views`), {@link MIN_ASSEMBLED} characters or more,
   * made of {@link MIN_ASSEMBLED_PIECES} short pieces of untrusted content or more one after
   * another (`GB39` + `MIDL` + `4005` …), with a window trusted text does not have; or null. Each
   * position is reached from the pieces that can end there, so the pass is linear; forms longer
   * than {@link MAX_ASSEMBLED_FORM} are not read this way.
   */
  private traceAssembled(views: readonly string[]): Trace | null {
    if (this.pieces.size === 0) return null;
    for (const form of views) {
      if (form.length < MIN_ASSEMBLED || form.length > MAX_ASSEMBLED_FORM) continue;
      // from[i]: where the longest run of pieces ending at i starts (-1: no piece ends at i);
      // count[i]: how many pieces that run has; by[i]: the origin of its last piece.
      const from = new Int32Array(form.length + 1).fill(-1);
      const count = new Int32Array(form.length + 1);
      const by = new Int32Array(form.length + 1).fill(-1);
      for (let i = MIN_ASSEMBLY_PIECE; i <= form.length; i++) {
        for (let n = MIN_ASSEMBLY_PIECE; n < TAINT_MIN_CHARS && n <= i; n++) {
          const bit = pieceStart(form, i - n);
          if (((this.pieceStarts[bit >> 3] as number) & (1 << (bit & 7))) === 0) continue;
          const origin = this.pieces.get(form.slice(i - n, i));
          if (origin === undefined) continue;
          const chained = (from[i - n] as number) >= 0;
          const start = chained ? (from[i - n] as number) : i - n;
          if ((from[i] as number) >= 0 && start >= (from[i] as number)) continue;
          from[i] = start;
          count[i] = chained ? (count[i - n] as number) + 1 : 1;
          by[i] = origin;
        }
        const start = from[i] as number;
        if (start < 0 || i - start < MIN_ASSEMBLED || (count[i] as number) < MIN_ASSEMBLED_PIECES || !this.untrustedStretch(form, start, i)) continue;
        return { origin: by[i] as number, matched: i - start, reading: 'split' };
      }
    }
    return null;
  }

  /** Whether trusted text lacks some window of `form[start, end)`. */
  private untrustedStretch(form: string, start: number, end: number): boolean {
    for (let i = start; i + TAINT_MIN_CHARS <= end; i++) if (this.trusted.find(form, i) < 0) return true;
    return false;
  }

  /** A short name in `value` (an address, a host) that untrusted content holds and trusted text does not, or null. */
  private traceShortName(value: string): Trace | null {
    if (this.shortNames.size === 0) return null;
    for (const name of argumentNames(value)) {
      const origin = this.shortNames.get(name);
      if (origin !== undefined && !this.trustedNames.has(name)) return { origin, matched: significantLength(name) };
    }
    return null;
  }

  /**
   * The first piece holding a traced window, and how many characters are traced, or null. Each
   * view of the value is also read backwards and ROT13-rotated: content that spelt the value so
   * (for the model to undo) holds those windows.
   */
  private traceLeaf(views: readonly string[]): Trace | null {
    let best: Trace | null = null;
    for (const view of views) {
      if (view.length < TAINT_MIN_CHARS) continue;
      for (const [read, forward, reading] of [[view, identity, undefined], [reversedForm(view), backwards, 'reversed'], [rot13Form(view), identity, 'rot13']] as const) {
        if (read === null) continue;
        const hit = this.traceView(read, view, forward);
        if (hit !== null && (best === null || hit.matched > best.matched)) best = reading === undefined ? hit : { ...hit, reading };
      }
    }
    return best;
  }

  /**
   * Windows of `read` (a view of the argument's form `form`) found in untrusted content, where
   * neither that window nor the argument's own window it stands for (`forward` maps the offset)
   * is in trusted text.
   */
  private traceView(read: string, form: string, forward: (i: number, n: number) => number): Trace | null {
    let first = -1;
    let matched = 0;
    let coveredTo = 0;
    for (let i = 0; i + TAINT_MIN_CHARS <= read.length; i++) {
      const piece = this.untrusted.find(read, i);
      if (piece < 0 || this.trusted.find(read, i) >= 0) continue;
      if (read !== form && this.trusted.find(form, forward(i, read.length)) >= 0) continue;
      if (first < 0) first = piece;
      // Characters covered by the union of traced windows.
      const end = i + TAINT_MIN_CHARS;
      matched += end - Math.max(i, coveredTo);
      coveredTo = end;
    }
    return first < 0 ? null : { origin: this.pieceOrigins[first] as number, matched };
  }
}

const identity = (i: number): number => i;
// The window at `i` of a reversed text of `n` units is the reverse of the window ending at n - i.
const backwards = (i: number, n: number): number => n - i - TAINT_MIN_CHARS;
