/**
 * A strict RFC 6901 JSON Pointer resolver.
 *
 * Popular pointer libraries walk inherited properties, so `/data/constructor` or `/items/length`
 * "resolve". Evidence must point at facts that are really in the envelope, so this resolver sees
 * own enumerable properties only, accepts array indexes of the form `0|[1-9][0-9]*`, and allows
 * `~` only as `~0` or `~1` (decoding `~1` before `~0`, as the RFC requires).
 */

/** Why a pointer did not resolve. */
export type PointerFailure = 'syntax' | 'missing';

/** Result of {@link resolvePointer}. */
export type PointerResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: PointerFailure; readonly at: string };

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
const BAD_TILDE = /~(?![01])/;

/**
 * Split a pointer into unescaped reference tokens, or return null when it is not valid syntax.
 * @example parsePointer('/a~1b/0') // ['a/b', '0']
 */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (pointer[0] !== '/') return null;
  const raw = pointer.slice(1).split('/');
  const tokens: string[] = [];
  for (const token of raw) {
    // Most tokens have no tilde; skip the regex work for them (validate() resolves many pointers).
    if (token.indexOf('~') === -1) {
      tokens.push(token);
      continue;
    }
    if (BAD_TILDE.test(token)) return null;
    tokens.push(token.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return tokens;
}

/** Escape one reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Build a pointer from raw tokens.
 * @example formatPointer(['data', 'a/b']) // '/data/a~1b'
 */
export function formatPointer(tokens: readonly (string | number)[]): string {
  let out = '';
  for (const t of tokens) out += '/' + escapePointerToken(String(t));
  return out;
}

/** What {@link step} answers when the token names nothing. */
const NOTHING = Symbol('nothing');

/** The member `token` of `current` by {@link resolvePointer}'s rules, or `NOTHING`. */
function step(current: unknown, token: string): unknown {
  if (Array.isArray(current)) {
    if (!ARRAY_INDEX.test(token)) return NOTHING;
    const index = Number(token);
    return index < current.length ? current[index] : NOTHING;
  }
  if (current === null || typeof current !== 'object') return NOTHING;
  // Own data properties only: no inherited members, and no getters run.
  const desc = Object.getOwnPropertyDescriptor(current, token);
  return desc === undefined || !desc.enumerable || !('value' in desc) ? NOTHING : desc.value;
}

/**
 * Resolve `pointer` against `document`, looking at own properties only.
 * @example resolvePointer({ a: [1, 2] }, '/a/1') // { ok: true, value: 2 }
 */
export function resolvePointer(document: unknown, pointer: string): PointerResult {
  const tokens = parsePointer(pointer);
  if (tokens === null) return { ok: false, reason: 'syntax', at: '' };
  let current: unknown = document;
  for (let k = 0; k < tokens.length; k++) {
    current = step(current, tokens[k] as string);
    if (current === NOTHING) return missing(tokens, k);
  }
  return { ok: true, value: current };
}

/** The failure result, naming the pointer prefix up to the token that did not resolve. */
function missing(tokens: readonly string[], k: number): PointerResult {
  return { ok: false, reason: 'missing', at: formatPointer(tokens.slice(0, k + 1)) };
}

/**
 * True when `pointer` is valid syntax and names an existing value in `document`. Same answer as
 * `resolvePointer(document, pointer).ok`, without building the token list (validate() asks this
 * for every evidence pointer of every envelope).
 */
export function pointerResolves(document: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  if (pointer.charCodeAt(0) !== 0x2f || pointer.indexOf('~') !== -1) return resolvePointer(document, pointer).ok;
  let current: unknown = document;
  let from = 1;
  for (;;) {
    const slash = pointer.indexOf('/', from);
    current = step(current, slash === -1 ? pointer.slice(from) : pointer.slice(from, slash));
    if (current === NOTHING) return false;
    if (slash === -1) return true;
    from = slash + 1;
  }
}
