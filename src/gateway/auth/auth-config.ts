/**
 * The `auth` section of the gateway configuration: the HTTP gateway as an OAuth 2.1 resource
 * server (MCP authorization specification, 2025-11-25). TypeBox is the single definition; the
 * configuration schema embeds it and the type is derived from it.
 */
import { Type, type Static } from '@sinclair/typebox';

/**
 * Asymmetric JWS algorithms a token may be signed with. `none` and the HMAC family are absent on
 * purpose: keys come from a published JWKS, and a shared-secret algorithm there would let anyone
 * holding the public key sign.
 */
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` or `\\`. */
const SCOPE_PATTERN = '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$';
const scopeName = Type.String({ pattern: SCOPE_PATTERN, description: 'An OAuth scope.' });

/** Schema of the `auth` section. */
export const authConfigSchema = Type.Object(
  {
    issuer: Type.String({ format: 'uri', description: 'The authorization server (its issuer identifier). Its metadata is discovered at /.well-known/oauth-authorization-server, else /.well-known/openid-configuration; tokens must carry this "iss".' }),
    resource: Type.String({ format: 'uri', description: 'Canonical URI of this MCP endpoint as clients reach it (RFC 8707), e.g. https://mcp.example.com/mcp: the "resource" of the protected resource metadata and the audience every token must name.' }),
    tenant_claim: Type.Optional(Type.String({ minLength: 1, description: 'A claim naming the tenant (e.g. "org_id"); when set, tokens without it are refused and the principal includes it.' })),
    required_scopes: Type.Optional(Type.Array(scopeName, { description: 'Scopes every request to the endpoint needs.' })),
    write_scope: Type.Optional(Type.String({ pattern: SCOPE_PATTERN, description: 'Scope a call of a tool whose effect is "write" needs.' })),
    tool_scopes: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Union([scopeName, Type.Array(scopeName, { minItems: 1 })]), { description: 'Exposed tool name or glob ("*" matches any run of characters) → the scope(s) a call of a matching tool needs.' })),
    algorithms: Type.Optional(Type.Array(Type.Union(ASYMMETRIC_ALGORITHMS.map((a) => Type.Literal(a))), { minItems: 1, uniqueItems: true, description: 'JWS algorithms accepted (default: every asymmetric one).' })),
    clock_tolerance_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300, description: 'Allowed clock skew when checking exp, nbf and iat (default 5).' })),
    jwks_cooldown_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600, description: 'After fetching the JWKS, how long a token with an unknown key id waits before the JWKS is fetched again (default 30): rotation is picked up, a flood of forged kids is not a flood of fetches.' })),
    resource_name: Type.Optional(Type.String({ minLength: 1, description: 'Human-readable name in the protected resource metadata.' })),
  },
  { additionalProperties: false, description: 'OAuth 2.1 resource server (HTTP only). Replaces the shared token: every request carries a JWT access token of the issuer for this resource.' },
);

/** The `auth` section of the gateway configuration. */
export type AuthConfig = Static<typeof authConfigSchema>;

/** Defaults of {@link AuthConfig}. */
export const AUTH_DEFAULTS = { clock_tolerance_seconds: 5, jwks_cooldown_seconds: 30 } as const;
