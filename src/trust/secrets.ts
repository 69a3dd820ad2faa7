/**
 * Secrets in outgoing text (SPEC T6): API keys, JWTs, PEM private keys, cloud credentials.
 *
 * Linear: the text is split once into runs of key-like characters, and each run is classified
 * by anchored patterns over that run alone (no pattern ever scans across the text), plus an
 * `indexOf` walk for PEM blocks.
 */

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
  | 'private_key';

/** One secret found: kind and [start, end) in the text. */
export interface SecretMatch {
  readonly kind: SecretKind;
  readonly start: number;
  readonly end: number;
}

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

/**
 * Find secrets in `text`, sorted by position, non-overlapping.
 * @example findSecrets('key: ghp_' + 'a'.repeat(36))[0]?.kind // 'github_token'
 */
export function findSecrets(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  pemBlocks(text, found);
  const inPem = (i: number): boolean => found.some((m) => m.kind === 'private_key' && i >= m.start && i < m.end);
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isKeyChar(text.charCodeAt(i))) { i++; continue; }
    const s = i;
    while (i < n && isKeyChar(text.charCodeAt(i))) i++;
    let e = i;
    // Sentence punctuation after a key is not part of it.
    while (e > s && (text.charCodeAt(e - 1) === 0x2e || text.charCodeAt(e - 1) === 0x2c)) e--;
    const len = e - s;
    if (len < 16 || len > 4096) continue;
    const run = text.slice(s, e);
    if (run.includes(SLACK_WEBHOOK) || (run.startsWith('services/') && text.slice(Math.max(0, s - 16), s).endsWith('hooks.slack.com/'))) {
      found.push({ kind: 'slack_webhook', start: s, end: e });
      continue;
    }
    let kind: SecretKind | undefined;
    for (const [k, re] of RUN_PATTERNS) if (re.test(run)) { kind = k; break; }
    if (kind === undefined && AWS_SECRET.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run)) {
      // 40 base64 characters are only an AWS secret when the text names one nearby.
      const context = text.slice(Math.max(0, s - 48), s).toLowerCase();
      if (context.includes('secret') || context.includes('aws')) kind = 'aws_secret_access_key';
    }
    if (kind !== undefined && !inPem(s)) found.push({ kind, start: s, end: e });
  }
  return found.sort((a, b) => a.start - b.start);
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
