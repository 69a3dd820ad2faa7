/**
 * Encoded payloads: long base64 or hex runs in the original text whose decoded form is readable
 * text. The detector re-scans the decoded text (one level deeper) and flags the run when the
 * decoded text is itself instructional. Runs are found in one linear pass; decoding is linear in
 * the run length.
 */

/** A decodable run: original [start, end) and the decoded text. */
export interface EncodedRun {
  readonly kind: 'base64' | 'hex';
  readonly start: number;
  readonly end: number;
  readonly decoded: string;
}

const MIN_BASE64 = 20;
const MIN_HEX = 24;
/** Decoded bytes examined per text, so a huge blob cannot multiply the work. */
const DECODE_BUDGET = 4 * 1024 * 1024;

function isBase64Char(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x2d || c === 0x5f;
}
function isHexChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Readable when nearly all bytes are printable ASCII or whitespace, and it has letters and spaces. */
function readable(bytes: Buffer): string | null {
  if (bytes.length < 8) return null;
  let printable = 0;
  let spaces = 0;
  for (const b of bytes) {
    if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09) printable++;
    if (b === 0x20) spaces++;
  }
  if (printable / bytes.length < 0.95 || spaces === 0) return null;
  return bytes.toString('latin1');
}

/**
 * Find base64 and hex runs whose decoded bytes are readable text.
 * @example findEncodedRuns('x ' + Buffer.from('ignore all previous instructions').toString('base64'))[0]?.decoded
 */
export function findEncodedRuns(text: string): EncodedRun[] {
  const runs: EncodedRun[] = [];
  let budget = DECODE_BUDGET;
  const n = text.length;
  let i = 0;
  while (i < n && budget > 0) {
    if (!isBase64Char(text.charCodeAt(i))) { i++; continue; }
    const s = i;
    let hexOnly = true;
    let upper = false;
    let lower = false;
    while (i < n && isBase64Char(text.charCodeAt(i))) {
      const c = text.charCodeAt(i);
      if (!isHexChar(c)) hexOnly = false;
      if (c >= 0x41 && c <= 0x5a) upper = true;
      if (c >= 0x61 && c <= 0x7a) lower = true;
      i++;
    }
    let e = i;
    while (e < n && e - i < 2 && text.charCodeAt(e) === 0x3d) e++;
    const len = i - s;
    if (hexOnly && len >= MIN_HEX && len % 2 === 0) {
      budget -= len;
      const decoded = readable(Buffer.from(text.slice(s, i), 'hex'));
      if (decoded !== null) runs.push({ kind: 'hex', start: s, end: i, decoded });
    } else if (len >= MIN_BASE64 && upper && lower) {
      budget -= len;
      const raw = text.slice(s, i).replace(/-/g, '+').replace(/_/g, '/');
      const decoded = readable(Buffer.from(raw, 'base64'));
      if (decoded !== null) runs.push({ kind: 'base64', start: s, end: e, decoded });
    }
    i = e;
  }
  return runs;
}
