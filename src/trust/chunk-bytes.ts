/**
 * The bytes of one short base64 or hex chunk of a text, decoded in place. Taint decodes every
 * word of seven characters or more that could be base64 (a capitalized word is), and nearly all
 * of them are noise: slicing, joining and `Buffer.from` for each cost ~9 µs a word (11,000 words
 * per MB of mail). Here a chunk is read straight from the text into one reused buffer, so the
 * decoded bytes cost what reading the characters costs. Held to `Buffer.from` by a property test.
 */

// Six bits per base64 character, standard and URL-safe alphabets alike (as `Buffer.from` reads).
const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) SEXTET['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
SEXTET[0x2d] = 62; // '-'
SEXTET[0x5f] = 63; // '_'

let scratch = new Uint8Array(64);

function room(n: number): Uint8Array {
  if (scratch.length < n) scratch = new Uint8Array(Math.max(n, scratch.length * 2));
  return scratch;
}

/**
 * The bytes of the base64 characters `text[s, e)` (no padding), as `Buffer.from(…, 'base64')`
 * decodes them; a view of a buffer that the next call overwrites. Null for a character outside
 * both alphabets.
 * @example new TextDecoder().decode(base64Bytes('cXouaW8', 0, 7) ?? new Uint8Array()) // 'qz.io'
 */
export function base64Bytes(text: string, s: number, e: number): Uint8Array | null {
  const n = Math.floor(((e - s) * 6) / 8);
  const out = room(n);
  let acc = 0;
  let bits = 0;
  let k = 0;
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? (SEXTET[c] ?? -1) : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[k++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, k);
}

/**
 * The bytes of the hex digits `text[s, e)` (an even count), as `Buffer.from(…, 'hex')` decodes
 * them; a view of a buffer that the next call overwrites. Null for a character that is not a
 * hex digit or an odd count.
 * @example hexBytes('7a40', 0, 4) // Uint8Array [0x7a, 0x40]
 */
export function hexBytes(text: string, s: number, e: number): Uint8Array | null {
  if ((e - s) % 2 !== 0) return null;
  const out = room((e - s) / 2);
  for (let i = s, k = 0; i < e; i += 2, k++) {
    const hi = nibble(text.charCodeAt(i));
    const lo = nibble(text.charCodeAt(i + 1));
    if (hi < 0 || lo < 0) return null;
    out[k] = (hi << 4) | lo;
  }
  return out.subarray(0, (e - s) / 2);
}

function nibble(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
}

/**
 * The bytes of the binary digits `text[s, e)` (a multiple of 8, every unit `0` or `1`), eight
 * digits a byte, most significant first; a view of a buffer that the next call overwrites.
 * @example bitBytes('0110100001101001', 0, 16) // Uint8Array [0x68, 0x69]
 */
export function bitBytes(text: string, s: number, e: number): Uint8Array {
  const out = room((e - s) >> 3);
  for (let i = s, k = 0; i < e; k++) {
    let b = 0;
    for (const stop = i + 8; i < stop; i++) b = (b << 1) | (text.charCodeAt(i) - 0x30);
    out[k] = b;
  }
  return out.subarray(0, (e - s) >> 3);
}
