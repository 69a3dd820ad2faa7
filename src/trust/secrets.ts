/**
 * Secrets in outgoing and stored text (SPEC T6): API keys, JWTs, PEM private keys, cloud
 * credentials, `NAME=value` assignments whose name says secret (`OPENAI_API_KEY=…`,
 * `?api_key=…`, `"password": "…"`), passwords in URLs (`postgres://user:pw@host`), and any of
 * these split by zero-width characters.
 *
 * Linear: the text is scanned with character loops. Key-like runs are classified by anchored
 * patterns over that run alone (no pattern ever scans across the text); assignments look back
 * at most 64 characters for a name and consume their value once; PEM blocks use `indexOf`.
 */
import { isSecretName, scanAssignments, scanUrlCredentials } from './secret-forms.js';

/** Kinds of secret recognized. */
export type SecretKind =
  | 'openai_api_key'
  | 'anthropic_api_key'
  | 'github_token'
  | 'slack_token'
  | 'slack_webhook'
  | 'stripe_key'
  | 'aws_access_key_id'
  | 'aws_secret_access_key'
  | 'google_api_key'
  | 'jwt'
  | 'private_key'
  | 'named_secret'
  | 'url_password';

/** One secret found: kind and [start, end) in the text. */
export interface SecretMatch {
  readonly kind: SecretKind;
  readonly start: number;
  readonly end: number;
}

export { isSecretName };

// Anchored, bounded patterns, tested against one run of key characters at a time.
const RUN_PATTERNS: readonly (readonly [SecretKind, RegExp])[] = [
  ['anthropic_api_key', /^sk-ant-[a-z]{2,8}\d{2}-[\w-]{20,}$/],
  ['stripe_key', /^(sk|rk|pk)_(live|test)_[A-Za-z0-9]{16,}$/],
  ['stripe_key', /^whsec_[A-Za-z0-9]{24,}$/],
  ['openai_api_key', /^sk-[\w-]{20,}$/],
  ['github_token', /^(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}$/],
  ['github_token', /^github_pat_\w{40,}$/],
  ['slack_token', /^xox[abposre]-[A-Za-z0-9-]{10,}$/],
  ['aws_access_key_id', /^(AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}$/],
  ['google_api_key', /^AIza[\w-]{35}$/],
  ['jwt', /^eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]{8,}$/],
];
const AWS_SECRET = /^[A-Z0-9/+]{40}$/i;
const SLACK_WEBHOOK = 'hooks.slack.com/services/';

function isKeyChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ||
    c === 0x2d || c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2b || c === 0x3d;
}

/** Characters that render as nothing and are used to split a secret past a scanner. */
function isInvisible(c: number): boolean {
  return c === 0x200b || c === 0x200c || c === 0x200d || c === 0x2060 || c === 0xfeff || c === 0x00ad || c === 0x180e;
}

function pemBlocks(text: string, out: SecretMatch[]): void {
  let from = 0;
  for (;;) {
    const begin = text.indexOf('-----BEGIN ', from);
    if (begin === -1) return;
    const headerEnd = text.indexOf('-----', begin + 11);
    if (headerEnd === -1 || headerEnd - begin > 80) { from = begin + 11; continue; }
    const label = text.slice(begin + 11, headerEnd);
    if (!label.endsWith('PRIVATE KEY')) { from = headerEnd + 5; continue; }
    const endMarker = `-----END ${label}-----`;
    const end = text.indexOf(endMarker, headerEnd + 5);
    // An unterminated key is masked to the end of the text: better too much than a leak.
    const stop = end === -1 ? text.length : end + endMarker.length;
    out.push({ kind: 'private_key', start: begin, end: stop });
    from = stop;
  }
}

/** The kind of one run of key characters, or undefined. `s` is its start in `text`. */
function classifyRun(text: string, run: string, s: number): SecretKind | undefined {
  if (run.includes(SLACK_WEBHOOK) || (run.startsWith('services/') && text.slice(Math.max(0, s - 16), s).endsWith('hooks.slack.com/'))) return 'slack_webhook';
  for (const [k, re] of RUN_PATTERNS) if (re.test(run)) return k;
  if (AWS_SECRET.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run)) {
    // 40 base64 characters are only an AWS secret when the text names one nearby.
    const context = text.slice(Math.max(0, s - 48), s).toLowerCase();
    if (context.includes('secret') || context.includes('aws')) return 'aws_secret_access_key';
  }
  return undefined;
}

/**
 * Runs of key characters, each also tried after every `=` or `/` it contains (`NAME=sk-…`, a
 * secret inside a path or a JSON Pointer such as `/data/ghp_…`).
 */
function keyRuns(text: string, out: SecretMatch[]): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isKeyChar(text.charCodeAt(i))) { i++; continue; }
    const s = i;
    while (i < n && isKeyChar(text.charCodeAt(i))) i++;
    let e = i;
    // Sentence punctuation after a key is not part of it.
    while (e > s && (text.charCodeAt(e - 1) === 0x2e || text.charCodeAt(e - 1) === 0x2c)) e--;
    if (e - s < 16 || e - s > 4096) continue;
    let from = s;
    // The whole run, then what follows each '=' (at most a few per run in real text).
    for (let tries = 0; tries < 8 && from < e; tries++) {
      if (e - from >= 16) {
        const kind = classifyRun(text, text.slice(from, e), from);
        if (kind !== undefined) { out.push({ kind, start: from, end: e }); break; }
      }
      let eq = from;
      while (eq < e - 1 && text.charCodeAt(eq) !== 0x3d && text.charCodeAt(eq) !== 0x2f) eq++;
      if (eq >= e - 1) break;
      from = eq + 1;
    }
  }
}

function scan(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  pemBlocks(text, found);
  keyRuns(text, found);
  for (const m of scanAssignments(text)) found.push({ kind: 'named_secret', start: m.start, end: m.end });
  for (const m of scanUrlCredentials(text)) found.push({ kind: 'url_password', start: m.start, end: m.end });
  if (found.length <= 1) return found;
  // Sorted and non-overlapping: the earliest start wins, then the longest; PEM blocks swallow the rest.
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretMatch[] = [];
  let end = -1;
  for (const m of found) {
    if (m.start < end) continue;
    out.push(m);
    end = m.end;
  }
  return out;
}

/**
 * Find secrets in `text`, sorted by position, non-overlapping. Zero-width characters inside a
 * secret do not hide it: the match spans them.
 * @example findSecrets('key: ghp_' + 'a'.repeat(36))[0]?.kind // 'github_token'
 * @example findSecrets('OPENAI_API_KEY=abcdef123')[0]?.kind // 'named_secret'
 */
export function findSecrets(text: string): SecretMatch[] {
  let invisible = -1;
  for (let i = 0; i < text.length; i++) {
    if (isInvisible(text.charCodeAt(i))) { invisible = i; break; }
  }
  if (invisible === -1) return scan(text);
  // Scan a copy without the invisible characters, then map offsets back to the original.
  const kept: number[] = [];
  let stripped = '';
  for (let i = 0; i < text.length; i++) {
    if (isInvisible(text.charCodeAt(i))) continue;
    kept.push(i);
    stripped += text[i];
  }
  return scan(stripped).map((m) => ({
    kind: m.kind,
    start: kept[m.start] ?? text.length,
    end: m.end === 0 ? 0 : (kept[m.end - 1] ?? text.length - 1) + 1,
  }));
}

/** Result of {@link maskSecrets}. */
export interface MaskResult {
  readonly text: string;
  readonly found: readonly SecretMatch[];
}

/**
 * Replace each secret with `[redacted:<kind>]`.
 * @example maskSecrets('token sk-' + 'A'.repeat(40)).text // 'token [redacted:openai_api_key]'
 */
export function maskSecrets(text: string): MaskResult {
  // Nothing shorter can hold a recognized secret (the shortest is a 3-character named value).
  if (text.length < 5) return { text, found: [] };
  const found = findSecrets(text);
  if (found.length === 0) return { text, found };
  let out = '';
  let at = 0;
  for (const m of found) {
    if (m.start < at) continue;
    out += text.slice(at, m.start) + `[redacted:${m.kind}]`;
    at = m.end;
  }
  return { text: out + text.slice(at), found };
}
