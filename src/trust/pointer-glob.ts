/**
 * JSON Pointer globs for field rules: RFC 6901 pointers where a whole token may be `*` (any one
 * key or index) or `**` (any number of tokens, including none). `/data/items/*\/body` names
 * the `body` of every item; `/data/**` everything under `data`. A literal `*` key is written
 * `~2` (an escape this module adds; plain RFC 6901 has no wildcard).
 */
import { formatPointer, TrcError } from '../contract/index.js';

/** A compiled glob: tokens where `*`/`**` are wildcards. */
export interface PointerGlob {
  readonly source: string;
  readonly tokens: readonly string[];
}

/** Compiled token for `*` (one token). */
export const GLOB_ANY = '\u0000*';
/** Compiled token for `**` (any number of tokens). */
export const GLOB_DEEP = '\u0000**';
const ANY = GLOB_ANY;
const DEEP = GLOB_DEEP;

/**
 * Compile a glob, throwing `TrcError('TRUST_BAD_GLOB')` (with the glob in `data`) when it is
 * not a pointer.
 * @example compileGlob('/data/items/*\/body').tokens // ['data', 'items', '\0*', 'body']
 */
export function compileGlob(source: string): PointerGlob {
  if (source !== '' && !source.startsWith('/')) {
    throw new TrcError('TRUST_BAD_GLOB', `field rule "${source}" is not a JSON Pointer (it must start with "/")`, { data: { glob: source } });
  }
  const tokens = source === '' ? [] : source.slice(1).split('/').map((t) => {
    if (t === '*') return ANY;
    if (t === '**') return DEEP;
    if (/~(?![012])/.test(t)) {
      throw new TrcError('TRUST_BAD_GLOB', `field rule "${source}" has a "~" not followed by 0, 1 or 2`, { data: { glob: source } });
    }
    return t.replace(/~2/g, '*').replace(/~1/g, '/').replace(/~0/g, '~');
  });
  return { source, tokens };
}

/**
 * True when `path` (unescaped tokens) matches the glob exactly.
 * @example matchGlob(compileGlob('/data/**'), ['data', 'a', 'b']) // true
 */
export function matchGlob(glob: PointerGlob, path: readonly string[]): boolean {
  const g = glob.tokens;
  // Iterative matcher with a single backtrack point for `**` (classic wildcard matching, O(g·p)).
  let gi = 0;
  let pi = 0;
  let starG = -1;
  let starP = 0;
  while (pi < path.length) {
    const t = g[gi];
    if (t === DEEP) { starG = gi++; starP = pi; continue; }
    if (t !== undefined && (t === ANY || t === path[pi])) { gi++; pi++; continue; }
    if (starG === -1) return false;
    gi = starG + 1;
    pi = ++starP;
  }
  while (g[gi] === DEEP) gi++;
  return gi === g.length;
}

/** True when the glob matches `path` or one of its ancestors. */
export function matchesSelfOrAncestor(glob: PointerGlob, path: readonly string[]): boolean {
  for (let k = path.length; k >= 0; k--) if (matchGlob(glob, path.slice(0, k))) return true;
  return false;
}

/** A string leaf found by {@link stringLeaves}. */
export interface StringLeaf {
  readonly path: readonly string[];
  readonly pointer: string;
  readonly value: string;
}

/**
 * Every string leaf under `value`, with its path from `base`. Iterative, so deep input cannot
 * overflow the stack; objects marked as references (`{"$untrusted": …}`) are skipped.
 * @example stringLeaves({ a: ['x'] }, ['data']).map((l) => l.pointer) // ['/data/a/0']
 */
export function stringLeaves(value: unknown, base: readonly string[]): StringLeaf[] {
  const out: StringLeaf[] = [];
  const stack: { v: unknown; path: readonly string[] }[] = [{ v: value, path: base }];
  while (stack.length > 0) {
    const { v, path } = stack.pop() as { v: unknown; path: readonly string[] };
    if (typeof v === 'string') out.push({ path, pointer: formatPointer(path), value: v });
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, String(i)] });
    else if (v !== null && typeof v === 'object' && !isUntrustedRef(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        stack.push({ v: (v as Record<string, unknown>)[k], path: [...path, k] });
      }
    }
  }
  return out;
}

/** The typed reference `isolate` leaves in `data`: `{ "$untrusted": "<content_id>" }`. */
export interface UntrustedRef {
  readonly $untrusted: string;
}

/** True when `v` is exactly an {@link UntrustedRef}. */
export function isUntrustedRef(v: unknown): v is UntrustedRef {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === '$untrusted' && typeof (v as Record<string, unknown>)['$untrusted'] === 'string';
}

/** Replace the value at `path` inside `root` (mutates; callers pass their own clone). */
export function setAtPath(root: unknown, path: readonly string[], value: unknown): void {
  let cur = root as Record<string, unknown>;
  for (let i = 0; i < path.length - 1; i++) cur = Object.getOwnPropertyDescriptor(cur, path[i] as string)?.value as Record<string, unknown>;
  const last = path[path.length - 1];
  // defineProperty, not assignment: a key named __proto__ must stay an own data property.
  if (last !== undefined) Object.defineProperty(cur, last, { value, enumerable: true, writable: true, configurable: true });
}
