/**
 * One walk over JSON text that keeps the JSON Pointer of where it is: the readers that must see
 * what `JSON.parse` hides (numbers it changes, member names it collapses) share it. The text
 * must already have parsed. Iterative, so any nesting depth; linear in the text.
 */
import { escapePointerToken } from './pointer.js';

/** One open container on the walk's path. */
export interface TextFrame {
  readonly array: boolean;
  /** Index of the current element (array). */
  index: number;
  /** Offsets of the current member name's quotes (object). */
  keyStart: number;
  keyEnd: number;
  /** The current member name, decoded on first use. */
  key?: string;
  /** Scratch of the reader using the walk: numbers found under each member name. */
  found?: Map<string, number[]>;
  /** Scratch of the reader using the walk: member names seen so far. */
  names?: Set<string>;
}

/** What a reader is told during {@link walkJsonText}. */
export interface TextVisitor {
  /** A member name was read; `top` is its object, already pointing at it. */
  member?(path: readonly TextFrame[], top: TextFrame): void;
  /** A number token spans `[start, end)`. */
  number?(path: readonly TextFrame[], start: number, end: number): void;
}

const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
const isBlank = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Offset just past the string whose opening quote is at `i`. */
function skipString(text: string, i: number): number {
  for (let j = text.indexOf('"', i + 1); j !== -1; j = text.indexOf('"', j + 1)) {
    let slashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return j + 1;
  }
  return text.length;
}

/** The current member name of `f`, decoded. */
export function keyOf(text: string, f: TextFrame): string {
  if (f.key === undefined) {
    const raw = text.slice(f.keyStart + 1, f.keyEnd - 1);
    f.key = raw.includes('\\') ? (JSON.parse(text.slice(f.keyStart, f.keyEnd)) as string) : raw;
  }
  return f.key;
}

/** The JSON Pointer of where the walk is. */
export function pointerOf(text: string, path: readonly TextFrame[]): string {
  let out = '';
  for (const f of path) out += '/' + (f.array ? String(f.index) : escapePointerToken(keyOf(text, f)));
  return out;
}

/**
 * Walk `text` (valid JSON) once, telling `visit` of member names and numbers with the path.
 * @example walkJsonText('{"a":1}', { number: (path) => console.log(pointerOf(text, path)) }) // '/a'
 */
export function walkJsonText(text: string, visit: TextVisitor): void {
  const path: TextFrame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = skipString(text, i);
      const top = path[path.length - 1];
      // In an object, a string followed by ':' is the name of the next member.
      let j = end;
      while (j < n && isBlank(text.charCodeAt(j))) j++;
      if (top !== undefined && !top.array && text.charCodeAt(j) === 0x3a) {
        top.keyStart = i;
        top.keyEnd = end;
        delete top.key;
        visit.member?.(path, top);
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      path.push({ array: c === 0x5b, index: 0, keyStart: 0, keyEnd: 0 });
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      path.pop();
      i++;
    } else if (c === 0x2c) {
      const top = path[path.length - 1];
      if (top?.array === true) top.index++;
      i++;
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      visit.number?.(path, i, j);
      i = j;
    } else {
      i++;
    }
  }
}
