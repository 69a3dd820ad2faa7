/**
 * A validating scanner for one JSON value held as UTF-8 bytes (SPEC Z7 streaming path). It
 * accepts exactly what `JSON.parse` accepts after a UTF-8 check (RFC 8259 grammar, valid
 * UTF-8 inside strings), builds no values and allocates nothing per element, and tells
 * {@link ListStats} what it needs about the top level: the type, and for an object each key's
 * byte range and, when the key's value is a number, its exact value.
 *
 * Omitted elements of a huge array only feed statistics, so parsing them into objects would
 * be wasted work and garbage; this scan replaces that `JSON.parse`.
 */

import { jsonNumberValue, FAST_MANTISSA_DIGITS } from './json-element-number.js';

/** Type names as `ListStats` counts them (`typeof`, with `null` and `array` split out). */
export type JsonElementType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/**
 * What a scan saw at the top level of an element. Valid until the next scan; the arrays may
 * be longer than `keyCount`.
 */
export interface ScannedElement {
  /** The bytes the key ranges point into. */
  readonly bytes: Uint8Array;
  readonly type: JsonElementType;
  /** The value when `type` is `number` (±Infinity for numbers beyond double range), else NaN. */
  readonly number: number;
  /** Keys of a top-level object in source order, duplicates included. */
  readonly keyCount: number;
  /** Byte range of key i between its quotes, still escaped. */
  readonly keyFrom: Float64Array;
  readonly keyTo: Float64Array;
  /** 1 when key i contains a backslash escape. */
  readonly keyEscaped: Uint8Array;
  /** The value of key i when it is a number, else NaN (so it counts as present, not numeric). */
  readonly keyNumber: Float64Array;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Offsets of errors are returned as `-1 - offset` by the helpers, so ≥ 0 means "next position". */
const fail = (at: number): number => -1 - at;

/** 1 for the bytes that may follow a backslash (besides `u`). */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

/** 1 for the bytes a string may hold as they are: printable ASCII but the quote and backslash. */
const PLAIN = new Uint8Array(256);
for (let b = 0x20; b < 0x80; b++) PLAIN[b] = b === QUOTE || b === BACKSLASH ? 0 : 1;

/** 1 for the hexadecimal digit bytes. */
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

function skipBlanks(bytes: Uint8Array, i: number, to: number): number {
  while (i < to) {
    const c = bytes[i] as number;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
  return i;
}

/** Position after a valid UTF-8 sequence led by `lead` (≥ 0x80) at `i`, or an error. */
function skipUtf8(bytes: Uint8Array, i: number, to: number, lead: number): number {
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (lead < 0xc2) return fail(i);
  if (lead < 0xe0) need = 1;
  else if (lead < 0xf0) {
    need = 2;
    if (lead === 0xe0) lo = 0xa0; // no overlong forms
    else if (lead === 0xed) hi = 0x9f; // no UTF-16 surrogates
  } else if (lead < 0xf5) {
    need = 3;
    if (lead === 0xf0) lo = 0x90;
    else if (lead === 0xf4) hi = 0x8f; // nothing above U+10FFFF
  } else return fail(i);
  if (i + need >= to) return fail(i);
  const b1 = bytes[i + 1] as number;
  if (b1 < lo || b1 > hi) return fail(i);
  for (let k = 2; k <= need; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return fail(i);
  return i + need + 1;
}

/** Accepts one JSON value in a byte range and reports its top level; reuse one per stream. */
export class JsonElementScanner implements ScannedElement {
  bytes: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  type: JsonElementType = 'null';
  number = Number.NaN;
  keyCount = 0;
  keyFrom = new Float64Array(16);
  keyTo = new Float64Array(16);
  keyEscaped = new Uint8Array(16);
  keyNumber = new Float64Array(16);
  /** Open bracket byte of each nesting level: an explicit stack, so depth never hits the call stack. */
  private stack: Uint8Array = new Uint8Array(64);
  /** Whether the last string scanned held a backslash escape. */
  private sawEscape = false;

  /**
   * Scan `bytes[from, to)` as one JSON value (blanks around it allowed). Returns -1 when it is
   * valid JSON in valid UTF-8, else the byte offset of the first error.
   * @example new JsonElementScanner().scan(Buffer.from('{"a":1}'), 0, 7) // -1
   */
  scan(bytes: Uint8Array, from: number, to: number): number {
    this.bytes = bytes;
    this.keyCount = 0;
    this.number = Number.NaN;
    let stack = this.stack;
    let depth = 0;
    let i = skipBlanks(bytes, from, to);
    if (i >= to) return i;
    const first = bytes[i] as number;
    this.type =
      first === OPEN_OBJECT ? 'object' : first === OPEN_ARRAY ? 'array' : first === QUOTE ? 'string' : first === 0x74 || first === 0x66 ? 'boolean' : first === 0x6e ? 'null' : 'number';
    const topObject = first === OPEN_OBJECT;
    for (;;) {
      // A value starts at i (blanks skipped).
      const c = i < to ? (bytes[i] as number) : -1;
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        i = skipBlanks(bytes, i + 1, to);
        if (i < to && bytes[i] === c + 2) {
          i++; // empty container: '{' + 2 is '}', '[' + 2 is ']'
        } else {
          if (depth === stack.length) stack = this.growStack();
          stack[depth++] = c;
          if (c === OPEN_OBJECT) {
            i = this.member(bytes, i, to, topObject && depth === 1);
            if (i < 0) return -1 - i;
          }
          continue;
        }
      } else if (c === QUOTE) {
        i = this.string(bytes, i, to);
        if (i < 0) return -1 - i;
      } else if (c === 0x74) {
        if (i + 3 >= to || bytes[i + 1] !== 0x72 || bytes[i + 2] !== 0x75 || bytes[i + 3] !== 0x65) return i;
        i += 4;
      } else if (c === 0x66) {
        if (i + 4 >= to || bytes[i + 1] !== 0x61 || bytes[i + 2] !== 0x6c || bytes[i + 3] !== 0x73 || bytes[i + 4] !== 0x65) return i;
        i += 5;
      } else if (c === 0x6e) {
        if (i + 3 >= to || bytes[i + 1] !== 0x75 || bytes[i + 2] !== 0x6c || bytes[i + 3] !== 0x6c) return i;
        i += 4;
      } else {
        // A number, or nothing valid. Its value is needed only at the top or as a top-level field.
        const slot = depth === 0 ? -2 : topObject && depth === 1 ? this.keyCount - 1 : -1;
        i = this.numberAt(bytes, i, to, slot);
        if (i < 0) return -1 - i;
      }
      // After a value: close containers, or take a comma and go to the next value.
      for (;;) {
        i = skipBlanks(bytes, i, to);
        if (depth === 0) return i === to ? -1 : i;
        const open = stack[depth - 1] as number;
        const d = i < to ? (bytes[i] as number) : -1;
        if (d === COMMA) {
          i = skipBlanks(bytes, i + 1, to);
          if (open === OPEN_OBJECT) {
            i = this.member(bytes, i, to, topObject && depth === 1);
            if (i < 0) return -1 - i;
          }
          break;
        }
        if (d !== open + 2) return i;
        depth--;
        i++;
      }
    }
  }

  /** An object member's key and colon at i; returns where its value starts, or an error. */
  private member(bytes: Uint8Array, i: number, to: number, record: boolean): number {
    const start = i;
    i = this.string(bytes, i, to);
    if (i < 0) return i;
    if (record) this.recordKey(start + 1, i - 1);
    i = skipBlanks(bytes, i, to);
    if (i >= to || bytes[i] !== COLON) return fail(i);
    return skipBlanks(bytes, i + 1, to);
  }

  private recordKey(from: number, to: number): void {
    const k = this.keyCount;
    if (k === this.keyFrom.length) this.growKeys();
    this.keyFrom[k] = from;
    this.keyTo[k] = to;
    this.keyEscaped[k] = this.sawEscape ? 1 : 0;
    this.keyNumber[k] = Number.NaN;
    this.keyCount = k + 1;
  }

  /** A string starting with its quote at i; returns the position after the closing quote. */
  private string(bytes: Uint8Array, i: number, to: number): number {
    if (i >= to || bytes[i] !== QUOTE) return fail(i);
    let escaped = false;
    i++;
    for (;;) {
      // The common bytes first, in a tight loop.
      while (i < to && PLAIN[bytes[i] as number] === 1) i++;
      if (i >= to) return fail(i);
      const b = bytes[i] as number;
      if (b === QUOTE) {
        this.sawEscape = escaped;
        return i + 1;
      }
      if (b === BACKSLASH) {
        escaped = true;
        const e = i + 1 < to ? (bytes[i + 1] as number) : -1;
        if (e === 0x75) {
          if (i + 5 >= to || HEX[bytes[i + 2] as number] !== 1 || HEX[bytes[i + 3] as number] !== 1 || HEX[bytes[i + 4] as number] !== 1 || HEX[bytes[i + 5] as number] !== 1) return fail(i);
          i += 6;
        } else if (e >= 0 && SIMPLE_ESCAPE[e] === 1) i += 2;
        else return fail(i);
      } else if (b < 0x80) return fail(i); // a control character
      else {
        i = skipUtf8(bytes, i, to, b);
        if (i < 0) return i;
      }
    }
  }

  /**
   * A number at i (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`): a fraction or exponent without
   * digits is left for the caller to reject as the next byte, as `JSON.parse` does.
   * `slot` -2 stores the value as the element's number, ≥ 0 as that key's value.
   */
  private numberAt(bytes: Uint8Array, i: number, to: number, slot: number): number {
    const start = i;
    const negative = bytes[i] === MINUS;
    if (negative) i++;
    let c = i < to ? (bytes[i] as number) : -1;
    if (c < ZERO || c > NINE) return fail(start);
    let mantissa = 0;
    let digits = 0;
    let exponent = 0;
    if (c === ZERO) i++;
    else {
      for (; i < to && (c = bytes[i] as number) >= ZERO && c <= NINE; i++) {
        if (++digits <= FAST_MANTISSA_DIGITS) mantissa = mantissa * 10 + (c - ZERO);
      }
    }
    if (i + 1 < to && bytes[i] === 0x2e && (c = bytes[i + 1] as number) >= ZERO && c <= NINE) {
      for (i++; i < to && (c = bytes[i] as number) >= ZERO && c <= NINE; i++) {
        exponent--;
        // Leading zeros of the fraction of 0.00… are not significant.
        if (digits > 0 || c !== ZERO) {
          if (++digits <= FAST_MANTISSA_DIGITS) mantissa = mantissa * 10 + (c - ZERO);
        }
      }
    }
    if (i < to && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
      let j = i + 1;
      const sign = j < to && (bytes[j] === 0x2b || bytes[j] === MINUS) ? (bytes[j++] === MINUS ? -1 : 1) : 1;
      if (j < to && (c = bytes[j] as number) >= ZERO && c <= NINE) {
        let written = 0;
        for (; j < to && (c = bytes[j] as number) >= ZERO && c <= NINE; j++) if (written < 1e6) written = written * 10 + (c - ZERO);
        // A huge written exponent only needs to miss the fast path.
        exponent = written >= 1e6 ? Number.NaN : exponent + sign * written;
        i = j;
      }
    }
    if (slot !== -1) {
      const v = jsonNumberValue(bytes, start, i, negative, mantissa, digits, exponent);
      if (slot === -2) {
        this.number = v;
        // A number a double cannot hold is read as its exact digits (a string), as parsing does.
        if (Number.isNaN(v)) this.type = 'string';
      } else {
        this.keyNumber[slot] = v;
      }
    }
    return i;
  }

  private growStack(): Uint8Array {
    const next = new Uint8Array(this.stack.length * 2);
    next.set(this.stack);
    this.stack = next;
    return next;
  }

  private growKeys(): void {
    const n = this.keyFrom.length * 2;
    const grow = <T extends Float64Array | Uint8Array>(a: T, b: T): T => (b.set(a), b);
    this.keyFrom = grow(this.keyFrom, new Float64Array(n));
    this.keyTo = grow(this.keyTo, new Float64Array(n));
    this.keyEscaped = grow(this.keyEscaped, new Uint8Array(n));
    this.keyNumber = grow(this.keyNumber, new Float64Array(n));
  }
}
