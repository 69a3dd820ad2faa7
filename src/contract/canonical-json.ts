/**
 * RFC 8785 (JCS) serialization of our own (issue 18: every call digests its data, and the
 * `canonicalize` library cost ~29 % of a call). JCS over JSON data is ECMAScript's own number
 * and string serialization with every object's members in UTF-16 order, so the fast path lets
 * V8's native `JSON.stringify` write the text: one walk makes a copy of the value in which every
 * object whose members are out of order is rebuilt in order (refusing NaN, ±Infinity, BigInt and
 * cycles on the way), and `JSON.stringify` writes that copy. Objects in tool data come in few
 * shapes (a list of rows shares its keys, and calls of one tool return the same ones), so each
 * shape's sorted order is worked out once and remembered, and its objects are rebuilt from a
 * template of that shape, which keeps V8 on its fast path; a shape that keeps coming back gets
 * a compiled builder (one object literal in sorted order), faster again. Lone surrogates come
 * out of `JSON.stringify` as `\udXXX` escapes: one `indexOf` over the output finds them. What a
 * copy cannot express exactly — `toJSON`, objects that are not plain, integer-like member names
 * (V8 always puts them first) or a `__proto__` member — takes the hand-written writer below.
 * (Measured on V8 11 / Node 20, 1 KB and 2.8 MB of records: `JSON.stringify` with the sorted
 * names as its property list ran at ~0.45 of plain `JSON.stringify` + SHA-256, the hand-written
 * writer at ~0.3–0.4, the template copy at ~0.6, with builders ~0.7–0.8.)
 * `test/contract/canonical-json.test.ts` holds both paths to the `canonicalize` library.
 */

import { DeepUnrepresentable, serializeDeep } from './canonical-deep.js';
import { lostInJson } from './non-json.js';

/** Why a value has no canonical form; the digest module turns it into `JCS_UNREPRESENTABLE`. */
export class Unrepresentable extends Error {}

/** The copy cannot be exact for this value: write it by hand instead. */
class NeedsWriter extends Error {}

/** Past this depth the walks keep their ancestors, so a cycle is found when it repeats. */
const TRACK_DEPTH = 64;
/**
 * Shapes remembered across values: calls of one tool return the same shapes again and again.
 * Only member names are kept (the lists of at most {@link MAX_CACHED_KEYS} names), never values.
 */
const MAX_SHAPES = 64;
const MAX_CACHED_KEYS = 64;
const shapes: Shape[] = [];
let nextEvicted = 0;

/** Rebuilds an object of one shape in order: one object literal, members copied with `copy`. */
type Builder = (obj: Record<string, unknown>, depth: number, ancestors: object[], copy: typeof canonicalCopy) => Record<string, unknown>;

interface Shape {
  readonly keys: readonly string[];
  /** Null when the keys are in order already (the object is kept, not rebuilt). */
  readonly sorted: readonly string[] | null;
  /** An object with the sorted keys (null values), copied to rebuild each object of the shape. */
  readonly template: Record<string, unknown> | null;
  /** How many objects of the shape were rebuilt from the template so far. */
  uses: number;
  /** The shape's compiled builder, once it has come back often enough. */
  builder: Builder | null;
}

/**
 * A remembered shape gets a builder of its own on this many uses: one object literal in sorted
 * order, which V8 creates from a boilerplate and then serializes on its fastest path (the copy
 * walk of 2.8 MB of records: ~25 % less CPU in all). Never on first sight, so data whose objects
 * all differ (random keys) compiles nothing.
 */
const BUILD_AFTER = 4;
/** False once code generation was refused (`--disallow-code-generation-from-strings`, a CSP). */
let canCompile = true;

/**
 * The builder of `sorted` keys, or null when code generation is refused. Each name enters the
 * code only as a JSON string literal (escaped by `JSON.stringify`), never as code.
 */
function compileBuilder(sorted: readonly string[]): Builder | null {
  if (!canCompile) return null;
  const members = sorted.map((k) => {
    const name = JSON.stringify(k);
    return `${name}: (x = o[${name}], typeof x === "string" || typeof x === "boolean" || x === null ? x : copy(x, d, a))`;
  });
  try {
    return new Function('o', 'd', 'a', 'copy', `let x; return { ${members.join(', ')} };`) as Builder;
  } catch {
    canCompile = false;
    return null;
  }
}

function refuseNumber(n: number): never {
  throw new Unrepresentable(Number.isNaN(n) ? 'NaN is not allowed' : 'Infinity is not allowed');
}

// Array-index names: V8 orders them numerically before every other name, whatever the copy does.
const INDEX_NAME = /^(?:0|[1-9]\d*)$/;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function newShape(keys: readonly string[]): Shape {
  let inOrder = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (k === '__proto__' || k === 'toJSON' || (INDEX_NAME.test(k) && Number(k) < 4294967295)) throw new NeedsWriter();
    if (i > 0 && (keys[i - 1] as string) > k) inOrder = false;
  }
  if (inOrder) return { keys, sorted: null, template: null, uses: 0, builder: null };
  const sorted = [...keys].sort(); // default sort compares UTF-16 code units (§3.2.3)
  const template: Record<string, unknown> = {};
  for (const k of sorted) template[k] = null;
  return { keys, sorted, template, uses: 0, builder: null };
}

/** The copy walk: `v` itself when it is canonical as it is, else a copy whose members are in order. */
function canonicalCopy(v: unknown, depth: number, ancestors: object[]): unknown {
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'number') {
      if (v - v !== 0) refuseNumber(v); // NaN and ±Infinity
    } else if (typeof v === 'bigint') {
      throw new Unrepresentable('BigInt is not a JSON number');
    }
    return v;
  }
  if (depth > TRACK_DEPTH) {
    if (ancestors.includes(v)) throw new Unrepresentable('circular reference');
    ancestors.push(v);
  }
  let out: unknown = v;
  if (Array.isArray(v)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'string' || typeof x === 'boolean' || x === null) continue;
      const c = canonicalCopy(x, depth + 1, ancestors);
      if (c !== x) (copy ??= v.slice())[i] = c;
    }
    if (copy !== null) out = copy;
  } else {
    const proto: unknown = Object.getPrototypeOf(v);
    // A plain object's toJSON is an own member (its shape sends it to the writer) or polluted
    // Object.prototype's (checked once per value).
    if (proto !== Object.prototype && proto !== null) throw new NeedsWriter();
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    let shape: Shape | undefined;
    for (let i = 0; i < shapes.length; i++) {
      const s = shapes[i] as Shape;
      if (sameKeys(s.keys, keys)) {
        shape = s;
        break;
      }
    }
    let remembered = shape !== undefined;
    if (shape === undefined) {
      shape = newShape(keys);
      if (keys.length <= MAX_CACHED_KEYS) {
        remembered = true;
        // Full: replace the entries in turn, so a value with many shapes cannot pin the cache.
        if (shapes.length < MAX_SHAPES) shapes.push(shape);
        else shapes[nextEvicted++ % MAX_SHAPES] = shape;
      }
    }
    if (shape.builder !== null) {
      out = shape.builder(obj, depth + 1, ancestors, canonicalCopy);
    } else if (shape.sorted === null) {
      let copy: Record<string, unknown> | null = null;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        const x = obj[k];
        if (typeof x === 'string' || typeof x === 'boolean' || x === null) continue;
        const c = canonicalCopy(x, depth + 1, ancestors);
        if (c !== x) (copy ??= { ...obj })[k] = c;
      }
      if (copy !== null) out = copy;
    } else {
      const copy: Record<string, unknown> = { ...shape.template };
      const sorted = shape.sorted;
      for (let i = 0; i < sorted.length; i++) {
        const k = sorted[i] as string;
        const x = obj[k];
        // Strings, booleans and null, most members, need no call.
        copy[k] = typeof x === 'string' || typeof x === 'boolean' || x === null ? x : canonicalCopy(x, depth + 1, ancestors);
      }
      out = copy;
      if (remembered && ++shape.uses === BUILD_AFTER) shape.builder = compileBuilder(sorted);
    }
  }
  if (depth > TRACK_DEPTH) ancestors.pop();
  return out;
}

// Strings without control characters, quotes, backslashes or surrogates serialize as themselves.
// eslint-disable-next-line no-control-regex -- exactly the characters JSON escapes, and surrogates
const NEEDS_CARE = /[\u0000-\u001f"\\\ud800-\udfff]/;

function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1); // NaN past the end
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

function writeString(s: string): string {
  if (!NEEDS_CARE.test(s)) return '"' + s + '"';
  if (hasLoneSurrogate(s)) throw new Unrepresentable('lone surrogate is not allowed');
  return JSON.stringify(s); // RFC 8785 §3.2.2.2 is ECMAScript's JSON string serialization
}

/** The exact path: writes the text itself. `undefined` for what JSON leaves out. */
function write(v: unknown, depth: number, ancestors: object[], key: string): string | undefined {
  switch (typeof v) {
    case 'string':
      return writeString(v);
    case 'number':
      if (!Number.isFinite(v)) refuseNumber(v);
      return String(v); // RFC 8785 §3.2.2.3 is ECMAScript's Number::toString (-0 becomes "0")
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      throw new Unrepresentable('BigInt is not a JSON number');
    case 'object':
      break;
    default:
      return undefined; // undefined, functions, symbols: left out as JSON.stringify does
  }
  if (v === null) return 'null';
  if (depth > TRACK_DEPTH) {
    if (ancestors.includes(v)) throw new Unrepresentable('circular reference');
    ancestors.push(v);
  }
  let out: string | undefined;
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    out = write((toJSON as (k: string) => unknown).call(v, key), depth + 1, ancestors, key);
  } else if (Array.isArray(v)) {
    const parts = new Array<string>(v.length);
    for (let i = 0; i < v.length; i++) parts[i] = write(v[i], depth + 1, ancestors, String(i)) ?? 'null';
    out = '[' + parts.join(',') + ']';
  } else {
    // A Map, binary data, an Error… would be written as {} (or an index map): refused, not changed.
    const lost = lostInJson(v);
    if (lost !== null) throw new Unrepresentable(lost);
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj).sort(); // default sort compares UTF-16 code units (§3.2.3)
    const parts: string[] = [];
    for (const k of keys) {
      const member = write(obj[k], depth + 1, ancestors, k);
      if (member !== undefined) parts.push(writeString(k) + ':' + member);
    }
    out = '{' + parts.join(',') + '}';
  }
  if (depth > TRACK_DEPTH) ancestors.pop();
  return out;
}

/** Whether `JSON.stringify` output has a `\uD800`–`\uDFFF` escape (a lone surrogate). */
function escapesSurrogate(json: string): boolean {
  for (let at = json.indexOf('\\ud'); at !== -1; at = json.indexOf('\\ud', at + 3)) {
    const c = json.charCodeAt(at + 3) | 0x20; // 8, 9, a–f after "\ud" name U+D800–U+DFFF
    if (!((c >= 0x38 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) continue;
    let slashes = 0;
    for (let i = at; i >= 0 && json.charCodeAt(i) === 0x5c; i--) slashes++;
    if (slashes % 2 === 1) return true; // an escape, not an escaped backslash before "ud…"
  }
  return false;
}

/**
 * RFC 8785 text of `value`, or `undefined` when JSON has nothing for it (`undefined`, a function).
 * Throws {@link Unrepresentable} for NaN, ±Infinity, BigInt, lone surrogates, cycles and objects
 * JSON would write as `{}` (a Map, binary data, an Error: see non-json.ts). Nesting
 * too deep for the recursive walks is written by the iterative writer (canonical-deep.ts).
 */
export function serializeCanonical(value: unknown): string | undefined {
  try {
    return serializeFast(value);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  let out: string | undefined;
  try {
    out = serializeDeep(value);
  } catch (e) {
    throw e instanceof DeepUnrepresentable ? new Unrepresentable(e.message) : e;
  }
  if (out !== undefined && escapesSurrogate(out)) throw new Unrepresentable('lone surrogate is not allowed');
  return out;
}

function serializeFast(value: unknown): string | undefined {
  let copy: unknown;
  try {
    if (typeof (Object.prototype as { toJSON?: unknown }).toJSON === 'function') throw new NeedsWriter();
    copy = canonicalCopy(value, 0, []);
  } catch (e) {
    if (e instanceof NeedsWriter) return write(value, 0, [], '');
    throw e;
  }
  const out = JSON.stringify(copy) as string | undefined;
  if (out !== undefined && escapesSurrogate(out)) throw new Unrepresentable('lone surrogate is not allowed');
  return out;
}
