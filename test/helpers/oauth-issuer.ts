/**
 * A real, minimal OAuth 2.1 authorization server for tests, on `jose`: it listens on loopback,
 * serves its metadata (`/.well-known/oauth-authorization-server`, or only the OpenID form when
 * asked) and its JWKS, and signs access tokens (RS256 by default, ES256 on request) for chosen
 * claims. Keys can be rotated: the new key signs and is published beside the old one.
 *
 * Reusable by any test: `const issuer = await startIssuer(); const t = await issuer.token({ sub: 'alice', aud })`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type JWK, type JWTPayload, type CryptoKey } from 'jose';

/** Signing algorithms the test issuer can use. */
export type IssuerAlg = 'RS256' | 'ES256';

/** Claims of one token; `iss`, `iat`, `exp` (1 h) and `jti` are filled in unless given. */
export interface TokenClaims extends JWTPayload {
  readonly sub?: string;
  readonly aud?: string | string[];
  /** Space-separated scopes (RFC 8693 / RFC 9068 `scope`). */
  readonly scope?: string;
}

/** Options of one {@link IssuerHandle.token} call. */
export interface TokenOptions {
  /** Sign with a key the issuer does NOT publish (a forged token). */
  readonly foreignKey?: boolean;
  /** Override the protected header's `kid`. */
  readonly kid?: string;
  /** The `typ` header (default `at+jwt`, RFC 9068). */
  readonly typ?: string;
}

/** A running test issuer. */
export interface IssuerHandle {
  /** The issuer identifier (`http://127.0.0.1:<port>`), also its `iss` claim. */
  readonly url: string;
  /** A signed access token with `claims`. */
  token(claims?: TokenClaims, options?: TokenOptions): Promise<string>;
  /** A new signing key: published in the JWKS (beside the old ones) and used from now on. Returns its kid. */
  rotate(): Promise<string>;
  /** How many times the JWKS was fetched (to see a verifier refetch after a rotation). */
  readonly jwksFetches: number;
  close(): Promise<void>;
}

/** Options of {@link startIssuer}. */
export interface IssuerOptions {
  readonly alg?: IssuerAlg;
  /** Serve only `/.well-known/openid-configuration` (test the fallback discovery). */
  readonly openIdOnly?: boolean;
}

interface Key {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

async function newKey(alg: IssuerAlg): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/**
 * Start an issuer on 127.0.0.1 (a free port).
 * @example const issuer = await startIssuer(); const bearer = await issuer.token({ sub: 'alice', aud: 'http://127.0.0.1:8080/mcp', scope: 'mcp' });
 */
export async function startIssuer(options: IssuerOptions = {}): Promise<IssuerHandle> {
  const alg = options.alg ?? 'RS256';
  const keys: Key[] = [await newKey(alg)];
  const foreign = await newKey(alg);
  let jwksFetches = 0;
  let url = '';
  const metadata = (): Record<string, unknown> => ({
    issuer: url,
    jwks_uri: `${url}/jwks`,
    authorization_endpoint: `${url}/authorize`,
    token_endpoint: `${url}/token`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    id_token_signing_alg_values_supported: [alg],
    subject_types_supported: ['public'],
  });
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (body: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/.well-known/oauth-authorization-server' && options.openIdOnly !== true) return json(metadata());
    if (path === '/.well-known/openid-configuration') return json(metadata());
    if (path === '/jwks') {
      jwksFetches++;
      return json({ keys: keys.map((k) => k.jwk) });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  return {
    url,
    get jwksFetches() {
      return jwksFetches;
    },
    async token(claims = {}, opts = {}) {
      const key = opts.foreignKey === true ? foreign : (keys[keys.length - 1] as Key);
      const now = Math.floor(Date.now() / 1000);
      const payload: JWTPayload = { iss: url, iat: now, exp: now + 3600, jti: randomUUID(), ...claims };
      return new SignJWT(payload).setProtectedHeader({ alg, kid: opts.kid ?? key.kid, typ: opts.typ ?? 'at+jwt' }).sign(key.privateKey);
    },
    async rotate() {
      const key = await newKey(alg);
      keys.push(key);
      return key.kid;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
