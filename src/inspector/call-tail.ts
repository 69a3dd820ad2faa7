/**
 * The live tail (`GET /api/events`): new calls as Server-Sent Events. The inspector usually runs
 * in another process than the gateway that writes the store, so the tail polls the store — one
 * poll per interval for all streams, and only while a stream is open.
 *
 * A record is appended when its call ends, so a long call can land behind calls that started
 * after it. The poll therefore reads the newest-started `WINDOW` records and sends those it has
 * not sent; a record that left that window can never re-enter it (later records only push it
 * down), so the set of sent ids is exactly the window's; a burst that fills the whole window is
 * read from the newest start time the last poll saw (up to 5000 records). Each event's id is
 * `startedAt/callId`; a client resuming with `Last-Event-ID` gets every call that started after
 * it, oldest first, then the live events.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditRecord, Store } from '../store/index.js';
import { matchesCall, type CallFilter } from './call-filter.js';
import { summarize, type CallSummary } from './call-view.js';

/** Options of {@link createCallTail}. */
export interface CallTailOptions {
  /** How often the store is read while a stream is open (default 1000 ms). */
  readonly pollMs?: number;
  /** How often an idle stream gets a comment line, so proxies and clients keep it (default 15 s). */
  readonly heartbeatMs?: number;
}

/** A running tail. */
export interface CallTail {
  /** Answer one `GET /api/events` request with a stream. */
  serve(req: IncomingMessage, res: ServerResponse, filter: CallFilter): Promise<void>;
  /** End every stream (each client sees its response end) and stop polling. */
  close(): void;
}

/** How many of the newest-started records each poll reads. */
const WINDOW = 200;
/** Most calls a resumed stream replays at once. */
const RESUME_LIMIT = 5000;

interface Stream {
  readonly res: ServerResponse;
  readonly filter: CallFilter;
  /** Ids the resume backlog already sent, so a poll does not send them twice. */
  readonly backlog: Set<string>;
  heartbeat: NodeJS.Timeout;
}

const eventId = (c: CallSummary): string => `${c.started_at}/${encodeURIComponent(c.call_id)}`;

/** The (startedAt, callId) of an event id, or null when it is not one of ours. */
function parseEventId(id: string): { at: string; callId: string } | null {
  const slash = id.indexOf('/');
  if (slash < 0 || Number.isNaN(Date.parse(id.slice(0, slash)))) return null;
  try {
    return { at: id.slice(0, slash), callId: decodeURIComponent(id.slice(slash + 1)) };
  } catch {
    return null;
  }
}

/** Store order: start time, then the time's text, then the call id (as `listAudit` sorts). */
function after(r: AuditRecord, at: string, callId: string): boolean {
  const d = Date.parse(r.startedAt) - Date.parse(at);
  if (d !== 0) return d > 0;
  if (r.startedAt !== at) return r.startedAt > at;
  return r.callId > callId;
}

/**
 * A tail over `store`.
 * @example const tail = createCallTail(store); server.on('close', () => tail.close());
 */
export function createCallTail(store: Store, options: CallTailOptions = {}): CallTail {
  const pollMs = options.pollMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<Stream>();
  let known: Set<string> | null = null;
  /** Start time of the newest record the last poll read (where a burst's gap begins). */
  let knownNewestAt: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const send = (s: Stream, c: CallSummary): void => {
    if (!matchesCall(s.filter, c)) return;
    s.res.write(`id: ${eventId(c)}\nevent: call\ndata: ${JSON.stringify(c)}\n\n`);
  };

  /** One poll at a time; a caller that asks while one runs waits for that one. */
  let running: Promise<void> | null = null;
  const poll = (): Promise<void> => {
    if (closed) return Promise.resolve();
    running ??= (async () => {
      try {
        const newest = await store.listAudit({ newest: true, limit: WINDOW });
        const ids = new Set(newest.map((r) => r.callId));
        if (known !== null) {
          const seen = known;
          let fresh = newest.filter((r) => !seen.has(r.callId)).reverse();
          // A burst filled the whole window: read from the newest start the last poll saw.
          if (fresh.length === WINDOW && knownNewestAt !== null) {
            const inWindow = new Set(fresh.map((r) => r.callId));
            const gap = (await store.listAudit({ since: knownNewestAt, limit: RESUME_LIMIT })).filter((r) => !seen.has(r.callId) && !inWindow.has(r.callId));
            fresh = [...gap, ...fresh].sort((a, b) => (after(a, b.startedAt, b.callId) ? 1 : -1));
          }
          const calls = fresh.map(summarize);
          for (const s of streams) for (const c of calls) if (!s.backlog.has(c.call_id)) send(s, c);
        }
        known = ids;
        knownNewestAt = newest[0] === undefined ? knownNewestAt : new Date(Date.parse(newest[0].startedAt)).toISOString();
      } catch {
        // A store that is busy or being swept: the next poll tries again.
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const drop = (s: Stream): void => {
    clearInterval(s.heartbeat);
    streams.delete(s);
    if (streams.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
      known = null;
      knownNewestAt = null;
    }
  };

  return {
    async serve(req, res, filter) {
      if (closed) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('the inspector is shutting down');
        return;
      }
      // The first stream primes the window, so what was already in the store is not "new".
      if (known === null) await poll();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        connection: 'keep-alive',
      });
      res.write(`retry: 2000\n: trc inspector tail\n\n`);
      const s: Stream = { res, filter, backlog: new Set(), heartbeat: setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs) };
      streams.add(s);
      res.on('close', () => drop(s));
      const last = req.headers['last-event-id'];
      const from = typeof last === 'string' ? parseEventId(last) : null;
      if (from !== null) {
        const missed = await store.listAudit({ since: new Date(Date.parse(from.at)).toISOString(), limit: RESUME_LIMIT }).catch(() => []);
        for (const r of missed) {
          if (!after(r, from.at, from.callId)) continue;
          s.backlog.add(r.callId);
          send(s, summarize(r));
        }
      }
      timer ??= setInterval(() => void poll(), pollMs);
    },
    close() {
      closed = true;
      for (const s of [...streams]) {
        drop(s);
        s.res.end();
      }
    },
  };
}
