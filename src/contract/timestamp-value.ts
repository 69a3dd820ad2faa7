/**
 * Times a tool reports (`committed_at`, `observed_at`) as the envelope carries them: RFC 3339
 * text. A `Date` is written out; anything else that is not such text is dropped with a warning,
 * so a confirmed write is never reported as failed over the format of its time.
 */
import { isDateTime } from './date-time.js';
import type { Warning } from './types.js';

/** The time as RFC 3339 text (null when absent or unusable), and the warning when it was dropped. */
export interface TimestampValue {
  readonly value: string | null;
  readonly warning?: Warning;
}

/**
 * Read the time a tool gave for `field` (its name in the tool's output).
 * @example timestampValue(new Date(0), 'committed_at').value // '1970-01-01T00:00:00.000Z'
 */
export function timestampValue(given: unknown, field: string): TimestampValue {
  if (given === undefined || given === null) return { value: null };
  if (typeof given === 'string' && isDateTime(given)) return { value: given };
  if (given instanceof Date && !Number.isNaN(given.getTime())) return { value: given.toISOString() };
  const what = typeof given === 'number' ? `the number ${given} (Unix seconds? write new Date(s * 1000).toISOString())` : typeof given === 'string' ? 'other text' : given instanceof Date ? 'an invalid Date' : typeof given;
  return { value: null, warning: { code: 'TIMESTAMP_DROPPED', message: `${field} is not an RFC 3339 date-time with an offset (got ${what}), so it was left out` } };
}
