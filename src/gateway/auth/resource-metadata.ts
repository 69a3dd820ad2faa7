/**
 * What the resource server tells clients: its Protected Resource Metadata (RFC 9728) and the
 * `WWW-Authenticate: Bearer` challenges (RFC 6750 §3) that point to it, so an MCP client that
 * gets a 401 or 403 can find the authorization server and the scopes to ask for.
 */
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import type { AuthConfig } from './auth-config.js';
import { scopesSupported } from './scope-policy.js';

/** The well-known path of protected resource metadata (RFC 9728 §3). */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * The metadata document's URL for the resource (the path-suffixed form, as MCP clients build it
 * from the endpoint URL): the URL every challenge names.
 * @example metadataUrl({ issuer, resource: 'https://mcp.example.com/mcp' }) // → 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 */
export function metadataUrl(auth: AuthConfig): string {
  return getOAuthProtectedResourceMetadataUrl(new URL(auth.resource));
}

/**
 * Paths the gateway answers with the metadata: the path-suffixed form for the resource's path
 * and for the gateway's own endpoint path (they differ behind a proxy that rewrites the
 * prefix), and the bare form.
 */
export function metadataPaths(auth: AuthConfig, endpointPath: string): Set<string> {
  const suffixed = new URL(metadataUrl(auth)).pathname;
  return new Set([RESOURCE_METADATA_PATH, suffixed, `${RESOURCE_METADATA_PATH}${endpointPath}`]);
}

/**
 * The Protected Resource Metadata document (RFC 9728 §2).
 * @example protectedResourceMetadata(auth) // → { resource, authorization_servers: [issuer], scopes_supported, bearer_methods_supported: ['header'], … }
 */
export function protectedResourceMetadata(auth: AuthConfig): Record<string, unknown> {
  const scopes = scopesSupported(auth);
  return {
    resource: auth.resource,
    authorization_servers: [auth.issuer],
    bearer_methods_supported: ['header'],
    ...(scopes.length > 0 ? { scopes_supported: scopes } : {}),
    ...(auth.algorithms === undefined ? {} : { resource_signing_alg_values_supported: auth.algorithms }),
    ...(auth.resource_name === undefined ? {} : { resource_name: auth.resource_name }),
  };
}

/** What a challenge says: no error when no token was sent (RFC 6750 §3.1). */
export interface Challenge {
  readonly error?: 'invalid_token' | 'insufficient_scope';
  readonly description?: string;
  /** Scopes to request (the endpoint's for a 401, the call's for a 403). */
  readonly scopes?: readonly string[];
}

/**
 * The `WWW-Authenticate` value of a 401 or 403.
 * @example bearerChallenge(auth, { error: 'invalid_token', description: 'the token has expired' })
 * // → 'Bearer resource_metadata="https://…/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="the token has expired"'
 */
export function bearerChallenge(auth: AuthConfig, challenge: Challenge): string {
  const params = [`resource_metadata="${quoted(metadataUrl(auth))}"`];
  if (challenge.error !== undefined) params.push(`error="${challenge.error}"`);
  if (challenge.description !== undefined) params.push(`error_description="${quoted(challenge.description)}"`);
  if (challenge.scopes !== undefined && challenge.scopes.length > 0) params.push(`scope="${quoted(challenge.scopes.join(' '))}"`);
  return `Bearer ${params.join(', ')}`;
}

/** An RFC 9110 quoted-string body: `\` and `"` escaped, anything unprintable replaced. */
function quoted(text: string): string {
  return text.replace(/[\\"]/gu, (c) => `\\${c}`).replace(/[^\x20-\x7E]/gu, '?');
}
