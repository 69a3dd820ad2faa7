/**
 * CORS for the HTTP gateway: a browser page on an origin given with `--allow-origin`
 * (`HttpListen.allowedOrigins`) may call the gateway and read its answers. Without these
 * headers the origin check lets such a page's requests through, but the browser hides every
 * answer from it, and its preflight (sent without the bearer token) was refused with 401.
 *
 * Only explicitly allowed origins get them: loopback origins pass the DNS-rebinding check, but a
 * page some local server shows is not thereby allowed to read tool results.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Methods of the MCP endpoint a page may use. */
const METHODS = 'GET, POST, DELETE';
/**
 * Response headers a page may read: the session id it must send back, the protocol version, and
 * `WWW-Authenticate`, from which a browser OAuth client learns where the metadata is.
 */
export const CORS_EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';
/** Request headers a page may send when its preflight names none (the MCP client's own). */
const DEFAULT_ALLOWED_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id, mcp-run-id';
/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600;
// A preflight's list of header names: field-name tokens, comma-separated (RFC 9110).
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/u;

/**
 * Answer CORS for a request whose Host and Origin already passed the gateway's checks: a
 * preflight from an allowed origin is answered here (204; returns true, nothing else to do);
 * any other request from an allowed origin gets the headers that let the page read the answer,
 * whatever that answer is (a 401 too, so the page can read `WWW-Authenticate`).
 * @example if (answerCors(req, res, allowedOrigins)) return;
 */
export function answerCors(req: IncomingMessage, res: ServerResponse, allowed: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || !allowed.has(origin)) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  if (!preflight) {
    res.setHeader('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    return false;
  }
  // The page's origin is trusted; the headers it asks for are its business (any header token).
  const asked = req.headers['access-control-request-headers'];
  const headers = typeof asked === 'string' && HEADER_LIST.test(asked.trim()) ? asked.trim() : DEFAULT_ALLOWED_HEADERS;
  res.writeHead(204, {
    'access-control-allow-methods': METHODS,
    'access-control-allow-headers': headers,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  }).end();
  return true;
}
