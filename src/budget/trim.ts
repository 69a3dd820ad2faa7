/**
 * Structural trimming (SPEC Z2): arrays lose items, objects lose fields, strings are cut at
 * code-point boundaries, deep containers are emptied. The output is always a JSON value, and
 * every node that lost something gets a `{pointer, kind, kept, total}` record.
 */
import { escapePointerToken, type Trim } from '../contract/index.js';

/** Per-node limits. `fields` may be Infinity. */
export interface TrimLimits {
  readonly items: number;
  readonly chars: number;
  readonly depth: number;
  readonly fields: number;
}

/** Pointers (relative to the trimmed root) that evidence names, plus their ancestors. */
export interface Protection {
  /** Exact targets named by evidence. */
  readonly targets: ReadonlySet<string>;
  /** Targets and all their ancestors. */
  readonly onPath: ReadonlySet<string>;
  /** Limits that apply to protected nodes (looser than `limits` while preferring evidence). */
  readonly limits: TrimLimits;
}

/** A list that lost items, with the items it lost (for the summary). */
export interface DroppedList {
  /** Pointer of the list in the output, relative to the trimmed root. */
  readonly pointer: string;
  /** Pointer of the list in the input. */
  readonly origin: string;
  readonly total: number;
  readonly kept: number;
  readonly dropped: readonly unknown[];
  /** Items kept as one leading run (0..n-1): where a cursor can continue. */
  readonly prefix: number;
}

/** Result of {@link trimValue}. */
export interface TrimOutcome {
  readonly value: unknown;
  /** Records with pointers relative to the trimmed root. */
  readonly trims: Trim[];
  readonly lists: DroppedList[];
  /** For each protected target: where it is in the output, and whether it is there whole. */
  readonly located: Map<string, { readonly pointer: string; readonly intact: boolean }>;
}

/** Number of code points in `s` (a lone surrogate counts as one). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** UTF-16 index after the first `n` code points of `s`. */
function codePointCut(s: string, n: number): number {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      i += d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    } else {
      i++;
    }
  }
  return i;
}

const NO_PROTECTION: Protection = {
  targets: new Set(),
  onPath: new Set(),
  limits: { items: 0, chars: 0, depth: 0, fields: 0 },
};

/**
 * Trim `value` to `limits`, keeping evidence-named nodes in preference.
 * `keysOf` may hold the member names of objects from an earlier trim of the same value (the
 * search trims one value at many scales; a wide object's names are listed once, not per scale).
 * @example trimValue([1, 2, 3], { items: 2, chars: 10, depth: 5, fields: Infinity }).trims
 * // [{ pointer: '', kind: 'items', kept: 2, total: 3 }]
 */
export function trimValue(value: unknown, limits: TrimLimits, protection: Protection = NO_PROTECTION, keysOf: WeakMap<object, string[]> = new WeakMap()): TrimOutcome {
  const out: TrimOutcome = { value: undefined, trims: [], lists: [], located: new Map() };
  const guarded = protection.onPath.size > 0;

  const walk = (node: unknown, origin: string, at: string, depth: number): { value: unknown; cut: boolean } => {
    const isProtected = guarded && protection.onPath.has(origin);
    const lim = isProtected ? protection.limits : limits;
    let result: { value: unknown; cut: boolean };
    if (typeof node === 'string') {
      const cap = guarded && protection.targets.has(origin) ? protection.limits.chars : limits.chars;
      if (node.length <= cap) result = { value: node, cut: false };
      else {
        const total = codePointLength(node);
        if (total <= cap) result = { value: node, cut: false };
        else {
          out.trims.push({ pointer: at, kind: 'chars', kept: cap, total });
          result = { value: node.slice(0, codePointCut(node, cap)), cut: true };
        }
      }
    } else if (Array.isArray(node)) {
      result = walkArray(node, origin, at, depth, lim);
    } else if (node !== null && typeof node === 'object') {
      result = walkObject(node as Record<string, unknown>, origin, at, depth, lim);
    } else {
      result = { value: node, cut: false };
    }
    if (guarded && protection.targets.has(origin)) out.located.set(origin, { pointer: at, intact: !result.cut });
    return result;
  };

  const walkArray = (node: unknown[], origin: string, at: string, depth: number, lim: TrimLimits) => {
    if (node.length === 0) return { value: [], cut: false };
    if (depth >= lim.depth) {
      out.trims.push({ pointer: at, kind: 'depth', kept: 0, total: node.length });
      return { value: [], cut: true };
    }
    const keep = chooseIndexes(node.length, limits.items, guarded ? (i) => protection.onPath.has(`${origin}/${i}`) : null, protection.limits.items);
    const kept: unknown[] = [];
    let cut = false;
    for (const i of keep) {
      const child = walk(node[i], `${origin}/${i}`, `${at}/${kept.length}`, depth + 1);
      kept.push(child.value);
      cut ||= child.cut;
    }
    if (keep.length < node.length) {
      const keepSet = new Set(keep);
      const dropped: unknown[] = [];
      for (let i = 0; i < node.length; i++) if (!keepSet.has(i)) dropped.push(node[i]);
      let prefix = 0;
      while (prefix < keep.length && keep[prefix] === prefix) prefix++;
      out.trims.push({ pointer: at, kind: 'items', kept: keep.length, total: node.length });
      out.lists.push({ pointer: at, origin, total: node.length, kept: keep.length, dropped, prefix });
      cut = true;
    }
    return { value: kept, cut };
  };

  const walkObject = (node: Record<string, unknown>, origin: string, at: string, depth: number, lim: TrimLimits) => {
    let keys = keysOf.get(node);
    if (keys === undefined) {
      keys = Object.keys(node);
      keysOf.set(node, keys);
    }
    if (keys.length === 0) return { value: {}, cut: false };
    if (depth >= lim.depth) {
      out.trims.push({ pointer: at, kind: 'depth', kept: 0, total: keys.length });
      return { value: {}, cut: true };
    }
    // Pointer tokens only for the names looked at: a wide object keeps few of its members.
    const names = keys;
    const token = (i: number): string => escapePointerToken(names[i] as string);
    const keep = chooseIndexes(keys.length, limits.fields, guarded ? (i) => protection.onPath.has(`${origin}/${token(i)}`) : null, protection.limits.fields);
    const kept: Record<string, unknown> = {};
    let cut = false;
    for (const i of keep) {
      const key = keys[i] as string;
      const t = token(i);
      const child = walk(node[key], `${origin}/${t}`, `${at}/${t}`, depth + 1);
      // defineProperty so a "__proto__" key stays an own data property.
      Object.defineProperty(kept, key, { value: child.value, enumerable: true, writable: true, configurable: true });
      cut ||= child.cut;
    }
    if (keep.length < keys.length) {
      out.trims.push({ pointer: at, kind: 'field', kept: keep.length, total: keys.length });
      cut = true;
    }
    return { value: kept, cut };
  };

  const root = walk(value, '', '', 0);
  return { ...out, value: root.value };
}

/**
 * Indexes to keep, in order: protected ones first (up to `protectedCap`), then the leading
 * unprotected ones up to `cap` in total.
 */
function chooseIndexes(length: number, cap: number, isProtected: ((i: number) => boolean) | null, protectedCap: number): number[] {
  if (length <= cap && isProtected === null) return Array.from({ length }, (_, i) => i);
  const chosen = new Set<number>();
  if (isProtected !== null) {
    for (let i = 0; i < length && chosen.size < Math.max(protectedCap, 0); i++) if (isProtected(i)) chosen.add(i);
  }
  let room = cap - chosen.size;
  for (let i = 0; i < length && room > 0; i++) {
    if (!chosen.has(i)) {
      chosen.add(i);
      room--;
    }
  }
  return [...chosen].sort((a, b) => a - b);
}
