/**
 * Idempotency keys (W2): derived before the first attempt, stable across retries and restarts.
 */
import { canonicalJson, digest, sha256Hex } from '../contract/index.js';

/** What a derived key depends on. `scope` separates two intended operations with equal args. */
export interface KeyInput {
  readonly tool: string;
  readonly args: unknown;
  readonly principal: string;
  /** Caller-chosen scope, e.g. a conversation or order id; null when the args alone identify the operation. */
  readonly scope?: string | null;
}

/**
 * A stable idempotency key from tool, canonical args, principal and scope (RFC 8785 form, so
 * key order in `args` does not matter).
 * @example idempotencyKey({ tool: 'pay', args: { amount: 5 }, principal: 'u1', scope: 'order_7' }) // 'idem_…'
 */
export function idempotencyKey(input: KeyInput): string {
  const material = canonicalJson({ tool: input.tool, args: input.args, principal: input.principal, scope: input.scope ?? null });
  // 160 bits is far beyond collision risk for a ledger and keeps keys short enough for downstream APIs.
  return 'idem_' + sha256Hex(material).slice(0, 40);
}

/**
 * Digest of the canonical args, stored in the ledger so a reused key with other args is refused.
 * @example argsDigest({ b: 1, a: 2 }) === argsDigest({ a: 2, b: 1 }) // true
 */
export function argsDigest(args: unknown): string {
  return digest(args);
}
