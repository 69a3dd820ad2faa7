/**
 * Domain helpers of the budget tests: read a stored resource back, walk JSON trees.
 */
import { openResource } from '../../src/budget/index.js';
import { findInexactNumbers, keepExactDigits } from '../../src/contract/index.js';
import type { Store } from '../../src/store/types.js';

/** The bytes of a stored resource, read through its (re-authorized) handle. */
export async function readStored(store: Store, uri: string, principal: string, now?: Date): Promise<Buffer> {
  const { chunks } = await openResource(store, uri, { principal, kind: 'resource', ...(now === undefined ? {} : { now }) });
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every node of a JSON tree with its pointer and depth (root = depth 0). */
export function nodes(value: unknown, pointer = '', depth = 0): { pointer: string; value: unknown; depth: number }[] {
  const out = [{ pointer, value, depth }];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...nodes(v, `${pointer}/${i}`, depth + 1)));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...nodes(v, `${pointer}/${esc(k)}`, depth + 1));
  }
  return out;
}

/** Code points of a string. */
export const codePoints = (s: string): number => [...s].length;

/** A chunked async source over `bytes` split at the given offsets. */
export async function* chunked(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
  yield bytes.subarray(from);
}

/**
 * `JSON.parse` as the budget's text readers do it: a number a double cannot hold keeps its
 * exact digits, as a string (see docs/contract.md, "Numbers").
 */
export function parseExact(text: string): unknown {
  return keepExactDigits(JSON.parse(text), findInexactNumbers(text));
}
