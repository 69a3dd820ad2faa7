/**
 * The inspector's HTTP server (SPEC I5): a read-only web UI over the audit store, on loopback.
 * Audit records hold tool output — untrusted text, sometimes secrets — so every API request
 * needs the random token printed at start (sent as a bearer header by the page, which reads it
 * from the URL fragment, so it never reaches logs or Referer headers), the Host header must be a
 * loopback name (no DNS rebinding), and the page renders records as text, never as HTML.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { TrcError } from '../contract/index.js';
import type { Store } from '../store/index.js';
import { isProblem, matchesCall, parseCallFilter } from './call-filter.js';
import { createCallTail, type CallTailOptions } from './call-tail.js';
import { summarize, viewCall } from './call-view.js';
import { inspectorPage } from './page.js';

/** Options of {@link startInspector}. */
export interface InspectorOptions {
  readonly store: Store;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Loopback address to bind (default 127.0.0.1). */
  readonly host?: string;
  /** Access token (default: 128 random bits, hex). */
  readonly token?: string;
  /** The live tail's poll and heartbeat intervals (`GET /api/events`). */
  readonly tail?: CallTailOptions;
}

/** A running inspector. */
export interface Inspector {
  /** Open this in a browser: the token travels in the fragment. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const MAX_LIMIT = 5000;

/**
 * Serve the inspector until `close()`.
 * @example const ins = await startInspector({ store }); console.log(ins.url);
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new TrcError('INSPECTOR_NOT_LOOPBACK', `the inspector serves audit records and binds to loopback only, not "${host}"`);
  }
  const token = options.token ?? randomBytes(16).toString('hex');
  const expected = Buffer.from(`Bearer ${token}`);
  const authorized = (req: IncomingMessage): boolean => {
    const got = Buffer.from(req.headers.authorization ?? '');
    return got.length === expected.length && timingSafeEqual(got, expected);
  };

  const tail = createCallTail(options.store, options.tail);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const hostName = (req.headers.host ?? '').replace(/:\d+$/u, '');
    if (!LOOPBACK_HOSTS.has(hostName)) return sendJson(res, 403, { error: { code: 'FORBIDDEN_HOST', message: 'the inspector answers loopback host names only' } });
    if (req.method !== 'GET') return sendJson(res, 405, { error: { code: 'METHOD_NOT_ALLOWED', message: 'the inspector is read-only' } });
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') return sendPage(res);
    if (!url.pathname.startsWith('/api/')) return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `no such page: ${url.pathname}` } });
    if (!authorized(req)) return sendJson(res, 401, { error: { code: 'UNAUTHORIZED', message: 'missing or wrong token: open the URL the inspector printed' } });
    if (url.pathname === '/api/calls') return listCalls(options.store, url, res);
    if (url.pathname === '/api/events') {
      const filter = parseCallFilter(url.searchParams);
      return isProblem(filter) ? sendJson(res, 400, { error: filter }) : tail.serve(req, res, filter);
    }
    const raw = /^\/api\/calls\/([^/]+)$/u.exec(url.pathname)?.[1];
    if (raw !== undefined) {
      const id = decodeSegment(raw);
      if (id === null) return sendJson(res, 400, { error: { code: 'BAD_QUERY', message: 'the call id in the path is not valid percent-encoding' } });
      const view = await viewCall(options.store, id);
      return view === null ? sendJson(res, 404, { error: { code: 'UNKNOWN_CALL', message: `no audit record for call "${id}"` } }) : sendJson(res, 200, view);
    }
    return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `no such endpoint: ${url.pathname}` } });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const code = error instanceof TrcError ? error.code : 'INSPECTOR_ERROR';
      if (!res.headersSent) sendJson(res, error instanceof TrcError ? 400 : 500, { error: { code, message: (error as Error).message } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/#token=${token}`,
    port,
    token,
    close: () => new Promise<void>((resolve) => {
      // Streams end first, as responses (a client sees the end, not a reset connection).
      tail.close();
      setImmediate(() => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    }),
  };
}

/** A percent-decoded path segment, or null when it is malformed (`%E0%A4%A`). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

async function listCalls(store: Store, url: URL, res: ServerResponse): Promise<void> {
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null || limitText.trim() === '' ? 500 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return sendJson(res, 400, { error: { code: 'BAD_QUERY', message: `limit must be an integer from 1 to ${MAX_LIMIT}`, pointer: '/limit' } });
  }
  const filter = parseCallFilter(url.searchParams);
  if (isProblem(filter)) return sendJson(res, 400, { error: filter });
  const records = await store.listAudit({ limit, newest: true, ...filter.store });
  const calls = records.map(summarize).filter((c) => matchesCall(filter, c));
  sendJson(res, 200, { calls, count: calls.length, limit });
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

function sendPage(res: ServerResponse): void {
  const nonce = randomBytes(16).toString('base64');
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // Only our own nonce'd script and style run; records are data even if they look like markup.
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
  });
  res.end(inspectorPage(nonce));
}
