/**
 * Split an answer into sentences (the claims the checker judges). Ends a sentence at CJK
 * 。！？, Latin . ! ?, and line breaks — but not at a decimal point ("27.4"), a dot inside an
 * id ("report.v2", "ord.1001"), a common abbreviation ("e.g.", "No."), an initial ("J. Smith"),
 * a list number ("1. "), or inside quotes. A citation marker right after the end belongs to the
 * sentence before it ("…已发货。[ev_001]").
 */
import { MARKER_SOURCE } from './citations.js';

/** One sentence and where it sits in the original text. */
export interface Sentence {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'etc', 'vs', 'mr', 'mrs', 'ms', 'dr', 'prof', 'no', 'nos', 'approx', 'inc', 'ltd', 'co', 'corp', 'jr', 'sr', 'st',
  'fig', 'cf', 'u.s', 'a.m', 'p.m', 'est', 'dept', 'ca', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);
const HARD_ENDS = new Set(['。', '！', '？', '!', '?', '\n']);
const CLOSERS = new Set(['"', '”', '」', '』', ')', '）', "'", '’']);
const OPENERS: ReadonlyMap<string, string> = new Map([['“', '”'], ['「', '」'], ['『', '』']]);
const LEADING_MARKERS = new RegExp(`^(?:\\s*${MARKER_SOURCE})+`, 'u');

const QUOTE_CLOSERS = new Set(['"', '”', '」', '』']);

/** A closing quote whose text ended a sentence ("… Fragile." ) ends the sentence too. */
function endsQuote(text: string, i: number): boolean {
  const before = text[i - 1] ?? '';
  const next = text[i + 1];
  return (HARD_ENDS.has(before) || before === '.') && (next === undefined || /[\s[【]/.test(next));
}

function wordBefore(text: string, dot: number): string {
  let i = dot;
  while (i > 0 && /[A-Z.]/i.test(text[i - 1] ?? '')) i--;
  return text.slice(i, dot).toLowerCase();
}

function dotEndsSentence(text: string, i: number, sentenceStart: number): boolean {
  const next = text[i + 1];
  if (next !== undefined && !/\s/.test(next) && !CLOSERS.has(next) && next !== '[' && next !== '【') return false;
  const word = wordBefore(text, i);
  if (ABBREVIATIONS.has(word.replace(/^\./, ''))) return false;
  if (/^[A-Z]$/.test(text.slice(i - 1, i)) && !/[A-Z]/i.test(text[i - 2] ?? ' ')) return false; // initial
  if (/^\s*(?:\d{1,2}|[a-z])$/i.test(text.slice(sentenceStart, i))) return false; // list number
  return true;
}

/**
 * Split `text` into sentences with their offsets.
 * @example splitSentences('Stock is 27.4 kg. 订单已发货。[ev_001]').map((s) => s.text)
 * // ['Stock is 27.4 kg.', '订单已发货。[ev_001]']
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  let closeQuote: string | null = null;
  let asciiQuote = false;
  let i = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body !== '') out.push({ text: body, start: start + lead, end: start + lead + body.length });
    start = end;
  };
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '\n') {
      closeQuote = null;
      asciiQuote = false;
    } else if (closeQuote !== null) {
      if (ch === closeQuote) closeQuote = null;
      if (closeQuote !== null || !endsQuote(text, i)) {
        i++;
        continue;
      }
    } else if (OPENERS.has(ch)) {
      closeQuote = OPENERS.get(ch) ?? null;
      i++;
      continue;
    } else if (ch === '"') {
      asciiQuote = !asciiQuote;
      if (asciiQuote || !endsQuote(text, i)) {
        i++;
        continue;
      }
    }
    const ends = !asciiQuote && (HARD_ENDS.has(ch) || (ch === '.' && dotEndsSentence(text, i, start)) || QUOTE_CLOSERS.has(ch));
    if (!ends) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && (HARD_ENDS.has(text[end] ?? '') && text[end] !== '\n' || text[end] === '.' || CLOSERS.has(text[end] ?? ''))) end++;
    const markers = LEADING_MARKERS.exec(text.slice(end));
    if (markers !== null) end += markers[0].length;
    push(end);
    i = end;
  }
  push(text.length);
  return out;
}
