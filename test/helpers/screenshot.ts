/**
 * Screenshot checks: a PNG compared with a committed reference by pixelmatch, within a
 * tolerance (anti-aliasing differs by a few pixels between runs and machines; a layout change
 * moves thousands). `TRC_UPDATE_SCREENSHOTS=1` rewrites the references instead of comparing.
 * A mismatch leaves the actual and the diff image in a temporary directory and names it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** The result of one comparison. */
export interface ScreenshotCheck {
  /** Share of pixels that differ (0..1); 0 when the reference was (re)written. */
  readonly ratio: number;
  readonly message: string;
}

/**
 * Compare `actual` (PNG bytes) with the reference at `referencePath`.
 * @example expect(matchScreenshot(png, ref).ratio).toBeLessThan(0.002)
 */
export function matchScreenshot(actual: Buffer, referencePath: string): ScreenshotCheck {
  if (process.env['TRC_UPDATE_SCREENSHOTS'] === '1') {
    mkdirSync(dirname(referencePath), { recursive: true });
    writeFileSync(referencePath, actual);
    return { ratio: 0, message: `wrote ${referencePath}` };
  }
  if (!existsSync(referencePath)) {
    return { ratio: 1, message: `no reference at ${referencePath}: run with TRC_UPDATE_SCREENSHOTS=1 to create it, then commit it` };
  }
  const want = PNG.sync.read(readFileSync(referencePath));
  const got = PNG.sync.read(actual);
  if (want.width !== got.width || want.height !== got.height) {
    return { ratio: 1, message: `size ${got.width}x${got.height} differs from the reference's ${want.width}x${want.height}` };
  }
  const diff = new PNG({ width: got.width, height: got.height });
  const changed = pixelmatch(want.data, got.data, diff.data, got.width, got.height, { threshold: 0.1 });
  const ratio = changed / (got.width * got.height);
  if (changed === 0) return { ratio, message: 'identical' };
  const out = mkdtempSync(join(tmpdir(), 'trc-screenshot-'));
  writeFileSync(join(out, 'actual.png'), actual);
  writeFileSync(join(out, 'diff.png'), PNG.sync.write(diff));
  return { ratio, message: `${changed} pixel(s) differ (${(ratio * 100).toFixed(3)} %); actual and diff in ${out}` };
}
