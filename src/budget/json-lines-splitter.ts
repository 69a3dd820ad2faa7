/**
 * Split JSON Lines (NDJSON: one JSON value per line) into elements as bytes arrive, for
 * `fitStream(…, { format: 'jsonl' })`. A raw newline cannot occur inside a JSON string (control
 * characters must be escaped), so every 0x0A byte ends a value: no string tracking is needed.
 * A trailing CR (CRLF files) is left to the value's own whitespace; blank lines are skipped
 * without being held, however long.
 * Same surface as {@link JsonArraySplitter}, so the streaming fit drives either.
 */
import { elementTooLarge, type ElementMark, type ElementSink, type SourcePosition } from './json-array-splitter.js';

/** Media type of a stored JSON Lines result: a list of one element per line (what `page` reads it as). */
export const JSONL_MIME_TYPE = 'application/jsonl';

/** True when `bytes[from, to)` holds only JSON whitespace (space, tab, CR, LF). */
function blank(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = bytes[i] as number;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return true;
}

/** Push chunks, get one element per non-blank line; call `end()` after the last chunk. */
export class JsonLinesSplitter {
  /** Pieces of a line that began in an earlier chunk (none while the line is blank so far). */
  private pieces: Uint8Array[] = [];
  private piecesBytes = 0;
  /** Blank bytes the current line began with that were dropped rather than held. */
  private skipped = 0;
  private elemSkipped = 0;
  /** Global offset of the current line's first byte, and its 1-based number. */
  private lineOffset = 0;
  private line = 1;
  private base = 0;
  private elemOffset = 0;
  private elemLine = 1;

  /** `maxElementBytes`: refuse (STREAM_ELEMENT_TOO_LARGE) a line larger than this. */
  constructor(
    private readonly onElement: ElementSink,
    private readonly maxElementBytes = Infinity,
  ) {}

  /** JSON Lines is always a list. */
  get isArray(): boolean {
    return true;
  }

  /** Where the element being handed over starts (a line always starts at column 1). */
  elementMark(): ElementMark {
    const skipped = this.elemSkipped;
    return { offset: this.elemOffset + skipped, line: this.elemLine, lineStart: this.elemOffset, column: skipped + 1, byteColumn: skipped > 0 };
  }

  /** The position of a mark. */
  positionOf(mark: ElementMark): SourcePosition {
    return { offset: mark.offset, line: mark.line, column: mark.column, ...(mark.byteColumn ? { columnUnit: 'byte' as const } : {}) };
  }

  /** Scan one chunk. The caller may reuse `chunk`'s memory once this returns. */
  push(chunk: Uint8Array): void {
    let start = 0;
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, start)) {
      if (this.pieces.length > 0) {
        if (this.piecesBytes + i - start > this.maxElementBytes) elementTooLarge(this.maxElementBytes, this.line);
        this.pieces.push(chunk.subarray(start, i));
        const whole = Buffer.concat(this.pieces);
        this.pieces = [];
        this.piecesBytes = 0;
        this.emit(whole, 0, whole.length);
      } else {
        if (i - start > this.maxElementBytes && !blank(chunk, start, i)) elementTooLarge(this.maxElementBytes, this.line);
        this.emit(chunk, start, i);
      }
      this.lineOffset = this.base + i + 1;
      this.line++;
      this.skipped = 0;
      start = i + 1;
    }
    if (start < chunk.length) {
      if (this.pieces.length === 0 && blank(chunk, start, chunk.length)) {
        // Still blank: nothing to hold, only where the value will start.
        this.skipped += chunk.length - start;
      } else {
        this.piecesBytes += chunk.length - start;
        if (this.piecesBytes > this.maxElementBytes) elementTooLarge(this.maxElementBytes, this.line);
        // The rest of the chunk begins a line that continues in the next one: keep a copy.
        this.pieces.push(chunk.slice(start));
      }
    }
    this.base += chunk.length;
  }

  /** The last line may lack its newline. */
  end(): void {
    if (this.pieces.length === 0) return;
    const whole = Buffer.concat(this.pieces);
    this.pieces = [];
    this.piecesBytes = 0;
    this.emit(whole, 0, whole.length);
  }

  private emit(bytes: Uint8Array, from: number, to: number): void {
    if (blank(bytes, from, to)) return;
    this.elemOffset = this.lineOffset;
    this.elemLine = this.line;
    this.elemSkipped = this.skipped;
    this.onElement(bytes, from, to);
  }
}
