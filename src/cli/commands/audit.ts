/**
 * `trc audit [--tool T] [--since WHEN] [--until WHEN] [--limit N | --last N] [--json] [--store PATH]`
 */
import { instantOf } from '../../contract/date-time.js';
import type { AuditRecord } from '../../store/index.js';
import { parseFlags } from '../flags.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { openExistingStore, storePath } from '../store.js';
import { printable } from '../terminal-text.js';

const HELP = `Usage: trc audit [--tool T] [--since WHEN] [--until WHEN] [--limit N | --last N] [--json] [--store PATH]

List the tool calls recorded in the audit store (by "trc gateway", the executor, "trc demo"):
one line per call, oldest first — start time, status, tool, principal, duration, error code
or warnings, call id. Use "trc diagnose CALL_ID" for one call in depth.

Options:
  --tool T       only calls of tool T (the name the client used)
  --since WHEN   only calls started at or after WHEN: an RFC 3339 time with its
                 offset (2026-05-01T10:00:00Z), a date (2026-05-01, UTC midnight), or a
                 duration back from now (30s, 15m, 2h, 7d)
  --until WHEN   only calls started before WHEN (same forms as --since)
  --limit N      at most N calls, the oldest that match (default 1000)
  --last N       the N most recent calls that match (still printed oldest first)
  --json         one JSON object per line (the full audit record, envelope included)
  --store PATH   SQLite store (default $TRC_STORE, else trc.sqlite in the user
                 data directory: see "trc --help"); a missing
                 store is refused, never created
  -h, --help     show this help

Examples:
  trc audit --since 1h
  trc audit --last 20
  trc audit --tool read_text_file --json | jq .detail.envelope.status

Exit codes: 0 listed (also when nothing matched), 2 usage error, no store or unreadable store.`;

/** Parse a time flag (`--since`): RFC 3339, a date, or a duration back from `now`. */
export function parseSince(text: string, now: Date = new Date(), flag = '--since'): string {
  const rel = /^(\d+)(s|m|h|d)$/.exec(text);
  if (rel) {
    const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[rel[2] as 's' | 'm' | 'h' | 'd'];
    const at = new Date(now.getTime() - Number(rel[1]) * unit);
    if (!Number.isNaN(at.getTime())) return at.toISOString();
    throw new UsageError(`${flag} ${text} reaches before any time a date can name`);
  }
  // A date is its UTC midnight; a time needs its offset (without one it would be read in the
  // machine's zone, and a destructive cut-off would depend on TZ). Impossible dates are refused.
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
  const at = instantOf(day);
  if (at !== null) return at;
  throw new UsageError(`${flag} needs an RFC 3339 time with its offset (2026-01-01T10:00:00Z), a date (2026-01-01, UTC) or a duration like 15m, got "${text}"`);
}

async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseFlags({
    args: [...argv],
    options: { tool: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, limit: { type: 'string' }, last: { type: 'string' }, json: { type: 'boolean' }, store: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.limit !== undefined && values.last !== undefined) throw new UsageError('give --limit (oldest N) or --last (newest N), not both');
  const countText = values.last ?? values.limit;
  const limit = countText === undefined ? 1000 : /^\d+$/u.test(countText) ? Number(countText) : NaN;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new UsageError(`--${values.last === undefined ? 'limit' : 'last'} needs a positive integer, got "${countText}"`);
  const newest = values.last !== undefined;
  const since = values.since === undefined ? undefined : parseSince(values.since);
  const until = values.until === undefined ? undefined : parseSince(values.until, new Date(), '--until');
  const store = await openExistingStore(storePath(values.store, io), io.env);
  try {
    const found = await store.listAudit({ limit, newest, ...(values.tool === undefined ? {} : { tool: values.tool }), ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) });
    const records = newest ? found.reverse() : found;
    if (values.json === true) {
      for (const r of records) println(io.stdout, JSON.stringify(r));
      return 0;
    }
    if (records.length === 0) {
      println(io.stdout, 'no recorded calls match');
      return 0;
    }
    for (const r of records) println(io.stdout, line(r));
    println(io.stdout, `${records.length} call(s)`);
    return 0;
  } finally {
    await store.close().catch(() => undefined);
  }
}

function line(r: AuditRecord): string {
  const d = (r.detail ?? {}) as { error_code?: string | null; warnings?: unknown[]; duration_ms?: number };
  const ms = Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  const note = d.error_code ? d.error_code : Array.isArray(d.warnings) && d.warnings.length > 0 ? `${d.warnings.length} warning(s)` : '';
  // Every field may hold what a caller chose (a model's tool name): printed inert.
  return [r.startedAt, r.status.padEnd(11), r.tool, r.principal, `${Number.isFinite(ms) ? ms : '?'}ms`, note, r.callId].filter((x) => x !== '').map(printable).join('  ');
}

/** The `trc audit` command. */
export const command: Command = {
  name: 'audit',
  summary: 'list recorded calls from the audit store',
  help: HELP,
  run,
};
