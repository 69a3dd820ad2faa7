/**
 * Secrets recognized by their place rather than their shape: the value of an assignment whose
 * name says secret (`DB_PASSWORD=…`, `?api_key=…`, `"client_secret": "…"`, `Authorization:
 * Bearer …`) and the password of a URL (`postgres://admin:pw@db`). Character loops with fixed
 * look-back and look-ahead bounds, so the scan stays linear on any input.
 */

/** A [start, end) span of a secret value. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

const WORDS = new Set(['password', 'passwd', 'passphrase', 'pass', 'secret', 'secrets', 'token', 'apikey', 'credential', 'credentials', 'authorization', 'privatekey', 'secretkey', 'accesskey', 'sessionid', 'cookie', 'jwt', 'bearer']);
const PAIRS = new Set(['api key', 'access key', 'secret key', 'private key', 'client secret', 'auth token', 'access token', 'refresh token', 'session key', 'session id', 'signing key', 'encryption key', 'master key', 'account key', 'app key', 'app secret', 'connection string']);

/** Name segments: split at non-alphanumerics and camelCase humps (`apiKey` → api, key). */
function segments(name: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i] as string;
    const c = name.charCodeAt(i);
    const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!alnum) {
      if (cur !== '') out.push(cur);
      cur = '';
      continue;
    }
    const upper = c >= 0x41 && c <= 0x5a;
    const prev = i > 0 ? name.charCodeAt(i - 1) : 0;
    const prevLowerOrDigit = (prev >= 0x61 && prev <= 0x7a) || (prev >= 0x30 && prev <= 0x39);
    if (upper && prevLowerOrDigit && cur !== '') {
      out.push(cur);
      cur = '';
    }
    cur += ch.toLowerCase();
  }
  if (cur !== '') out.push(cur);
  return out;
}

/**
 * True when a field or variable name says its value is a secret (`password`, `OPENAI_API_KEY`,
 * `clientSecret`, `x-api-key`), and not for look-alikes such as `max_tokens` or `PWD`.
 * @example isSecretName('DB_PASSWORD') // true
 */
export function isSecretName(name: string): boolean {
  if (name.length < 3 || name.length > 64) return false;
  const segs = segments(name);
  for (let i = 0; i < segs.length; i++) {
    if (WORDS.has(segs[i] as string)) return true;
    if (i > 0 && PAIRS.has(`${segs[i - 1]} ${segs[i]}`)) return true;
  }
  return false;
}

const isNameChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d || c === 0x2e;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09;
const isQuote = (c: number): boolean => c === 0x22 || c === 0x27 || c === 0x60;

/** Where a value stops: white space, quotes, separators of query strings and lists, brackets. */
function isValueEnd(c: number): boolean {
  return c <= 0x20 || isQuote(c) || c === 0x26 || c === 0x2c || c === 0x3b || c === 0x29 || c === 0x5d || c === 0x7d || c === 0x3c || c === 0x3e || c === 0x7f;
}

const NOT_SECRET = new Set(['null', 'true', 'false', 'none', 'undefined']);
const SCHEMES = new Set(['bearer', 'basic', 'token', 'digest']);
const MAX_NAME = 64;
const MAX_VALUE = 4096;

/** The value run starting at `from` (after optional spaces and one quote), or null. */
function valueAt(text: string, from: number): Span | null {
  const n = text.length;
  let v = from;
  for (let k = 0; k < 2 && v < n && isSpace(text.charCodeAt(v)); k++) v++;
  if (v < n && isQuote(text.charCodeAt(v))) v++;
  let e = v;
  while (e < n && e - v < MAX_VALUE && !isValueEnd(text.charCodeAt(e))) e++;
  return e > v ? { start: v, end: e } : null;
}

/**
 * Values of `NAME=value`, `NAME: value` and `"NAME": "value"` whose name is a secret name.
 * @example scanAssignments('export DB_PASSWORD=hunter22') // [{ start: 19, end: 27 }]
 */
export function scanAssignments(text: string): Span[] {
  const out: Span[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== 0x3d && c !== 0x3a) { i++; continue; }
    // `==`, `!=`, `<=`, `>=`, `::` are comparisons or scopes, not assignments.
    const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
    const prev = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (next === c || prev === 0x21 || prev === 0x3c || prev === 0x3e || prev === c) { i++; continue; }
    let j = i - 1;
    for (let k = 0; k < 2 && j >= 0 && isSpace(text.charCodeAt(j)); k++) j--;
    if (j >= 0 && isQuote(text.charCodeAt(j))) j--;
    const nameEnd = j + 1;
    while (j >= 0 && nameEnd - j <= MAX_NAME && isNameChar(text.charCodeAt(j))) j--;
    const nameStart = j + 1;
    // A longer name run than the bound is no variable name.
    if (j >= 0 && isNameChar(text.charCodeAt(j))) { i++; continue; }
    if (nameEnd - nameStart < 3 || !isSecretName(text.slice(nameStart, nameEnd))) { i++; continue; }
    let value = valueAt(text, i + 1);
    if (value !== null && SCHEMES.has(text.slice(value.start, value.end).toLowerCase())) {
      // `Authorization: Bearer <token>`: the secret is the word after the scheme.
      value = valueAt(text, value.end);
    }
    if (value === null) { i++; continue; }
    const raw = text.slice(value.start, value.end);
    if (raw.length >= 3 && !raw.startsWith('[') && !NOT_SECRET.has(raw.toLowerCase())) out.push(value);
    i = Math.max(i + 1, value.end);
  }
  return out;
}

const isUserInfoChar = (c: number): boolean =>
  (c >= 0x21 && c <= 0x7e) && c !== 0x2f && c !== 0x3f && c !== 0x23 && c !== 0x40 && !isQuote(c) && c !== 0x3c && c !== 0x3e && c !== 0x5b && c !== 0x5d;

/**
 * Passwords in URL user info (`scheme://user:password@host`).
 * @example scanUrlCredentials('postgres://admin:s3cret@db:5432/app') // [{ start: 17, end: 23 }]
 */
export function scanUrlCredentials(text: string): Span[] {
  const out: Span[] = [];
  let from = 0;
  for (;;) {
    const p = text.indexOf('://', from);
    if (p === -1) return out;
    const s = p + 3;
    let e = s;
    let colon = -1;
    while (e < text.length && e - s < 256 && isUserInfoChar(text.charCodeAt(e))) {
      if (colon === -1 && text.charCodeAt(e) === 0x3a) colon = e;
      e++;
    }
    if (e < text.length && text.charCodeAt(e) === 0x40 && colon !== -1 && e > colon + 1) out.push({ start: colon + 1, end: e });
    from = s;
  }
}
