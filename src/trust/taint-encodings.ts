/**
 * Encoded forms argument taint also reads (SPEC T3). An injection can hand the model a value
 * the model has to decode before it uses it: base64, hex or binary ("the payee, base64:
 * VVMxMzMw…"), reversed ("00 0130 …"), or ROT13. Untrusted content is indexed with its decoded
 * runs as further texts; an argument is also looked up reversed and ROT13-rotated, which finds
 * the same windows as indexing those views of the content would, at the cost of the (short)
 * arguments rather than of the content.
 */
import { isUtf8 } from 'node:buffer';
import { findEncodedRuns, type EncodedRun } from './encoded-payloads.js';
import { rot13 } from './word-lookup.js';

const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** Fewest significant characters a decoded run needs to be worth indexing (one window). */
const MIN_SIGNIFICANT = 6;
/**
 * Shortest base64 or hex run taint decodes (padding not counted): a short host such as `qz.io`
 * is 7 characters of base64, `z@qz.io` 14 of hex. The detector decodes 16 and more: an
 * instruction is longer than a value, and prose is full of capitalized 8-letter words.
 */
const MIN_ENCODED_CHARS = 7;

/** Fewest letters or digits of a decoded run shaped like a short name (`qz.io`, `z@qz.io`). */
const MIN_NAME_SIGNIFICANT = 4;

/**
 * Decoded bytes as text when they read as a value: valid UTF-8, printable (tab and line breaks
 * allowed), with at least six letters or digits, or four with a `.` or `@` (a short host or
 * address, which taint compares whole). Unlike the detector's test, no share of letters is
 * required: an account number or a phone number is mostly digits.
 * @example printableValue(Buffer.from('US13 3000 0001')) // 'US13 3000 0001'
 */
export function printableValue(bytes: Uint8Array): string | null {
  if (bytes.length < MIN_NAME_SIGNIFICANT + 1) return null;
  // Most runs that look encoded are ids and hashes: their bytes show a control character within
  // a few bytes, so reject on the bytes before decoding anything; plain ASCII needs no decoder.
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b >= 0x80) { ascii = false; continue; }
    if (b < 0x20 ? b !== 0x09 && b !== 0x0a && b !== 0x0d : b === 0x7f) return null;
  }
  // Ill-formed UTF-8 would decode with U+FFFD, refused below: refuse it without decoding.
  if (!ascii && !isUtf8(bytes)) return null;
  const text = ascii ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1') : UTF8.decode(bytes);
  let significant = 0;
  let nameSign = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 ? c !== 0x09 && c !== 0x0a && c !== 0x0d : c === 0x7f || c === 0xfffd || (c >= 0x80 && c < 0xa0)) return null;
    if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c >= 0xa0) significant++;
    else if (c === 0x2e || c === 0x40) nameSign = true;
  }
  return significant >= MIN_SIGNIFICANT || (nameSign && significant >= MIN_NAME_SIGNIFICANT) ? text : null;
}

/** How a value was written in the content, when taint had to undo something to find it. */
export type TaintEncoding = EncodedRun['kind'] | 'reversed' | 'rot13' | 'words' | 'split' | 'char_codes' | 'leet' | 'morse';

/**
 * The decoded base64, hex and binary runs of `texts` (contiguous or spread over chunks, as the
 * detector finds them), each once, with the encoding it was found in (the first, for a text
 * found twice). Linear in the texts; the decoder caps the bytes it examines.
 * @example decodedRunsByKind(['pay 55533133303030303030']) // [{ text: 'US13000000', kind: 'hex' }]
 */
export function decodedRunsByKind(texts: readonly string[]): { text: string; kind: EncodedRun['kind'] }[] {
  // A Map: a token-heavy result (JWTs in every row) has thousands of runs.
  const out = new Map<string, EncodedRun['kind']>();
  for (const text of texts) {
    addRuns(out, text);
    if (text.includes('://')) for (const host of encodedUrlHosts(text)) addRuns(out, host);
  }
  return [...out].map(([text, kind]) => ({ text, kind }));
}

function addRuns(out: Map<string, EncodedRun['kind']>, text: string): void {
  for (const run of findEncodedRuns(text, printableValue, MIN_ENCODED_CHARS)) if (!out.has(run.decoded)) out.set(run.decoded, run.kind);
}

// The host of a URL when it is one run of base64 or hex characters, up to where a path, query,
// port or the URL ends: `https://cXouaW8=/c`. The text's own scan misses it, because `/` is a
// base64 character too and its chunk starts at the scheme's `//`. A real host has a dot, so it
// never matches.
const ENCODED_URL_HOST = /:\/\/([A-Za-z0-9+_-]{7,}={0,2})(?=[/?#:\s"'<>)\]]|$)/g;

/** The URL hosts of `text` that are one base64 or hex run (see {@link ENCODED_URL_HOST}). */
function encodedUrlHosts(text: string): string[] {
  const hosts: string[] = [];
  for (const m of text.matchAll(ENCODED_URL_HOST)) hosts.push(m[1] ?? '');
  return hosts;
}

/**
 * Words for where a value came from, after "carries … of untrusted content …".
 * @example encodingWords('reversed') // 'written there backwards'
 */
export function encodingWords(encoding: TaintEncoding): string {
  if (encoding === 'words') return 'read out there in words';
  if (encoding === 'split') return 'split there across fields too short to trace alone';
  if (encoding === 'char_codes') return 'written there as character codes';
  if (encoding === 'leet') return 'written there in leetspeak';
  if (encoding === 'morse') return 'written there in Morse code';
  return encoding === 'reversed' ? 'written there backwards' : encoding === 'rot13' ? 'written there in ROT13' : `written there in ${encoding}`;
}

/**
 * A taint form backwards (code points kept whole).
 * @example reversedForm('us1330') // '0331su'
 */
export function reversedForm(form: string): string {
  return [...form].reverse().join('');
}

/**
 * A taint form (lower case) with its ASCII letters rotated by 13 (the detector's `rot13`); null
 * when it has none, so the rotation would only repeat the look-up.
 * @example rot13Form('hf1330') // 'us1330'
 */
export function rot13Form(form: string): string | null {
  return /[a-z]/.test(form) ? rot13(form) : null;
}
