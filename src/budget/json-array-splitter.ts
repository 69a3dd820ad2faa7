/**
 * Split a JSON text whose top level is an array into its elements as bytes arrive (SPEC Z7).
 * Tracks strings, escapes and nesting across chunk boundaries; works on UTF-8 bytes, so a
 * multi-byte character split between chunks is never decoded in halves. Elements are handed
 * over whole (as a byte range); what they contain is checked when they are parsed.
 *
 * The scan is the hot loop of the streaming path: strings are skipped in a tight loop, and
 * positions (line, column) are only worked out when an error is reported.
 */
import { TrcError } from '../contract/index.js';

/** A position in the whole input: byte offset, 1-based line, 1-based column. */
export interface SourcePosition {
  readonly offset: number;
  readonly line: number;
  /** In code points, or in bytes when `columnUnit` is `"byte"` (line began in an earlier chunk). */
  readonly column: number;
  readonly columnUnit?: 'byte';
}

/** Throw the stable "not JSON" error with a position. */
export function notJson(message: string, at: SourcePosition): never {
  const unit = at.columnUnit === 'byte' ? ' (byte)' : '';
  throw new TrcError('INPUT_NOT_JSON', `not JSON at line ${at.line}, column ${at.column}${unit}: ${message}`, {
    data: { line: at.line, column: at.column, offset: at.offset, ...(at.columnUnit === undefined ? {} : { column_unit: at.columnUnit }) },
  });
}

/** A byte count as limits are named: `256 MiB`, else bytes. */
export const byteSize = (n: number): string => (n >= 1 << 20 && n % (1 << 20) === 0 ? `${n / (1 << 20)} MiB` : `${n} bytes`);

/** Refuse an element that outgrows `limit` while it is being collected (it would be held whole). */
export function elementTooLarge(limit: number, line: number): never {
  throw new TrcError('STREAM_ELEMENT_TOO_LARGE', `the list element that starts on line ${line} is larger than ${byteSize(limit)}, the limit for one element (each element is held whole)`, {
    data: { line, limit },
  });
}

/** Code points in `bytes[from, to)` (UTF-8: every byte that is not a continuation byte). */
function codePointsIn(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (((bytes[i] as number) & 0xc0) !== 0x80) n++;
  return n;
}

/** Where an element starts, cheap to take; see {@link JsonArraySplitter.positionOf}. */
export interface ElementMark {
  readonly offset: number;
  readonly line: number;
  readonly lineStart: number;
  /** Column fixed when the element spanned chunks, else -1 (worked out on demand). */
  readonly column: number;
  readonly byteColumn: boolean;
}

const START = 0;
const BETWEEN = 1;
const ELEMENT = 2;
const DONE = 3;
const NOT_ARRAY = 4;

/**
 * Receives each element as `bytes[from, to)`. Consecutive elements of one chunk share the same
 * `bytes` object, so a consumer may parse a run of them at once.
 */
export type ElementSink = (bytes: Uint8Array, from: number, to: number) => void;

/** Push chunks, get elements through the callback; call `end()` after the last chunk. */
export class JsonArraySplitter {
  private mode = START;
  /** After '[' (true) or after ',' (false): whether ']' may come next. */
  private closeAllowed = true;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private pieces: Uint8Array[] = [];
  private piecesBytes = 0;
  /** Global offset of the current chunk's first byte. */
  private base = 0;
  private line = 1;
  /** Global offset of the first byte of the current line. */
  private lineStart = 0;
  private chunk: Uint8Array = new Uint8Array(0);
  /** Global offset of `chunk`'s first byte. */
  private chunkBase = 0;
  private elemOffset = 0;
  private elemLine = 1;
  private elemLineStart = 0;
  /** Position of the current element's first byte, resolved while its first chunk was current. */
  private elemColumn: { column: number; columnUnit?: 'byte' } | null = null;

  /** `maxElementBytes`: refuse (STREAM_ELEMENT_TOO_LARGE) an element larger than this. */
  constructor(
    private readonly onElement: ElementSink,
    private readonly maxElementBytes = Infinity,
  ) {}

  /** undefined until the first non-blank byte; then whether the input is a top-level array. */
  get isArray(): boolean | undefined {
    return this.mode === START ? undefined : this.mode !== NOT_ARRAY;
  }

  /**
   * A cheap mark of where the element being handed over starts (call from inside the
   * callback); turn it into a position with {@link positionOf} before the next `push`.
   */
  elementMark(): ElementMark {
    const c = this.elemColumn;
    return { offset: this.elemOffset, line: this.elemLine, lineStart: this.elemLineStart, column: c?.column ?? -1, byteColumn: c?.columnUnit === 'byte' };
  }

  /** The position of a mark taken during the current chunk. */
  positionOf(mark: ElementMark): SourcePosition {
    const col = mark.column >= 0 ? { column: mark.column, ...(mark.byteColumn ? { columnUnit: 'byte' as const } : {}) } : this.columnAt(mark.offset, mark.lineStart);
    return { offset: mark.offset, line: mark.line, ...col };
  }

  /** Scan one chunk. The caller may reuse `chunk`'s memory once this returns. */
  push(chunk: Uint8Array): void {
    if (this.mode === NOT_ARRAY) return;
    this.chunk = chunk;
    this.chunkBase = this.base;
    let mode = this.mode;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let elemStart = mode === ELEMENT ? 0 : -1;
    const n = chunk.length;
    const base = this.base;
    for (let i = 0; i < n; i++) {
      if (mode === ELEMENT && inString) {
        // Skip to the closing quote. A plain loop beats indexOf here: most strings of JSON rows
        // are short, and a backslash always takes the next byte with it (even in the next chunk).
        let j = i;
        if (escaped) {
          escaped = false;
          j++;
        }
        for (; j < n; j++) {
          const b = chunk[j];
          if (b === 0x22) break;
          if (b === 0x5c && ++j === n) escaped = true;
        }
        i = j;
        if (j < n) inString = false;
        continue;
      }
      const c = chunk[i] as number;
      if (c === 0x0a) {
        this.line++;
        this.lineStart = base + i + 1;
        continue;
      }
      if (mode === ELEMENT) {
        if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          if (depth > 0) depth--;
          else {
            if (c === 0x7d) notJson('unexpected "}"', this.positionAt(i));
            this.emit(chunk, elemStart, i);
            mode = DONE;
          }
        } else if (c === 0x2c && depth === 0) {
          this.emit(chunk, elemStart, i);
          mode = BETWEEN;
          this.closeAllowed = false;
        }
        continue;
      }
      if (c === 0x20 || c === 0x0d || c === 0x09) continue;
      if (mode === BETWEEN) {
        if (c === 0x5d) {
          if (!this.closeAllowed) notJson('unexpected "]" after ","', this.positionAt(i));
          mode = DONE;
        } else if (c === 0x2c) {
          notJson('unexpected ","', this.positionAt(i));
        } else {
          mode = ELEMENT;
          elemStart = i;
          this.elemOffset = base + i;
          this.elemLine = this.line;
          this.elemLineStart = this.lineStart;
          this.elemColumn = null;
          depth = 0;
          inString = false;
          escaped = false;
          i--;
        }
      } else if (mode === START) {
        if (c !== 0x5b) {
          this.mode = NOT_ARRAY;
          return;
        }
        mode = BETWEEN;
        this.closeAllowed = true;
      } else if (mode === DONE) {
        notJson('unexpected data after the top-level array', this.positionAt(i));
      }
    }
    if (mode === ELEMENT) {
      // The element continues in the next chunk: resolve its column while its bytes are here.
      if (this.pieces.length === 0) this.elemColumn = this.columnAt(this.elemOffset, this.elemLineStart);
      this.piecesBytes += n - elemStart;
      if (this.piecesBytes > this.maxElementBytes) elementTooLarge(this.maxElementBytes, this.elemLine);
      // A copy: the caller may reuse its buffer for the next chunk (see fileChunks).
      this.pieces.push(chunk.slice(elemStart));
    }
    this.base += n;
    this.mode = mode;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
  }

  /** Check the input ended after a complete array. */
  end(): void {
    const here: SourcePosition = { offset: this.base, line: this.line, ...this.columnAt(this.base, this.lineStart) };
    if (this.mode === START) notJson('empty input', here);
    if (this.mode === BETWEEN || this.mode === ELEMENT) notJson('unexpected end of input: the top-level array is not closed', here);
  }

  /** Column of global `offset`, exact when its line began in the current chunk. */
  private columnAt(offset: number, lineStart: number): { column: number; columnUnit?: 'byte' } {
    const from = lineStart - this.chunkBase;
    const to = Math.min(offset - this.chunkBase, this.chunk.length);
    if (from >= 0 && to >= from) return { column: codePointsIn(this.chunk, from, to) + 1 };
    return { column: offset - lineStart + 1, columnUnit: 'byte' };
  }

  private positionAt(i: number): SourcePosition {
    const offset = this.base + i;
    return { offset, line: this.line, ...this.columnAt(offset, this.lineStart) };
  }

  private emit(chunk: Uint8Array, from: number, to: number): void {
    if (this.pieces.length === 0) {
      this.onElement(chunk, from, to);
      return;
    }
    if (this.piecesBytes + to > this.maxElementBytes) elementTooLarge(this.maxElementBytes, this.elemLine);
    this.pieces.push(chunk.subarray(0, to));
    const joined = Buffer.concat(this.pieces);
    this.pieces = [];
    this.piecesBytes = 0;
    this.onElement(joined, 0, joined.length);
  }
}
