/**
 * Whether a stretch of text runs over the end of a sentence. A weak phrase rule is a loose
 * shape ("instead of … request", "send … to … address"); matched across two sentences it is
 * two unrelated sentences, not the shape ("… instead of emailing finance directly. Requests
 * sent to the old address …").
 */

const isUpper = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0xc0 && c <= 0xde && c !== 0xd7);
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * True when `text[start, end)` holds a sentence end: a full stop or question mark, then white
 * space, then a capital letter (so "e.g. the" and "v1.2" are not ends), or an empty line.
 * Each character is read at most three times (as itself, after a stop, after a line break):
 * linear in the stretch.
 * @example crossesSentence('Pay the bill. Then call me.', 0, 20) // true
 */
export function crossesSentence(text: string, start: number, end: number): boolean {
  const stop = Math.min(end, text.length);
  for (let i = Math.max(0, start); i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x3f) {
      let j = i + 1;
      if (j >= stop || !isSpace(text.charCodeAt(j))) continue;
      while (j < stop && isSpace(text.charCodeAt(j))) j++;
      if (j < stop && isUpper(text.charCodeAt(j))) return true;
    } else if (c === 0x0a) {
      let j = i + 1;
      while (j < stop && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09 || text.charCodeAt(j) === 0x0d)) j++;
      if (j < stop && text.charCodeAt(j) === 0x0a) return true;
    }
  }
  return false;
}
