/**
 * Numbers a double cannot hold. `JSON.parse` reads `12345678901234567890123` as
 * 1.2345678901234568e+22 and `1e400` as Infinity (which `JSON.stringify` then writes as
 * `null`) without a word. Readers of JSON text find such numbers here, with their JSON
 * Pointers, so that no value is ever changed silently: the text readers keep the exact digits
 * as a string and say so (see docs/contract.md, "Numbers").
 *
 * A number is *exact* when the double `JSON.parse` makes of it prints back as the same decimal
 * value (shortest round-trip form, as `JSON.stringify` writes it): `0.1`, `1.50`, `1e23`,
 * `9007199254740992` (2^53) and `-0` (JSON's zero) are exact; `9007199254740993`, `1e309`,
 * `1e-400` and `3.14159265358979323846` are not.
 */
import { RULES, type Finding } from './findings.js';
import { keyOf, pointerOf, walkJsonText } from './json-text-walk.js';
import { parsePointer } from './pointer.js';

/** A number in JSON text that `JSON.parse` would read as another number. */
export interface InexactNumber {
  /** RFC 6901 pointer of the number in the parsed document. */
  readonly pointer: string;
  /** The number as written. */
  readonly text: string;
  /** What a double makes of it: the nearest double, `0`, or ±Infinity. */
  readonly read: number;
}

// A number token with at most 15 significant digits and no exponent always round-trips
// (DBL_DIG = 15), so only longer runs or an exponent need the full scan.
const CANDIDATE = /\d[\d.]{15}|\d[eE]/u;

/** Sign, significant digits without leading or trailing zeros, and the decimal point's place. */
function decimal(text: string): { negative: boolean; digits: string; point: number } {
  let i = 0;
  const negative = text[0] === '-';
  if (negative || text[0] === '+') i++;
  let digits = '';
  let point = 0;
  let seenPoint = false;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '.') seenPoint = true;
    else if (c === 'e' || c === 'E') break;
    else {
      digits += c;
      if (!seenPoint) point++;
    }
  }
  const exponent = i < text.length ? Number(text.slice(i + 1)) : 0;
  const lead = digits.length - digits.replace(/^0+/u, '').length;
  digits = digits.slice(lead).replace(/0+$/u, '');
  return { negative, digits, point: digits === '' ? 0 : point - lead + exponent };
}

/**
 * True when `text` (a JSON number) reads as a double that prints back as the same value.
 * @example isExactNumber('9007199254740993') // false: it reads as 9007199254740992
 */
export function isExactNumber(text: string): boolean {
  const read = Number(text);
  if (!Number.isFinite(read)) return false;
  const a = decimal(text);
  const b = decimal(String(read));
  if (a.digits === '' || b.digits === '') return a.digits === b.digits; // zero is zero, signed or not
  return a.negative === b.negative && a.digits === b.digits && a.point === b.point;
}

/**
 * Every number in `text` that a double cannot hold, with its pointer, in document order. `text`
 * must be valid JSON (call it after `JSON.parse` succeeded); a member shadowed by a later
 * duplicate key is not listed (`JSON.parse` drops it). Linear time, iterative (any nesting
 * depth); text without a long digit run or an exponent is not scanned at all.
 * @example findInexactNumbers('{"id":12345678901234567890123}') // [{ pointer: '/id', text: '12345678901234567890123', read: 1.2345678901234568e22 }]
 */
export function findInexactNumbers(text: string): InexactNumber[] {
  if (!CANDIDATE.test(text)) return [];
  const found: (InexactNumber | null)[] = [];
  walkJsonText(text, {
    member(_path, top) {
      // A later member with the same name replaces the earlier one in JSON.parse, and so drops
      // what was found under it.
      const shadowed = top.found?.get(keyOf(text, top));
      if (shadowed === undefined) return;
      for (const k of shadowed) found[k] = null;
      top.found?.delete(keyOf(text, top));
    },
    number(path, start, end) {
      // Only a token with an exponent or more than 15 characters can be inexact.
      const token = text.slice(start, end);
      if (!(end - start > 15 || /[eE]/.test(token)) || isExactNumber(token)) return;
      const index = found.length;
      found.push({ pointer: pointerOf(text, path), text: token, read: Number(token) });
      for (const f of path) {
        if (f.array) continue;
        f.found ??= new Map();
        const key = keyOf(text, f);
        f.found.set(key, [...(f.found.get(key) ?? []), index]);
      }
    },
  });
  return found.filter((f): f is InexactNumber => f !== null);
}

/**
 * Put the exact digits back: each inexact number in `value` (the `JSON.parse` of the text they
 * were found in) becomes the string of its source text. Mutates containers in place; returns
 * the new root (a string when the whole document was such a number).
 * @example keepExactDigits(JSON.parse(text), findInexactNumbers(text))
 */
export function keepExactDigits(value: unknown, found: readonly InexactNumber[]): unknown {
  let root = value;
  for (const f of found) {
    const tokens = parsePointer(f.pointer) ?? [];
    if (tokens.length === 0) {
      root = f.text;
      continue;
    }
    let node: unknown = root;
    for (const t of tokens.slice(0, -1)) node = (node as Record<string, unknown>)[t];
    const last = tokens[tokens.length - 1] as string;
    const parent = node as Record<string, unknown>;
    // A duplicate key whose later value JSON.parse kept is not this number: leave it.
    if (Object.is(parent[last], f.read)) parent[last] = f.text;
  }
  return root;
}

/** The warning code of a number kept as its exact digits. */
export const NUMBER_KEPT_AS_TEXT = 'NUMBER_KEPT_AS_TEXT';

/**
 * One sentence on what a double would have made of the number.
 * @example describeInexact({ pointer: '/big', text: '1e400', read: Infinity })
 */
export function describeInexact(f: InexactNumber): string {
  const became = Number.isFinite(f.read) ? String(f.read) : `${f.read} (written as null)`;
  return `${f.text} cannot be held by a double (it would read as ${became}); kept as the string "${f.text}"`;
}

/**
 * The findings of a document read from text: one error per inexact number (I-JSON, RFC 7493
 * §2.2: such numbers belong in strings), at its pointer.
 * @example numberFindings(findInexactNumbers(text))
 */
export function numberFindings(found: readonly InexactNumber[]): Finding[] {
  return found.map((f) => ({
    rule: RULES.JSON_NUMBER_NOT_EXACT,
    pointer: f.pointer,
    message: `${describeInexact(f)}; send numbers beyond double precision as strings (I-JSON, RFC 7493)`,
    severity: 'error',
  }));
}
