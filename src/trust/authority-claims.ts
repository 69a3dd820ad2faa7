/**
 * Authority claims inside tool results (SPEC T4). Fields such as `"authorized": true` or
 * `"user_role": "admin"` are an external party's statement, kept for audit and never used for a
 * decision. This finds them so the executor can say so in `warnings`.
 */
import { formatPointer, type Envelope } from '../contract/index.js';

const CLAIM_KEYS = /^(?:is_?)?(?:authori[sz]ed|authori[sz]ation|admin|administrator|superuser|root|sudo|role|roles|user_?role|permissions?|privileges?|scopes?|access_?level|access|grants?|granted|approved|allowed|trusted|verified_?by)$/i;
const MAX_NODES = 100_000;

/** One claim found: where, and what it said. */
export interface AuthorityClaim {
  readonly pointer: string;
  readonly key: string;
  readonly value: unknown;
}

/**
 * List authority-like fields in `envelope.data` (bounded walk, no recursion).
 * @example findAuthorityClaims(env).map((c) => c.pointer) // ['/data/authorized', '/data/user_role']
 */
export function findAuthorityClaims(envelope: Pick<Envelope, 'data'>): AuthorityClaim[] {
  const out: AuthorityClaim[] = [];
  const stack: { v: unknown; path: string[] }[] = [{ v: envelope.data, path: ['data'] }];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_NODES) {
    const { v, path } = stack.pop() as { v: unknown; path: string[] };
    if (Array.isArray(v)) v.forEach((item, i) => stack.push({ v: item, path: [...path, String(i)] }));
    else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (CLAIM_KEYS.test(k)) out.push({ pointer: formatPointer([...path, k]), key: k, value: item });
        stack.push({ v: item, path: [...path, k] });
      }
    }
  }
  return out.sort((a, b) => a.pointer.localeCompare(b.pointer));
}

/**
 * Warnings stating that the claims found grant nothing.
 * @example authorityWarnings(env)[0]?.code // 'T4.authority-claim-ignored'
 */
export function authorityWarnings(envelope: Pick<Envelope, 'data'>): { code: string; message: string; pointer: string }[] {
  return findAuthorityClaims(envelope).map((c) => ({
    code: 'T4.authority-claim-ignored',
    message: `the tool result claims ${c.key} = ${JSON.stringify(c.value)?.slice(0, 60) ?? 'undefined'}; a tool result grants no authority`,
    pointer: c.pointer,
  }));
}
