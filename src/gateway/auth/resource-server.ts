/**
 * The HTTP gateway's OAuth door: one object that authenticates a request's bearer token into a
 * principal, decides whether a tool call's scopes suffice, and words the 401/403 answers. The
 * principal it yields goes into the gateway session exactly where a configured principal
 * would (the executor's call context), so everything bound to a principal is bound to it.
 */
import type { AuthConfig } from './auth-config.js';
import { bearerToken } from './bearer-header.js';
import { principalFromClaims } from './principal-from-claims.js';
import { bearerChallenge, metadataPaths, protectedResourceMetadata } from './resource-metadata.js';
import { missingScopes, scopesForTool } from './scope-policy.js';
import { accessTokenVerifier } from './verify-access-token.js';

/** An authenticated caller. */
export interface Identity {
  readonly principal: string;
  readonly scopes: readonly string[];
}

/** An HTTP refusal: status, headers and the message for the JSON-RPC error body. */
export interface Refusal {
  readonly status: 401 | 403 | 503;
  readonly headers: Readonly<Record<string, string>>;
  readonly message: string;
}

/** The resource server of one gateway. */
export interface ResourceServer {
  /** Paths answered with the protected resource metadata. */
  readonly metadataPaths: ReadonlySet<string>;
  /** The metadata document. */
  readonly metadata: Record<string, unknown>;
  /** The caller of a request with this `Authorization` header, or the answer refusing it. */
  authenticate(header: string | readonly string[] | undefined): Promise<Identity | Refusal>;
  /** Null when `identity` may call the tool, else the 403 naming the scopes it needs. */
  authorizeTool(identity: Identity, tool: { readonly name: string; readonly effect: 'read' | 'write' }): Refusal | null;
}

/** Verified tokens remembered at once; beyond it the oldest is forgotten. */
const CACHED_TOKENS = 1024;
/** How long a verified token is taken on trust before its signature is checked again (or its `exp`, if sooner). */
const CACHE_MS = 60_000;

/** True for a {@link Refusal}. */
export const isRefusal = (value: Identity | Refusal): value is Refusal => 'status' in value;

/**
 * The resource server for `auth`, serving the MCP endpoint at `endpointPath`.
 * @example const door = resourceServer(config.auth, '/mcp'); const who = await door.authenticate(req.headers.authorization);
 */
export function resourceServer(auth: AuthConfig, endpointPath: string, options: { readonly fetch?: typeof fetch; readonly now?: () => number } = {}): ResourceServer {
  const now = options.now ?? Date.now;
  const verifier = accessTokenVerifier(auth, { ...(options.fetch === undefined ? {} : { fetch: options.fetch }), now });
  // A client sends the same token with every request until it expires: its signature check
  // (~0.1-0.2 ms of CPU) is paid once a minute, not per request. Keyed by the exact token.
  const verified = new Map<string, { readonly identity: Identity; readonly until: number }>();
  const endpointScopes = auth.required_scopes ?? [];
  const unauthorized = (error: 'invalid_token' | undefined, description: string): Refusal => ({
    status: 401,
    headers: { 'www-authenticate': bearerChallenge(auth, { ...(error === undefined ? {} : { error, description }), scopes: endpointScopes }) },
    message: `Unauthorized: ${description}`,
  });
  const forbidden = (scopes: readonly string[], missing: readonly string[]): Refusal => {
    const description = `this request needs scope ${missing.join(' ')}`;
    return { status: 403, headers: { 'www-authenticate': bearerChallenge(auth, { error: 'insufficient_scope', description, scopes }) }, message: `Forbidden: ${description}` };
  };
  return {
    metadataPaths: metadataPaths(auth, endpointPath),
    metadata: protectedResourceMetadata(auth),
    async authenticate(header) {
      const parsed = bearerToken(header);
      if (parsed.kind === 'absent') return unauthorized(undefined, 'a bearer access token is required');
      if (parsed.kind === 'malformed') return unauthorized('invalid_token', parsed.reason);
      const cached = verified.get(parsed.token);
      if (cached !== undefined && cached.until > now()) return cached.identity;
      if (cached !== undefined) verified.delete(parsed.token);
      const verdict = await verifier.verify(parsed.token);
      if (!verdict.ok) {
        if (verdict.kind === 'unavailable') return { status: 503, headers: { 'retry-after': '5' }, message: `Service Unavailable: ${verdict.reason}` };
        return unauthorized('invalid_token', verdict.reason);
      }
      const who = principalFromClaims(verdict.claims, auth.tenant_claim === undefined ? {} : { tenantClaim: auth.tenant_claim });
      if (!who.ok) return unauthorized('invalid_token', who.reason);
      const missing = missingScopes(who.scopes, endpointScopes);
      // The scopes to ask for are those granted plus those missing: asking for less would drop a
      // granted one (a write scope) and send the client round a step-up loop.
      if (missing.length > 0) return forbidden([...new Set([...who.scopes, ...endpointScopes])], missing);
      const identity = { principal: who.principal, scopes: who.scopes };
      // `exp` is required and was checked; the entry ends with it (no clock tolerance here).
      verified.set(parsed.token, { identity, until: Math.min(now() + CACHE_MS, (verdict.claims.exp as number) * 1000) });
      if (verified.size > CACHED_TOKENS) verified.delete(verified.keys().next().value as string);
      return identity;
    },
    authorizeTool(identity, tool) {
      const required = scopesForTool(auth, tool);
      const missing = missingScopes(identity.scopes, required);
      // The challenge names what was granted plus what is missing, so a client asking again for
      // exactly that keeps the scopes it had (the specification's recommended approach).
      return missing.length === 0 ? null : forbidden([...new Set([...identity.scopes, ...required])], missing);
    },
  };
}
