/**
 * The `Authorization` header of a request, read as RFC 6750 §2.1 says: the `Bearer` scheme
 * (any case), one or more spaces, one b64token, nothing else.
 */

/** Longest token accepted (a JWT with many claims stays far below). */
export const MAX_TOKEN_CHARS = 8192;

/** A token, no header at all, or a header that is not a usable bearer credential. */
export type BearerHeader = { readonly kind: 'token'; readonly token: string } | { readonly kind: 'absent' } | { readonly kind: 'malformed'; readonly reason: string };

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/u;

/**
 * Parse an `Authorization` header value.
 * @example bearerToken('Bearer eyJhbGciOi…') // → { kind: 'token', token: 'eyJhbGciOi…' }
 */
export function bearerToken(header: string | readonly string[] | undefined): BearerHeader {
  if (header === undefined || header === '') return { kind: 'absent' };
  if (typeof header !== 'string') return { kind: 'malformed', reason: 'more than one Authorization header' };
  const space = header.indexOf(' ');
  if (space === -1 || header.slice(0, space).toLowerCase() !== 'bearer') return { kind: 'malformed', reason: 'the Authorization header is not "Bearer <token>"' };
  const token = header.slice(space).replace(/^ +/u, '');
  if (token.length > MAX_TOKEN_CHARS) return { kind: 'malformed', reason: `the bearer token is longer than ${MAX_TOKEN_CHARS} characters` };
  if (!B64TOKEN.test(token)) return { kind: 'malformed', reason: 'the bearer token has characters a token cannot have' };
  return { kind: 'token', token };
}
