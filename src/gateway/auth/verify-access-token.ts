/**
 * Bearer JWT access tokens checked against the authorization server's JWKS with `jose`: the
 * JWKS location comes from the issuer's metadata (RFC 8414
 * `/.well-known/oauth-authorization-server`, else OpenID Connect discovery), signature,
 * issuer, audience (the resource's canonical URI, RFC 8707), `exp` and `nbf` are checked with
 * a small clock tolerance, and only asymmetric algorithms are accepted.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { ASYMMETRIC_ALGORITHMS, AUTH_DEFAULTS, type AuthConfig } from './auth-config.js';

/** A verified token's claims, or why it was refused. `unavailable`: the issuer could not be reached. */
export type TokenVerdict =
  | { readonly ok: true; readonly claims: JWTPayload }
  | { readonly ok: false; readonly kind: 'invalid' | 'unavailable'; readonly reason: string };

/** Checks access tokens of one issuer for one resource. */
export interface AccessTokenVerifier {
  verify(token: string): Promise<TokenVerdict>;
}

type Fetch = typeof fetch;
type RemoteJwks = ReturnType<typeof createRemoteJWKSet>;

/** Largest metadata document read from the issuer. */
const MAX_METADATA_BYTES = 256 * 1024;

/**
 * The metadata URLs of an issuer, in the order tried: RFC 8414 inserts the well-known segment
 * before the issuer's path; OpenID Connect appends it.
 */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/u, '');
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
}

/**
 * A verifier for `auth`. The issuer's metadata and JWKS are fetched on first use (a failed
 * discovery is retried on the next token); `jose` caches the keys and refetches the JWKS when a
 * token names a key id it does not have (after `jwks_cooldown_seconds`), which is how a key
 * rotation is picked up.
 * @example const verifier = accessTokenVerifier(config.auth); const verdict = await verifier.verify(token);
 */
export function accessTokenVerifier(auth: AuthConfig, options: { readonly fetch?: Fetch; readonly now?: () => number } = {}): AccessTokenVerifier {
  const doFetch = options.fetch ?? fetch;
  let jwks: Promise<RemoteJwks> | null = null;
  const keys = (): Promise<RemoteJwks> => {
    jwks ??= discoverJwksUri(auth.issuer, doFetch).then((uri) =>
      createRemoteJWKSet(new URL(uri), { cooldownDuration: 1000 * (auth.jwks_cooldown_seconds ?? AUTH_DEFAULTS.jwks_cooldown_seconds), timeoutDuration: 5000 }),
    );
    jwks.catch(() => (jwks = null));
    return jwks;
  };
  const algorithms = [...(auth.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  return {
    async verify(token) {
      let set: RemoteJwks;
      try {
        set = await keys();
      } catch (error) {
        return { ok: false, kind: 'unavailable', reason: `the authorization server's metadata could not be read: ${(error as Error).message}` };
      }
      try {
        const { payload } = await jwtVerify(token, set, {
          issuer: auth.issuer,
          audience: auth.resource,
          algorithms,
          clockTolerance: auth.clock_tolerance_seconds ?? AUTH_DEFAULTS.clock_tolerance_seconds,
          requiredClaims: ['exp', 'sub'],
          ...(options.now === undefined ? {} : { currentDate: new Date(options.now()) }),
        });
        return { ok: true, claims: payload };
      } catch (error) {
        return refusal(error);
      }
    },
  };
}

function refusal(error: unknown): TokenVerdict {
  if (error instanceof errors.JWKSTimeout) return { ok: false, kind: 'unavailable', reason: 'the JWKS could not be fetched in time' };
  if (error instanceof errors.JWTExpired) return { ok: false, kind: 'invalid', reason: 'the token has expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    const why: Record<string, string> = { aud: 'the token was not issued for this resource', iss: 'the token was not issued by the configured issuer', nbf: 'the token is not valid yet' };
    return { ok: false, kind: 'invalid', reason: why[error.claim] ?? `claim "${error.claim}" is not acceptable: ${error.reason}` };
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return { ok: false, kind: 'invalid', reason: 'the token is signed with an algorithm this resource does not accept' };
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, kind: 'invalid', reason: 'the token signature does not verify with the issuer\'s keys' };
  if (error instanceof errors.JOSEError) {
    // Failing to fetch the JWKS is the issuer's trouble, not the token's.
    if (error.code === 'ERR_JOSE_GENERIC' && /fetch|status|network/iu.test(error.message)) return { ok: false, kind: 'unavailable', reason: 'the JWKS could not be fetched' };
    return { ok: false, kind: 'invalid', reason: 'the token is malformed' };
  }
  // fetch itself failing (connection refused) while reloading the JWKS
  return { ok: false, kind: 'unavailable', reason: 'the JWKS could not be fetched' };
}

async function discoverJwksUri(issuer: string, doFetch: Fetch): Promise<string> {
  const problems: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    let response: Response;
    try {
      response = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5000), redirect: 'error' });
    } catch (error) {
      problems.push(`${url}: ${(error as Error).message}`);
      continue;
    }
    if (!response.ok) {
      problems.push(`${url}: HTTP ${response.status}`);
      await response.body?.cancel();
      continue;
    }
    const text = await response.text();
    if (text.length > MAX_METADATA_BYTES) throw new Error(`${url}: metadata larger than ${MAX_METADATA_BYTES} bytes`);
    const meta = JSON.parse(text) as { issuer?: unknown; jwks_uri?: unknown };
    // RFC 8414 §3.3: the document must name the issuer it was fetched for (no mix-up).
    if (meta.issuer !== issuer) throw new Error(`${url}: metadata names issuer ${JSON.stringify(meta.issuer)}, expected ${JSON.stringify(issuer)}`);
    if (typeof meta.jwks_uri !== 'string') throw new Error(`${url}: metadata has no jwks_uri`);
    return meta.jwks_uri;
  }
  throw new Error(problems.join('; '));
}
