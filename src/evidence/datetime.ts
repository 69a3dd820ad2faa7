import { TrcError } from '../contract/index.js';

/**
 * Date/time values as the checker compares them: a wall clock (date and/or time of day) plus
 * the UTC offset it was stated in, when known. Two values agree when they name the same wall
 * clock in the same zone — so "18:20 (UTC+8)" agrees with `10:20Z` but "18:20 UTC" does not.
 */

/** A date and/or time read from text or from a structured value. */
export interface WallTime {
  /** `YYYY-MM-DD`, or null when only a time of day was stated. */
  readonly date: string | null;
  /** Minutes since midnight, or null when only a date was stated. */
  readonly minutes: number | null;
  /** Seconds within the minute, or null when not stated. */
  readonly seconds: number | null;
  /** UTC offset in minutes, or null when no zone was stated. */
  readonly offset: number | null;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;

/** Named zones the checker understands, lower-cased. Ambiguous abbreviations (CST, IST) are left out on purpose. */
const NAMED_ZONES: ReadonlyMap<string, number> = new Map([
  ['z', 0],
  ['utc', 0],
  ['gmt', 0],
  ['中国标准时间', 480],
  ['北京时间', 480],
  ['china standard time', 480],
  ['beijing time', 480],
  ['asia/shanghai', 480],
  ['东京时间', 540],
  ['日本标准时间', 540],
  ['jst', 540],
  ['japan standard time', 540],
  ['asia/tokyo', 540],
]);

/** Regex source of every zone spelling {@link zoneOffset} understands (for the extractors). */
export const ZONE_SOURCE =
  '(?:(?:UTC|GMT)\\s{0,3}[+\\-\u2212]\\s{0,3}\\d{1,2}(?::?\\d{2})?|[+\\-]\\d{2}:?\\d{2}|中国标准时间|北京时间|东京时间|日本标准时间|China Standard Time|Beijing Time|Japan Standard Time|Asia/Shanghai|Asia/Tokyo|UTC|GMT|JST|Z(?![A-Za-z]))';

/**
 * UTC offset in minutes of a zone spelling, or null when it is not one we understand.
 * @example zoneOffset('UTC+8') // 480
 */
export function zoneOffset(spelling: string): number | null {
  const s = spelling.trim().toLowerCase().replace(/\s+/g, ' ');
  const named = NAMED_ZONES.get(s);
  if (named !== undefined) return named;
  const m = /^(?:utc|gmt)?\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?$/.exec(s);
  if (m === null) return null;
  const hours = Number(m[2]);
  const mins = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 14 || mins > 59) return null;
  return (m[1] === '+' ? 1 : -1) * (hours * 60 + mins);
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parse a structured (machine) date or date-time string, RFC 3339 style, or null.
 * @example parseIsoWallTime('2026-08-31T10:20:00Z') // { date: '2026-08-31', minutes: 620, seconds: 0, offset: 0 }
 */
export function parseIsoWallTime(text: string): WallTime | null {
  const m = ISO_DATE_TIME.exec(text);
  if (m === null) return null;
  const date = makeDate(Number(m[1]), Number(m[2]), Number(m[3]));
  if (date === null) return null;
  if (m[4] === undefined) return { date, minutes: null, seconds: null, offset: null };
  const minutes = makeMinutes(Number(m[4]), Number(m[5]));
  if (minutes === null) return null;
  const seconds = m[6] === undefined ? null : Number(m[6]);
  const offset = m[7] === undefined ? null : zoneOffset(m[7]);
  return { date, minutes, seconds, offset };
}

/** `YYYY-MM-DD` for a real calendar date, else null. */
export function makeDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const t = Date.UTC(year, month - 1, day);
  const d = new Date(t);
  if (d.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Minutes since midnight for a valid hour/minute, else null. */
export function makeMinutes(hour: number, minute: number): number | null {
  if (hour > 24 || minute > 59 || (hour === 24 && minute !== 0)) return null;
  return hour * 60 + minute;
}

/** Shift a wall time with a known offset into another offset (date rolls over as needed). */
function shift(value: WallTime, toOffset: number): WallTime {
  if (value.offset === null || value.date === null || value.minutes === null) return value;
  const base = Date.parse(value.date + 'T00:00:00Z') + (value.minutes - value.offset + toOffset) * MINUTE_MS;
  const d = new Date(base);
  const date = d.toISOString().slice(0, 10);
  const minutes = Math.floor((base - Date.parse(date + 'T00:00:00Z')) / MINUTE_MS) % DAY_MINUTES;
  return { date, minutes, seconds: value.seconds, offset: toOffset };
}

/**
 * Does a stated date/time (`claim`) name the same moment as a structured one (`source`)?
 * What the claim leaves out (seconds, the date, the zone) is not compared; what it states must
 * agree. A claim without a zone is read in the source's own zone.
 * @example wallTimesAgree(claim('2026-08-31 18:20 UTC+8'), parseIsoWallTime('2026-08-31T10:20:00Z')!) // true
 */
export function wallTimesAgree(claim: WallTime, source: WallTime): boolean {
  let s = source;
  if (claim.offset !== null && source.offset !== null) {
    if (source.minutes === null) {
      // A bare date in the source carries no moment to convert; compare dates only.
      return claim.date !== null && claim.date === source.date && claim.minutes === null;
    }
    s = shift(source, claim.offset);
  }
  if (claim.date !== null && claim.date !== s.date) return false;
  if (claim.minutes !== null) {
    if (s.minutes === null || claim.minutes !== s.minutes) return false;
    if (claim.seconds !== null && s.seconds !== null && claim.seconds !== s.seconds) return false;
  }
  return claim.date !== null || claim.minutes !== null;
}

/**
 * Epoch milliseconds of the caller's `now`; throws `TrcError('EVIDENCE_BAD_NOW')` when it is
 * given but is not a time, rather than silently judging nothing stale.
 */
export function nowMs(now: Date | string | undefined): number | null {
  if (now === undefined) return null;
  const t = epochMs(now);
  if (t === null) throw new TrcError('EVIDENCE_BAD_NOW', `"now" is not a valid time: ${String(now)}`, { data: { pointer: '/now' } });
  return t;
}

/** Epoch milliseconds of an RFC 3339 timestamp, or null. */
export function epochMs(value: string | Date | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isFinite(t) ? t : null;
}
