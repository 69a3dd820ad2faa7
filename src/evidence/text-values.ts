/**
 * Pull the checkable values out of a piece of prose: numbers, dates/times, ids and quoted
 * strings. Each match is masked before the next kind is looked for, so the "18" of "18:20" or
 * the "1001" of "ord_1001" is never read again as a number.
 */
import { MARKER_SOURCE } from './citations.js';
import { ZONE_SOURCE, makeDate, makeMinutes, zoneOffset, type WallTime } from './datetime.js';

/** A value stated in text. `raw` is the text as written (after Unicode NFKC folding). */
export type TextValue =
  | { readonly kind: 'number'; readonly raw: string; readonly value: number; readonly decimals: number; readonly percent: boolean }
  | { readonly kind: 'datetime'; readonly raw: string; readonly value: WallTime }
  | { readonly kind: 'id'; readonly raw: string; readonly value: string }
  | { readonly kind: 'quote'; readonly raw: string; readonly value: string };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_SOURCE = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

const DATE_SOURCE =
  '(?:(?<y1>\\d{4})-(?<m1>\\d{1,2})-(?<d1>\\d{1,2})' +
  '|(?<y2>\\d{4})/(?<m2>\\d{1,2})/(?<d2>\\d{1,2})' +
  '|(?<y3>\\d{4})\\s{0,3}年\\s{0,3}(?<m3>\\d{1,2})\\s{0,3}月\\s{0,3}(?<d3>\\d{1,2})\\s{0,3}[日号]?' +
  `|(?<mn4>${MONTH_SOURCE})\\.?\\s{1,3}(?<d4>\\d{1,2})(?:st|nd|rd|th)?,?\\s{1,3}(?<y4>\\d{4})` +
  `|(?<d5>\\d{1,2})(?:st|nd|rd|th)?\\s{1,3}(?<mn5>${MONTH_SOURCE})\\.?,?\\s{1,3}(?<y5>\\d{4}))`;

/** Time of day; `k` keeps group names unique because the pattern is used twice. */
const timeSource = (k: string): string =>
  `(?:(?<h1${k}>\\d{1,2}):(?<mi1${k}>\\d{2})(?::(?<s1${k}>\\d{2})(?:\\.\\d+)?)?` +
  `|(?<h2${k}>\\d{1,2})\\s{0,3}[时点]\\s{0,3}(?<mi2${k}>\\d{1,2})\\s{0,3}分?(?:\\s{0,3}(?<s2${k}>\\d{1,2})\\s{0,3}秒)?)` +
  `(?:\\s{0,3}(?<ampm${k}>[ap]\\.?m\\.?)(?![a-z]))?`;

const ZONE_AFTER = `(?:\\s{0,3}\\(?\\s{0,3}(?<zone>${ZONE_SOURCE})\\s{0,3}\\)?)?`;
const ZONE_BEFORE = '(?:(?<prezone>北京时间|中国标准时间|Beijing time|UTC|GMT)\\s{0,3}:?\\s{0,3})?';

const DATETIME = new RegExp(
  `(?<![\\d.:])${ZONE_BEFORE}(?:${DATE_SOURCE}(?:(?:\\s{0,3}[T,]\\s{0,3}|\\s{0,3}(?:at\\s{1,3})?)${timeSource('a')})?|${timeSource('b')})${ZONE_AFTER}(?![\\d:])`,
  'giu',
);
const QUOTE = /"([^"\n]{1,500})"|“([^”\n]{1,500})”|「([^」\n]{1,500})」|『([^』\n]{1,500})』|(?<![A-Za-z])'([^'\n]{1,200})'(?![A-Za-z])/gu;
const ID = /\b[A-Za-z][A-Za-z0-9]*(?:[_.:/-][A-Za-z0-9]+)*\b/gu;
const NUMBER = /(?<![\w.\-+])([-+]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![0-9_]|[.,]\d)(\s?%)?/gu;
/** Citation markers are not values; the checker reads them separately. */
const MARKER = new RegExp(MARKER_SOURCE, 'gu');

/** NFKC folds full-width digits, colons and parentheses; the full-width comma is kept apart so "10，200" is not read as 10200. */
export function foldText(text: string): string {
  return text.replace(/\uFF0C/g, '\u3001').normalize('NFKC');
}

/** Blank out the given spans in one pass (keeps offsets, so later kinds cannot re-read them). */
function maskAll(text: string, spans: readonly (readonly [number, number])[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + ' '.repeat(end - start);
    at = end;
  }
  return out + text.slice(at);
}

function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function readDateTime(g: Record<string, string | undefined>): WallTime | null {
  let date: string | null = null;
  const y = g['y1'] ?? g['y2'] ?? g['y3'] ?? g['y4'] ?? g['y5'];
  if (y !== undefined) {
    const mn = g['mn4'] ?? g['mn5'];
    const m = mn !== undefined ? monthNumber(mn) : Number(g['m1'] ?? g['m2'] ?? g['m3']);
    const d = Number(g['d1'] ?? g['d2'] ?? g['d3'] ?? g['d4'] ?? g['d5']);
    date = makeDate(Number(y), m, d);
    if (date === null) return null;
  }
  let minutes: number | null = null;
  let seconds: number | null = null;
  const k = g['h1a'] !== undefined || g['h2a'] !== undefined ? 'a' : 'b';
  const h = g['h1' + k] ?? g['h2' + k];
  if (h !== undefined) {
    let hour = Number(h);
    const ampm = g['ampm' + k]?.toLowerCase();
    if (ampm !== undefined) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (ampm.startsWith('p') ? 12 : 0);
    }
    minutes = makeMinutes(hour, Number(g['mi1' + k] ?? g['mi2' + k]));
    if (minutes === null) return null;
    const s = g['s1' + k] ?? g['s2' + k];
    seconds = s === undefined ? null : Number(s);
  }
  const zone = g['zone'] ?? g['prezone'];
  const offset = zone === undefined ? null : zoneOffset(zone);
  return { date, minutes, seconds, offset };
}

/**
 * Every checkable value in `text`, in the order: quoted strings, dates/times, ids, numbers.
 * Citation markers are ignored.
 * @example extractTextValues('ord_1001 shipped at 2026-08-31 18:20 (UTC+8), 17 件')
 */
export function extractTextValues(text: string): TextValue[] {
  let t = foldText(text).replace(MARKER, (m) => ' '.repeat(m.length));
  const out: TextValue[] = [];
  let spans: [number, number][] = [];
  for (const m of t.matchAll(QUOTE)) {
    const value = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
    if (value.trim() === '') continue;
    out.push({ kind: 'quote', raw: m[0], value });
    spans.push([m.index, m.index + m[0].length]);
  }
  t = maskAll(t, spans);
  spans = [];
  for (const m of t.matchAll(DATETIME)) {
    if (m[0].trim() === '') continue;
    const value = readDateTime(m.groups ?? {});
    if (value === null) continue;
    out.push({ kind: 'datetime', raw: m[0].trim(), value });
    spans.push([m.index, m.index + m[0].length]);
  }
  t = maskAll(t, spans);
  spans = [];
  for (const m of t.matchAll(ID)) {
    // An id has a digit and a separator ("ord_1001", "v1.2") or a run of digits ("SKU001");
    // "e.g", "read-only" or "A3" are words.
    if (!/\d/.test(m[0]) || !(/[_.:/-]/.test(m[0]) || /\d{3}/.test(m[0]))) continue;
    out.push({ kind: 'id', raw: m[0], value: m[0] });
    spans.push([m.index, m.index + m[0].length]);
  }
  t = maskAll(t, spans);
  for (const m of t.matchAll(NUMBER)) {
    const sign = m[1] === '-' ? -1 : 1;
    const intPart = (m[2] ?? '').replace(/,/g, '');
    const frac = m[3];
    const value = sign * Number(frac === undefined ? intPart : `${intPart}.${frac}`);
    if (!Number.isFinite(value)) continue;
    out.push({ kind: 'number', raw: m[0].trim(), value, decimals: frac?.length ?? 0, percent: m[4] !== undefined });
  }
  return out;
}
