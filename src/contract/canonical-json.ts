/**
 * RFC 8785 (JCS) serialization of our own (issue 18: every call digests its data, and the
 * `canonicalize` library cost ~29 % of a call). JCS over JSON data is ECMAScript's own number
 * and string serialization with every object's members in UTF-16 order, so the fast path lets
 * V8's native `JSON.stringify` do the writing: one walk collects the member names of the whole
 * value (and refuses NaN, ±Infinity, BigInt and cycles), and `JSON.stringify(value, sortedNames)`
 * emits every object's members in that order — a property list applies at every level. Lone
 * surrogates come out of `JSON.stringify` as `\udXXX` escapes, so one `indexOf` over the output
 * finds them. What the property list cannot express exactly takes the walk that writes the text
 * itself: `toJSON`, objects that are not plain, a `__proto__` member, or a name list so wide that
 * looking every name up in every object would cost more than writing the text by hand.
 * `test/contract/canonical-json.test.ts` holds both paths to the `canonicalize` library.
 */

/** Why a value has no canonical form; the digest module turns it into `JCS_UNREPRESENTABLE`. */
export class Unrepresentable extends Error {}

/** Past this depth the walks keep their ancestors, so a cycle is found when it repeats. */
const TRACK_DEPTH = 64;

type Walk = { readonly names: Set<string>; objects: number; members: number; exact: boolean };

function refuseNumber(n: number): never {
  throw new Unrepresentable(Number.isNaN(n) ? 'NaN is not allowed' : 'Infinity is not allowed');
}

/** Collect member names; `exact` turns false when only the hand-written path is exact. */
function collect(v: unknown, w: Walk, depth: number, ancestors: object[]): void {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) refuseNumber(v);
    return;
  }
  if (typeof v === 'bigint') throw new Unrepresentable('BigInt is not a JSON number');
  if (typeof v !== 'object' || v === null) return;
  if (depth > TRACK_DEPTH) {
    if (ancestors.includes(v)) throw new Unrepresentable('circular reference');
    ancestors.push(v);
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) collect(v[i], w, depth + 1, ancestors);
  } else {
    const proto: unknown = Object.getPrototypeOf(v);
    if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      w.exact = false;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    w.objects++;
    w.members += keys.length;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      w.names.add(k);
      collect(obj[k], w, depth + 1, ancestors);
    }
  }
  if (depth > TRACK_DEPTH) ancestors.pop();
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
 * Throws {@link Unrepresentable} for NaN, ±Infinity, BigInt, lone surrogates and cycles, and a
 * `RangeError` for nesting too deep to walk.
 */
export function serializeCanonical(value: unknown): string | undefined {
  const w: Walk = { names: new Set(), objects: 0, members: 0, exact: true };
  collect(value, w, 0, []);
  // Each object looks up every collected name: bounded to a few times the members it has.
  const affordable = w.objects * w.names.size <= 4 * w.members + 1024;
  if (!w.exact || !affordable || w.names.has('__proto__')) return write(value, 0, [], '');
  const out = JSON.stringify(value, [...w.names].sort()) as string | undefined;
  if (out !== undefined && escapesSurrogate(out)) throw new Unrepresentable('lone surrogate is not allowed');
  return out;
}
