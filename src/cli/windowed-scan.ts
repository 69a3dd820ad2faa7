/**
 * The instruction detector over text of any length in bounded memory, for `trc scan`: text is
 * scanned in windows of 1 Mi characters that overlap by 64 Ki characters, so any match shorter
 * than the overlap is seen whole in some window. Text that fits one window is scanned in one
 * call, exactly as `detectInstructions(text)` would.
 */
import type { Detection, DetectionSpan } from '../trust/index.js';

/** Characters each window owns (spans that start in it are its own). */
export const SCAN_WINDOW_CHARS = 1 << 20;
/** Characters a window reads past what it owns. */
export const SCAN_OVERLAP_CHARS = 1 << 16;
/** Spans reported at most, as the detector's own default. */
const MAX_SPANS = 64;

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** Push text in pieces, get one verdict at the end. */
export class WindowedScan {
  private buf = '';
  private base = 0;
  private windows = 0;
  private instructional = false;
  private readonly families = new Set<string>();
  private readonly spans: DetectionSpan[] = [];

  constructor(
    private readonly detect: (text: string) => Detection,
    private readonly window = SCAN_WINDOW_CHARS,
    private readonly overlap = SCAN_OVERLAP_CHARS,
  ) {}

  /** Add the next piece of text; scans every window that is complete. */
  push(text: string): void {
    this.buf += text;
    while (this.buf.length >= this.window + this.overlap) this.step();
  }

  /** Scan what is left and return the verdict over all of the text. */
  end(): Detection {
    const last = this.detect(this.buf);
    if (this.windows === 0) return last;
    this.take(last, Infinity);
    this.buf = '';
    return { instructional: this.instructional, families: [...this.families].sort(), spans: this.spans };
  }

  private step(): void {
    // Never cut between the halves of a surrogate pair.
    const cut = isHighSurrogate(this.buf.charCodeAt(this.window - 1)) ? this.window - 1 : this.window;
    this.take(this.detect(this.buf.slice(0, cut + this.overlap)), cut);
    this.buf = this.buf.slice(cut);
    this.base += cut;
    this.windows++;
  }

  private take(d: Detection, owned: number): void {
    if (d.instructional) this.instructional = true;
    for (const f of d.families) this.families.add(f);
    for (const s of d.spans) {
      if (s.start >= owned || this.spans.length >= MAX_SPANS) continue;
      this.spans.push({ ...s, start: s.start + this.base, end: s.end + this.base });
    }
  }
}
