/**
 * Classes of a raw UTF-16 unit for the detector's fast path (trigger-scan), which checks the text
 * as written before any folding: ASCII letter case and digits, base64 and hex alphabets, the
 * gaps of a spread-out encoded run, separators of spread-out letters, and signs of a decoding.
 * One table lookup per unit; built once at load.
 */
import { isBase64Char, isChunkGap } from './encoded-payloads.js';
import { isSpreadSeparator } from './text-views.js';

// The bits of RAW.
export const R_LETTER = 1; // ASCII letter
export const R_UPPER = 2;
export const R_DIGIT = 4;
export const R_BASE64 = 8;
export const R_HEX = 16;
export const R_GAP = 32; // whitespace between the chunks of a spread-out encoded run
export const R_SPREAD = 64; // may separate spread-out letters
export const R_SIGN = 128; // `$ @ < % & \`: signs of a decoding
export const R_LOWER = 512;
export const R_BIN = 1024; // `0` or `1`
/**
 * What a character adds to its base64-like chunk's flags (1 upper, 2 lower, 4 digit) sits at
 * bits 11-13 of its R_ bits: shifted down by this, they are those flags, with no branch.
 */
export const R_CHUNK_SHIFT = 11;
/** Per UTF-16 unit: its R_ bits. */
export const RAW = new Uint16Array(0x10000);
// What a base64-like character keeps of its chunk's flags (8 hex only, 16 binary only, 32 mixed case).
export const CHUNK_AND = new Uint8Array(0x80);
for (let c = 0; c < 0x80; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const digit = c >= 0x30 && c <= 0x39;
  RAW[c] = (letter ? R_LETTER : 0) | (c >= 0x41 && c <= 0x5a ? R_UPPER : 0) | (digit ? R_DIGIT : 0) |
    (isBase64Char(c) ? R_BASE64 : 0) | (digit || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) ? R_HEX : 0) |
    (isChunkGap(c) ? R_GAP : 0) | (isSpreadSeparator(c) ? R_SPREAD : 0) | ('$@<%&\\'.includes(String.fromCharCode(c)) ? R_SIGN : 0) |
    (c >= 0x61 && c <= 0x7a ? R_LOWER : 0) | (c === 0x30 || c === 0x31 ? R_BIN : 0) |
    ((c >= 0x41 && c <= 0x5a ? 1 : c >= 0x61 && c <= 0x7a ? 2 : digit ? 4 : 0) << R_CHUNK_SHIFT);
  CHUNK_AND[c] = 1 | 2 | 4 | 32 | ((RAW[c] ?? 0) & R_HEX ? 8 : 0) | (c === 0x30 || c === 0x31 ? 16 : 0);
}
RAW[0xb7] = R_SPREAD;
RAW[0x2022] = R_SPREAD;
for (let c = 0x80; c < 0x10000; c++) if (isSpreadSeparator(c)) RAW[c] = R_SPREAD;

/** Whether an upper-case ASCII letter follows a lower-case one in text[from, to). */
export function upperAfterLower(text: string, from: number, to: number): boolean {
  for (let k = from + 1; k < to; k++) if (((RAW[text.charCodeAt(k)] ?? 0) & R_UPPER) !== 0 && ((RAW[text.charCodeAt(k - 1)] ?? 0) & R_LOWER) !== 0) return true;
  return false;
}
