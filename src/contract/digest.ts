/**
 * Canonical JSON (RFC 8785, JCS) and the result digest (SPEC S9).
 *
 * An own serializer rather than the `canonicalize` package: every call digests its data once,
 * and the library (array joins, a `Set` per value, a surrogate scan of every string) cost about
 * 2.7× as much on 1 KB results. JCS on JSON data reduces to ECMAScript's own number and string
 * serialization plus sorted keys, so this file only adds the sort and the refusals; it passes the
 * reference implementation's vectors (`test/contract/fixtures/jcs/`). See docs/architecture.md.
 */
import * as nodeCrypto from 'node:crypto';
import { TrcError } from './trc-error.js';

/** Why a value has no canonical form; turned into `JCS_UNREPRESENTABLE` at the boundary. */
class Unrepresentable extends Error {}

// Strings without control characters, quotes, backslashes or surrogates serialize as themselves.
// eslint-disable-next-line no-control-regex -- these are exactly the characters JSON escapes
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
  // RFC 8785 §3.2.2.2 is exactly ECMAScript's JSON string serialization.
  return JSON.stringify(s);
}

/** Serialize one value; `undefined` for what JSON leaves out (undefined, functions, symbols). */
function write(v: unknown, ancestors: object[]): string | undefined {
  switch (typeof v) {
    case 'string':
      return writeString(v);
    case 'number':
      if (!Number.isFinite(v)) throw new Unrepresentable(Number.isNaN(v) ? 'NaN is not allowed' : 'Infinity is not allowed');
      // RFC 8785 §3.2.2.3 is ECMAScript's Number::toString (-0 becomes "0").
      return String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return 'null';
      // Ancestors only: a value shared by two branches is no cycle. Depth is small in practice.
      if (ancestors.includes(v)) throw new Unrepresentable('circular reference');
      ancestors.push(v);
      let out: string | undefined;
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        out = write((toJSON as () => unknown).call(v), ancestors);
      } else if (Array.isArray(v)) {
        out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',';
          out += write(v[i], ancestors) ?? 'null';
        }
        out += ']';
      } else {
        // Default sort compares UTF-16 code units, as RFC 8785 §3.2.3 requires.
        const keys = Object.keys(v).sort();
        const obj = v as Record<string, unknown>;
        out = '{';
        for (const key of keys) {
          const member = write(obj[key], ancestors);
          if (member === undefined) continue;
          if (out.length > 1) out += ',';
          out += writeString(key) + ':' + member;
        }
        out += '}';
      }
      ancestors.pop();
      return out;
    }
    case 'bigint':
      throw new Unrepresentable('BigInt is not a JSON number');
    default:
      return undefined;
  }
}

/**
 * Serialize `value` in RFC 8785 canonical form.
 *
 * Throws `TrcError('JCS_UNREPRESENTABLE')` for what JCS cannot represent: NaN, ±Infinity, lone
 * surrogates, cycles, BigInt, `undefined` or functions at the top, and nesting too deep to walk.
 * Inside objects and arrays, `undefined`, functions and symbols follow `JSON.stringify`
 * (member left out, array slot `null`); `toJSON()` is honoured.
 * @example canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  let out: string | undefined;
  try {
    out = write(value, []);
  } catch (cause) {
    const reason = cause instanceof RangeError ? 'nesting too deep' : cause instanceof Error ? cause.message : String(cause);
    throw new TrcError('JCS_UNREPRESENTABLE', `value has no RFC 8785 canonical form: ${reason}`, { cause });
  }
  if (out === undefined) {
    throw new TrcError('JCS_UNREPRESENTABLE', `value has no RFC 8785 canonical form: ${typeof value}`);
  }
  return out;
}

/**
 * SHA-256 over the canonical form of `data`, as `sha256:<hex>` (the envelope's `result_digest`).
 * @example digest({ a: 1 }) // 'sha256:015abd7f…'
 */
export function digest(data: unknown): string {
  return 'sha256:' + sha256Hex(canonicalJson(data));
}

// One-shot crypto.hash exists from Node 20.12; read it off the namespace so older 20.x still load.
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: 'hex') => string }).hash;

/** SHA-256 hex of raw bytes or a string (UTF-8); used for external resources. */
export function sha256Hex(bytes: Uint8Array | string): string {
  // One-shot crypto.hash (Node >= 20.12) skips the Hash object; most digested values are small.
  if (oneShotHash !== undefined) return oneShotHash('sha256', bytes, 'hex');
  return nodeCrypto.createHash('sha256').update(bytes).digest('hex');
}
