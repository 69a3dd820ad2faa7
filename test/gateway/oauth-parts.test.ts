/**
 * The resource server's parts on their own: the principal a token's claims name, scopes → tool
 * policy, the Authorization header reader, the challenge text and the `auth` configuration.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkGatewayConfig } from '../../src/gateway/index.js';
import { bearerToken, MAX_TOKEN_CHARS } from '../../src/gateway/auth/bearer-header.js';
import { principalFromClaims } from '../../src/gateway/auth/principal-from-claims.js';
import { bearerChallenge, metadataPaths, metadataUrl } from '../../src/gateway/auth/resource-metadata.js';
import { matchesToolGlob, missingScopes, scopesForTool } from '../../src/gateway/auth/scope-policy.js';
import { discoveryUrls } from '../../src/gateway/auth/verify-access-token.js';
import { isRefusal, resourceServer } from '../../src/gateway/auth/resource-server.js';
import { startIssuer } from '../helpers/oauth-issuer.js';

const ISS = 'https://as.example.com';
const auth = { issuer: ISS, resource: 'https://mcp.example.com/mcp' };

describe('the principal of a token', () => {
  it('is issuer + subject, the same string for the same claims', () => {
    expect(principalFromClaims({ iss: ISS, sub: 'alice' })).toEqual({ ok: true, principal: 'oauth:https%3A%2F%2Fas.example.com:alice', scopes: [] });
  });

  it('never lets one choice of issuer, tenant and subject spell another', () => {
    const part = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', ':', '%', '3', 'A', '/', ' ', 'é') });
    fc.assert(
      fc.property(fc.tuple(part, part, part), fc.tuple(part, part, part), ([i1, t1, s1], [i2, t2, s2]) => {
        const a = principalFromClaims({ iss: i1, sub: s1, org: t1 }, { tenantClaim: 'org' });
        const b = principalFromClaims({ iss: i2, sub: s2, org: t2 }, { tenantClaim: 'org' });
        if (!a.ok || !b.ok) throw new Error('claims were refused');
        expect(a.principal === b.principal).toBe(i1 === i2 && t1 === t2 && s1 === s2);
      }),
    );
  });

  it('includes the tenant when configured, and a token without it names no principal', () => {
    const a = principalFromClaims({ iss: ISS, sub: 'alice', org_id: 'acme' }, { tenantClaim: 'org_id' });
    const b = principalFromClaims({ iss: ISS, sub: 'alice', org_id: 'globex' }, { tenantClaim: 'org_id' });
    expect(a.ok && b.ok && a.principal !== b.principal).toBe(true);
    expect(principalFromClaims({ iss: ISS, sub: 'alice' }, { tenantClaim: 'org_id' })).toEqual({ ok: false, reason: 'the token has no tenant ("org_id")' });
    expect(principalFromClaims({ iss: ISS, sub: '' }).ok).toBe(false);
  });

  it('reads scopes from "scope" (RFC 9068) or an "scp" array', () => {
    expect(principalFromClaims({ iss: ISS, sub: 'a', scope: 'mcp  notes:write' })).toMatchObject({ scopes: ['mcp', 'notes:write'] });
    expect(principalFromClaims({ iss: ISS, sub: 'a', scp: ['mcp', 7, 'x'] })).toMatchObject({ scopes: ['mcp', 'x'] });
  });
});

describe('scopes → tool policy', () => {
  const policy = { ...auth, required_scopes: ['mcp'], write_scope: 'w', tool_scopes: { 'github__*': 'repo', 'github__delete_*': ['repo', 'admin'] } };

  it('adds the write scope to writes and the scopes of every matching glob, without repeats', () => {
    expect(scopesForTool(policy, { name: 'list', effect: 'read' })).toEqual(['mcp']);
    expect(scopesForTool(policy, { name: 'send', effect: 'write' })).toEqual(['mcp', 'w']);
    expect(scopesForTool(policy, { name: 'github__delete_repo', effect: 'write' })).toEqual(['mcp', 'w', 'repo', 'admin']);
    expect(missingScopes(['mcp', 'repo'], ['mcp', 'w', 'repo'])).toEqual(['w']);
  });

  it('matches tool globs exactly as the equivalent anchored regular expression', () => {
    const text = fc.string({ maxLength: 10, unit: fc.constantFrom('a', 'b', '_') });
    const glob = fc.string({ maxLength: 8, unit: fc.constantFrom('a', 'b', '_', '*') });
    fc.assert(
      fc.property(glob, text, (g, t) => {
        const reference = new RegExp(`^${g.split('*').join('.*')}$`, 'su');
        expect(matchesToolGlob(g, t)).toBe(reference.test(t));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the Authorization header', () => {
  it('takes exactly "Bearer <b64token>", the scheme in any case', () => {
    expect(bearerToken('Bearer abc.DEF-_~+/==')).toEqual({ kind: 'token', token: 'abc.DEF-_~+/==' });
    expect(bearerToken('bEaReR   abc')).toEqual({ kind: 'token', token: 'abc' });
    expect(bearerToken(undefined)).toEqual({ kind: 'absent' });
    for (const bad of ['Basic abc', 'Bearer', 'Bearer ', 'Bearer a b', 'Bearer a=b', 'Bearerabc', `Bearer ${'a'.repeat(MAX_TOKEN_CHARS + 1)}`]) expect(bearerToken(bad).kind).toBe('malformed');
    expect(bearerToken(['Bearer a', 'Bearer b']).kind).toBe('malformed');
  });

  it('never throws, whatever the header holds', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (h) => void expect(['token', 'absent', 'malformed']).toContain(bearerToken(h).kind)));
  });
});

describe('what the resource server tells clients', () => {
  it('names the path-suffixed metadata URL and serves every form of its path', () => {
    expect(metadataUrl(auth)).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    expect([...metadataPaths({ ...auth, resource: 'https://example.com/tools/mcp' }, '/mcp')].sort()).toEqual([
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/tools/mcp',
    ]);
  });

  it('quotes what it echoes in a challenge', () => {
    expect(bearerChallenge(auth, { error: 'invalid_token', description: 'say "hi" \\ é' })).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="say \\"hi\\" \\\\ ?"',
    );
  });

  it('discovers RFC 8414 metadata first, then OpenID Connect, for issuers with and without a path', () => {
    expect(discoveryUrls('https://as.example.com')).toEqual(['https://as.example.com/.well-known/oauth-authorization-server', 'https://as.example.com/.well-known/openid-configuration']);
    expect(discoveryUrls('https://as.example.com/tenant1/')).toEqual(['https://as.example.com/.well-known/oauth-authorization-server/tenant1', 'https://as.example.com/tenant1/.well-known/openid-configuration']);
  });
});

describe('the auth section of the configuration', () => {
  const pointers = (value: unknown) => checkGatewayConfig(value).map((p) => `${p.pointer}: ${p.message}`);

  it('accepts a complete section', () => {
    expect(pointers({ auth: { ...auth, tenant_claim: 'org', required_scopes: ['mcp'], write_scope: 'mcp:write', tool_scopes: { 'a*': ['x', 'y'] }, algorithms: ['ES256'], clock_tolerance_seconds: 10 } })).toEqual([]);
  });

  it('refuses plain-HTTP URLs off loopback, symmetric or no algorithms, and unknown fields', () => {
    expect(pointers({ auth: { issuer: 'http://as.example.com', resource: 'http://localhost:8080/mcp' } })).toEqual(['/auth/issuer: issuer must be an https URL (http only on loopback)']);
    expect(pointers({ auth: { ...auth, algorithms: ['HS256'] } }).some((p) => p.startsWith('/auth/algorithms/0'))).toBe(true);
    expect(pointers({ auth: { ...auth, algorithms: ['none'] } }).some((p) => p.startsWith('/auth/algorithms/0'))).toBe(true);
    expect(pointers({ auth: { ...auth, audience: 'x' } })).toEqual(['/auth: must NOT have additional properties "audience"']);
    expect(pointers({ auth: { issuer: ISS } })).toEqual(["/auth: must have required property 'resource'"]);
    expect(pointers({ auth: { ...auth, write_scope: 'has space' } }).length).toBe(1);
  });
});

describe('the door remembers a verified token', () => {
  it('only until the token expires', async () => {
    const issuer = await startIssuer();
    try {
      let clock = Date.now();
      const door = resourceServer({ issuer: issuer.url, resource: auth.resource, clock_tolerance_seconds: 0 }, '/mcp', { now: () => clock });
      const exp = Math.floor(clock / 1000) + 30;
      const header = `Bearer ${await issuer.token({ sub: 'alice', aud: auth.resource, exp })}`;
      const first = await door.authenticate(header);
      expect(isRefusal(first) ? first.message : first.principal).toBe(`oauth:${encodeURIComponent(issuer.url)}:alice`);
      clock += 10_000;
      expect(isRefusal(await door.authenticate(header))).toBe(false);
      clock = exp * 1000 + 1000;
      const late = await door.authenticate(header);
      expect(isRefusal(late) && late.status === 401 && late.headers['www-authenticate']?.includes('expired')).toBe(true);
    } finally {
      await issuer.close();
    }
  });
});
