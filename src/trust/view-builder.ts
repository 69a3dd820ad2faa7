/**
 * What every candidate decoding of the detector is built with: the view type, a builder that
 * records per UTF-16 unit where it came from, and the character classes the builders share.
 */

/**
 * A derived text and where each of its units came from; `starts`/`ends` are empty when each
 * unit stays where it was (`identity`). A view that changes nothing returns the very string it
 * was given, so the caller can skip it with one comparison.
 */
export interface TextView {
  readonly text: string;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly identity?: boolean;
}

/** Builds one view in one pass: units, and the source range each came from. */
export class Builder {
  private units = new Uint16Array(64);
  private s = new Uint32Array(64);
  private e = new Uint32Array(64);
  private n = 0;
  private changed = false;
  constructor(private readonly source: string) {}
  /** The source's character at `i`, unchanged. */
  same(i: number): void {
    this.put(this.source[i] as string, i, i + 1);
  }
  /** Drop source characters (the result differs from the source). */
  drop(): void {
    this.changed = true;
  }
  /** `chunk` in place of the source's [start, end). */
  push(chunk: string, start: number, end: number): void {
    this.changed = true;
    this.put(chunk, start, end);
  }
  private put(chunk: string, start: number, end: number): void {
    if (this.n + chunk.length > this.units.length) {
      const cap = Math.max(this.units.length * 2, this.n + chunk.length);
      const u = new Uint16Array(cap); u.set(this.units); this.units = u;
      const s = new Uint32Array(cap); s.set(this.s); this.s = s;
      const e = new Uint32Array(cap); e.set(this.e); this.e = e;
    }
    for (let i = 0; i < chunk.length; i++) {
      this.units[this.n] = chunk.charCodeAt(i);
      this.s[this.n] = start;
      this.e[this.n] = end;
      this.n++;
    }
  }
  done(): TextView {
    if (!this.changed) return unchanged(this.source);
    return { text: UTF16.decode(this.units.subarray(0, this.n)), starts: this.s.slice(0, this.n), ends: this.e.slice(0, this.n) };
  }
}

export const NO_MAP = new Uint32Array(0);
export const unchanged = (text: string): TextView => ({ text, starts: NO_MAP, ends: NO_MAP, identity: true });
export const sameLength = (units: Uint16Array): TextView => ({ text: UTF16.decode(units), starts: NO_MAP, ends: NO_MAP, identity: true });

export const UTF16 = new TextDecoder('utf-16le');

export const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;
export const isUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
export const isLetter = (c: number): boolean => isLower(c) || isUpper(c);
export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
export const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

