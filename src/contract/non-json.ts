/**
 * Where a value stops being JSON: the first BigInt, NaN or ±Infinity, lone surrogate (in a
 * string or a key), cycle, or object JSON would write as `{}` or an index map, losing what it
 * holds (a Map or Set, binary data, an Error, a Promise), with its JSON Pointer, so an error can
 * say where the bad value is instead of only what it is. Iterative: depth costs no stack.
 */
import { escapePointerToken } from './pointer.js';

/** The first value that is not JSON, and where. */
export interface NonJsonValue {
  readonly pointer: string;
  readonly message: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function scalarProblem(v: unknown): string | null {
  if (typeof v === 'bigint') return 'BigInt is not a JSON number';
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN is not allowed' : 'Infinity is not allowed';
  if (typeof v === 'string' && LONE_SURROGATE.test(v)) return 'a lone surrogate is not allowed';
  return null;
}

/**
 * The first non-JSON value in `value` (pointers start at `base`), or null when it is all JSON.
 * @example nonJsonAt({ rows: [{ score: NaN }] }, '/data') // { pointer: '/data/rows/0/score', message: 'NaN is not allowed' }
 */
export function nonJsonAt(value: unknown, base = ''): NonJsonValue | null {
  // Nearly every value is JSON: one pass that builds no pointer says so; only a value it doubts
  // (a problem, or an object reached twice, which may be shared rather than a cycle) is walked
  // again with pointers.
  return plainJson(value) ? null : locate(value, base);
}

const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Why JSON would lose what an object without `toJSON` holds, or null: a Map or Set (written as
 * `{}`), binary data (an ArrayBuffer or Blob as `{}`, a typed array as an index map), an Error
 * (its message is no own enumerable field), a Promise (not awaited), a WeakMap, WeakSet or RegExp.
 * Plain objects and arrays, the common case, are answered without a test. The canonical writers
 * refuse the same objects, so no digest is ever taken of a value JSON would have changed.
 */
export function lostInJson(v: object): string | null {
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null || Array.isArray(v)) return null;
  if (v instanceof Map || v instanceof Set) return `a ${v instanceof Map ? 'Map' : 'Set'} is not JSON (it would be written as {})`;
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v) || (typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer) || (typeof Blob === 'function' && v instanceof Blob)) {
    return `binary data (${v.constructor.name}) is not JSON (it would be written as ${ArrayBuffer.isView(v) && !(v instanceof DataView) ? 'an object of numbered bytes' : '{}'}); return it as base64 text`;
  }
  if (v instanceof Error) return `an Error is not JSON (it would be written as {}); throw it, or return its fields`;
  if (v instanceof Promise) return 'a Promise is not JSON (it would be written as {}); await it';
  if (v instanceof WeakMap || v instanceof WeakSet || v instanceof RegExp) return `a ${v.constructor.name} is not JSON (it would be written as {})`;
  return null;
}

/** True when `value` is certainly JSON (false: it may not be). */
function plainJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!isWellFormed(v)) return false;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return false;
    } else if (typeof v === 'bigint') {
      return false;
    } else if (v !== null && typeof v === 'object') {
      if (seen.has(v)) return false;
      seen.add(v);
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') continue;
      if (lostInJson(v) !== null) return false;
      if (Array.isArray(v)) for (const x of v) stack.push(x);
      else for (const k of Object.keys(v)) {
        if (!isWellFormed(k)) return false;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return true;
}

/** The first non-JSON value with its pointer (the slow walk). */
function locate(value: unknown, base: string): NonJsonValue | null {
  // Depth-first, in document order; `open` holds the containers on the current path (cycles).
  const stack: { v: unknown; pointer: string; exit?: object }[] = [{ v: value, pointer: base }];
  const open = new Set<object>();
  while (stack.length > 0) {
    const { v, pointer, exit } = stack.pop() as { v: unknown; pointer: string; exit?: object };
    if (exit !== undefined) {
      open.delete(exit);
      continue;
    }
    const problem = scalarProblem(v);
    if (problem !== null) return { pointer, message: problem };
    if (typeof v !== 'object' || v === null) continue;
    if (open.has(v)) return { pointer, message: 'a circular reference is not allowed' };
    // A value with toJSON (a Date) is written as what it returns.
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') continue;
    // JSON writes these as {} (or an index map): what they hold would be lost without a word.
    const lost = lostInJson(v);
    if (lost !== null) return { pointer, message: lost };
    open.add(v);
    stack.push({ v: null, pointer, exit: v });
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      if (!Array.isArray(v) && LONE_SURROGATE.test(key)) return { pointer: `${pointer}/${escapePointerToken(key)}`, message: 'a key with a lone surrogate is not allowed' };
      stack.push({ v: child, pointer: `${pointer}/${escapePointerToken(key)}` });
    }
  }
  return null;
}
