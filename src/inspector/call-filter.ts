/**
 * The inspector's filters, read from a query string (the page keeps them in its URL, the API
 * takes the same names): the store narrows by tool and time, the rest is matched on the
 * summaries. Shared by the call list and the live tail, so both show the same calls.
 */
import { instantOf } from '../contract/date-time.js';
import type { AuditFilter } from '../store/index.js';
import type { CallSummary } from './call-view.js';

/** A query parameter that is not acceptable, with its pointer. */
export interface QueryProblem {
  readonly code: 'BAD_QUERY';
  readonly message: string;
  readonly pointer: string;
}

/** The filters of one request. */
export interface CallFilter {
  /** What the store narrows by (tool, started since/until). */
  readonly store: Pick<AuditFilter, 'tool' | 'since' | 'until'>;
  readonly status: string | null;
  readonly principal: string | null;
  readonly run: string | null;
  readonly session: string | null;
}

const STATUSES = new Set(['succeeded', 'failed', 'partial', 'needs_input', 'unknown', 'accepted']);

const param = (q: URLSearchParams, name: string): string | null => {
  const v = q.get(name);
  return v === null || v.trim() === '' ? null : v.trim();
};

function time(q: URLSearchParams, name: 'since' | 'until'): string | null | QueryProblem {
  const v = param(q, name);
  if (v === null) return null;
  // Strict: Date.parse reads a time without an offset in the server's zone, and "1" as a year.
  const at = instantOf(v);
  return at === null ? { code: 'BAD_QUERY', message: `${name} must be an RFC 3339 time with its offset (2026-03-01T00:00:00Z)`, pointer: `/${name}` } : at;
}

/**
 * Read the filters from `q`; a bad value is a problem naming its parameter.
 * @example parseCallFilter(new URLSearchParams('status=failed&principal=alice'))
 */
export function parseCallFilter(q: URLSearchParams): CallFilter | QueryProblem {
  const since = time(q, 'since');
  if (typeof since === 'object' && since !== null) return since;
  const until = time(q, 'until');
  if (typeof until === 'object' && until !== null) return until;
  const status = param(q, 'status');
  if (status !== null && !STATUSES.has(status)) {
    return { code: 'BAD_QUERY', message: `status must be one of ${[...STATUSES].join(', ')}`, pointer: '/status' };
  }
  const tool = param(q, 'tool');
  return {
    store: { ...(tool === null ? {} : { tool }), ...(since === null ? {} : { since }), ...(until === null ? {} : { until }) },
    status,
    principal: param(q, 'principal'),
    run: param(q, 'run'),
    session: param(q, 'session'),
  };
}

/**
 * True when the call passes every filter (the store's included, for the live tail).
 * @example matchesCall(filter, summarize(record))
 */
export function matchesCall(f: CallFilter, c: CallSummary): boolean {
  if (f.store.tool !== undefined && c.tool !== f.store.tool) return false;
  const at = Date.parse(c.started_at);
  if (f.store.since !== undefined && !(at >= Date.parse(f.store.since))) return false;
  if (f.store.until !== undefined && !(at < Date.parse(f.store.until))) return false;
  return (f.status === null || c.status === f.status)
    && (f.principal === null || c.principal === f.principal)
    && (f.run === null || c.run === f.run)
    && (f.session === null || c.session === f.session);
}

/** True when `x` is a problem rather than a filter. */
export function isProblem(x: CallFilter | QueryProblem): x is QueryProblem {
  return 'code' in x;
}
