/**
 * Who a verified access token speaks for: the principal string every handle, idempotency key,
 * ledger entry, audit record and run of the gateway is bound to. Issuer plus subject (OpenID
 * Connect: `sub` is unique only within its issuer), plus the tenant when configured. Each part
 * is percent-encoded, so no choice of `sub` or tenant can spell another principal.
 */
import type { JWTPayload } from 'jose';

/** The principal and scopes of a token, or why the claims do not name one. */
export type ClaimsIdentity = { readonly ok: true; readonly principal: string; readonly scopes: readonly string[] } | { readonly ok: false; readonly reason: string };

/**
 * The principal of verified claims: `oauth:<iss>:<sub>`, or `oauth:<iss>:<tenant>:<sub>` with a
 * tenant claim configured (a token without it names no principal).
 * @example principalFromClaims({ iss: 'https://as.example.com', sub: 'alice' }) // → { ok: true, principal: 'oauth:https%3A%2F%2Fas.example.com:alice', scopes: [] }
 */
export function principalFromClaims(claims: JWTPayload, options: { readonly tenantClaim?: string } = {}): ClaimsIdentity {
  const { iss, sub } = claims;
  if (typeof iss !== 'string' || iss === '') return { ok: false, reason: 'the token has no issuer' };
  if (typeof sub !== 'string' || sub === '') return { ok: false, reason: 'the token has no subject ("sub")' };
  const parts = [iss];
  if (options.tenantClaim !== undefined) {
    const tenant = claims[options.tenantClaim];
    if (!((typeof tenant === 'string' && tenant !== '') || (typeof tenant === 'number' && Number.isFinite(tenant)))) {
      return { ok: false, reason: `the token has no tenant ("${options.tenantClaim}")` };
    }
    parts.push(String(tenant));
  }
  parts.push(sub);
  return { ok: true, principal: `oauth:${parts.map(encodeURIComponent).join(':')}`, scopes: scopesOf(claims) };
}

/** Granted scopes: the `scope` string (RFC 9068), else an `scp` array or string (common in Entra ID, Okta). */
function scopesOf(claims: JWTPayload): string[] {
  const value = claims['scope'] ?? claims['scp'];
  if (typeof value === 'string') return value.split(' ').filter((s) => s !== '');
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string' && s !== '');
  return [];
}
