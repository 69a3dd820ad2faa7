/**
 * RFC 8785 text of a value nested deeper than the recursive serializer's stack allows (an
 * envelope whose data is 5,000 arrays deep is valid JSON, and its digest must be checkable).
 * Iterative, so depth costs heap, not stack; slower than the fast path, and used only when that
 * path runs out of stack. Same rules: members in UTF-16 order, ECMAScript numbers and strings,
 * `toJSON` honoured, `undefined`/functions/symbols as `JSON.stringify` treats them; NaN,
 * ±Infinity, BigInt and cycles have no canonical form. (Lone surrogates are found by the caller
 * in the finished text, as for the fast path.)
 */

import { lostInJson } from './non-json.js';

/** Thrown for what has no canonical form; the caller maps it as it maps the fast path's. */
export class DeepUnrepresentable extends Error {}

type Frame =
  | { readonly kind: 'array'; readonly items: readonly unknown[]; i: number; readonly owner: object }
  | { readonly kind: 'object'; readonly obj: Record<string, unknown>; readonly keys: string[]; i: number; wrote: boolean; readonly owner: object };

/** The value JSON would write for `v` held under `key` (after `toJSON`). */
function resolved(v: unknown, key: string): unknown {
  const withToJson = v as { toJSON?: (key: string) => unknown } | null;
  return v !== null && typeof v === 'object' && typeof withToJson?.toJSON === 'function' ? withToJson.toJSON(key) : v;
}

const skipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new DeepUnrepresentable(Number.isNaN(v) ? 'NaN is not allowed' : 'Infinity is not allowed');
    return JSON.stringify(v);
  }
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') throw new DeepUnrepresentable('BigInt is not a JSON number');
  return 'null';
}

/**
 * The canonical text of `value`, or undefined when JSON has nothing for it. With `keyOrder:
 * 'insertion'`, members keep their order (the text `JSON.stringify` writes, for values that
 * have a canonical form), for storing a deep value as it came.
 * @example serializeDeep(JSON.parse('['.repeat(10_000) + ']'.repeat(10_000))).length // 20000
 */
export function serializeDeep(value: unknown, options: { readonly keyOrder?: 'canonical' | 'insertion' } = {}): string | undefined {
  const sorted = options.keyOrder !== 'insertion';
  const top = resolved(value, '');
  if (skipped(top)) return undefined;
  const out: string[] = [];
  const stack: Frame[] = [];
  const onPath = new Set<object>();
  // Write one value: a scalar at once, a container by pushing its frame.
  const open = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      out.push(scalar(v));
      return;
    }
    if (onPath.has(v)) throw new DeepUnrepresentable('circular reference');
    onPath.add(v);
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ kind: 'array', items: v, i: 0, owner: v });
    } else {
      const lost = lostInJson(v);
      if (lost !== null) throw new DeepUnrepresentable(lost);
      const obj = v as Record<string, unknown>;
      // Default sort compares UTF-16 code units, as RFC 8785 orders member names.
      out.push('{');
      const keys = Object.keys(obj);
      stack.push({ kind: 'object', obj, keys: sorted ? keys.sort() : keys, i: 0, wrote: false, owner: v });
    }
  };
  open(top);
  while (stack.length > 0) {
    const f = stack[stack.length - 1] as Frame;
    if (f.kind === 'array') {
      if (f.i >= f.items.length) {
        out.push(']');
        onPath.delete(f.owner);
        stack.pop();
        continue;
      }
      const i = f.i++;
      if (i > 0) out.push(',');
      const item = resolved(f.items[i], String(i));
      open(skipped(item) ? null : item);
    } else {
      if (f.i >= f.keys.length) {
        out.push('}');
        onPath.delete(f.owner);
        stack.pop();
        continue;
      }
      const key = f.keys[f.i++] as string;
      const member = resolved(f.obj[key], key);
      if (skipped(member)) continue;
      out.push(`${f.wrote ? ',' : ''}${JSON.stringify(key)}:`);
      f.wrote = true;
      open(member);
    }
  }
  return out.join('');
}
