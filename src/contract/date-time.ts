/**
 * The `date-time` format of the envelope schema, read character by character. It accepts
 * exactly what ajv-formats' full `date-time` accepts (RFC 3339 with a required offset, a `T`,
 * `t` or whitespace separator, leap seconds at 23:59 UTC), and is held to it by a property test.
 * Why our own: every envelope carries several timestamps, and ajv-formats' check (a split on a
 * regex, then two capturing regexes) was about a sixth of `validate()` (issue 18's ≤ 1.3× Ajv).
 */

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
// What `\s` matches in a JavaScript regular expression (the separator may be any of these).
const WHITESPACE = /^\s$/;

/** The digit at `i`, or -1. */
function digit(s: string, i: number): number {
  const d = s.charCodeAt(i) - 0x30;
  return d >= 0 && d <= 9 ? d : -1;
}

/** Two digits at `i` as a number, or -1. */
function two(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function isSeparator(c: number): boolean {
  return c === 0x54 || c === 0x74 || c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && WHITESPACE.test(String.fromCharCode(c)));
}

function validDate(s: string): boolean {
  const y1 = two(s, 0);
  const y2 = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  if (y1 < 0 || y2 < 0 || month < 0 || day < 0 || s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d) return false;
  const year = y1 * 100 + y2;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : (DAYS[month] ?? 0));
}

/**
 * Whether `s` is an RFC 3339 date-time with an offset, as the envelope schema's `date-time`.
 * @example isDateTime('2026-09-01T02:00:00Z') // true
 * @example isDateTime('2026-02-30T02:00:00Z') // false
 */
export function isDateTime(s: string): boolean {
  const n = s.length;
  if (n < 20 || !isSeparator(s.charCodeAt(10)) || !validDate(s)) return false;
  const hr = two(s, 11);
  const min = two(s, 14);
  const whole = two(s, 17);
  if (hr < 0 || min < 0 || whole < 0 || s.charCodeAt(13) !== 0x3a || s.charCodeAt(16) !== 0x3a) return false;
  let i = 19;
  let sec = whole;
  if (s.charCodeAt(i) === 0x2e) {
    i++;
    const from = i;
    while (digit(s, i) >= 0) i++;
    if (i === from) return false;
    sec = Number(s.slice(17, i)); // as ajv-formats reads it: a long fraction may round up
  }
  const tz = s.charCodeAt(i);
  let sign = 1;
  let tzH = 0;
  let tzM = 0;
  if (tz === 0x5a || tz === 0x7a) {
    if (i + 1 !== n) return false;
  } else if (tz === 0x2b || tz === 0x2d) {
    sign = tz === 0x2d ? -1 : 1;
    tzH = two(s, i + 1);
    if (tzH < 0) return false;
    i += 3;
    if (i < n) {
      if (s.charCodeAt(i) === 0x3a) i++;
      tzM = two(s, i);
      if (tzM < 0 || i + 2 !== n) return false;
    }
    if (tzH > 23 || tzM > 59) return false;
  } else return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // A leap second: 23:59:60 in UTC, whatever the offset.
  const utcMin = min - tzM * sign;
  const utcHr = hr - tzH * sign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

/** The formats the generated envelope validators call, by format name. */
export const ENVELOPE_FORMATS: Readonly<Record<'date-time', (s: string) => boolean>> = { 'date-time': isDateTime };

/**
 * The instant an RFC 3339 date-time with its offset names, as ISO text in UTC; null for anything
 * else. `Date.parse` alone is not a check: it reads `1` or `Dec 8 2026` as times, and a time
 * without an offset in the machine's zone, so a filter or a staleness cut-off would depend on TZ.
 * A leap second (23:59:60, which RFC 3339 allows) is the instant after 23:59:59.
 * @example instantOf('2026-01-01T10:00:00+08:00') // '2026-01-01T02:00:00.000Z'
 * @example instantOf('2026-01-01T10:00:00') // null
 */
export function instantOf(text: string): string | null {
  if (!isDateTime(text)) return null;
  const ms = Date.parse(text);
  const at = Number.isNaN(ms) ? Date.parse(text.replace(/:60(?=[.Zz+-])/, ':59')) + 1000 : ms;
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}
