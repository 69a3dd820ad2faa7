/**
 * The times `trc audit --since/--until` and `trc sweep --audit-before` read: strict RFC 3339 with
 * its offset (a destructive cut-off must not depend on the machine's zone), real calendar dates,
 * durations that name a time.
 */
import { describe, expect, it } from 'vitest';
import { parseSince } from '../../src/cli/commands/audit.js';
import { UsageError } from '../../src/cli/io.js';

const now = new Date('2026-12-07T00:00:00Z');

describe('time flags', () => {
  it.each([
    ['2026-01-01', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T10:00:00+08:00', '2026-01-01T02:00:00.000Z'],
    ['2026-01-01t10:00:00z', '2026-01-01T10:00:00.000Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
    ['15m', '2026-12-06T23:45:00.000Z'],
  ])('reads %s as %s', (text, at) => {
    expect(parseSince(text, now)).toBe(at);
  });

  it.each(['2026-02-30', '2026-01-01T10:00:00', '2026-01-01T24:00:00Z', '99999999999d', 'yesterday'])('refuses %s with a usage error, never an internal one', (text) => {
    expect(() => parseSince(text, now, '--audit-before')).toThrow(UsageError);
    expect(() => parseSince(text, now, '--audit-before')).toThrow(/--audit-before/);
  });

  it('refuses a time without an offset whatever TZ says', () => {
    const before = process.env['TZ'];
    try {
      process.env['TZ'] = 'Asia/Shanghai';
      expect(() => parseSince('2026-01-01T10:00:00', now)).toThrow(UsageError);
    } finally {
      if (before === undefined) delete process.env['TZ'];
      else process.env['TZ'] = before;
    }
  });
});
