/**
 * The gateway's OAuth settings from the command line and the environment, over the config
 * file's `auth` section: a flag wins over its `TRC_OAUTH_*` variable, which wins over the file.
 * The merged section is checked by the same schema as the file.
 */
import { checkGatewayConfig, type GatewayConfig } from '../gateway/index.js';
import { UsageError } from './io.js';

/** The flags of `trc gateway` this module reads. */
export interface OAuthFlags {
  readonly 'oauth-issuer'?: string | undefined;
  readonly 'oauth-resource'?: string | undefined;
  readonly 'oauth-tenant-claim'?: string | undefined;
  readonly 'oauth-scope'?: readonly string[] | undefined;
  readonly 'oauth-write-scope'?: string | undefined;
}

/** `parseFlags` options of the OAuth flags. */
export const OAUTH_FLAG_OPTIONS = {
  'oauth-issuer': { type: 'string' },
  'oauth-resource': { type: 'string' },
  'oauth-tenant-claim': { type: 'string' },
  'oauth-scope': { type: 'string', multiple: true },
  'oauth-write-scope': { type: 'string' },
} as const;

/**
 * `config` with its `auth` section completed from flags and environment (unchanged when none
 * of them is set). Throws a usage error naming what is missing or invalid.
 * @example withOAuth(config, { 'oauth-issuer': 'https://as.example.com' }, process.env)
 */
export function withOAuth(config: GatewayConfig, flags: OAuthFlags, env: Readonly<Record<string, string | undefined>>): GatewayConfig {
  const pick = (flag: string | undefined, name: string): string | undefined => flag ?? (env[name] === '' ? undefined : env[name]);
  const issuer = pick(flags['oauth-issuer'], 'TRC_OAUTH_ISSUER');
  const resource = pick(flags['oauth-resource'], 'TRC_OAUTH_RESOURCE');
  const tenant = pick(flags['oauth-tenant-claim'], 'TRC_OAUTH_TENANT_CLAIM');
  const scopesText = env['TRC_OAUTH_SCOPES'];
  const scopes = flags['oauth-scope'] ?? (scopesText === undefined || scopesText === '' ? undefined : scopesText.split(' ').filter((s) => s !== ''));
  const writeScope = pick(flags['oauth-write-scope'], 'TRC_OAUTH_WRITE_SCOPE');
  if ([issuer, resource, tenant, scopes, writeScope].every((v) => v === undefined)) return config;
  const merged = {
    ...config.auth,
    ...(issuer === undefined ? {} : { issuer }),
    ...(resource === undefined ? {} : { resource }),
    ...(tenant === undefined ? {} : { tenant_claim: tenant }),
    ...(scopes === undefined ? {} : { required_scopes: scopes }),
    ...(writeScope === undefined ? {} : { write_scope: writeScope }),
  };
  if (merged.issuer === undefined || merged.resource === undefined) {
    throw new UsageError('OAuth needs both the issuer (--oauth-issuer / TRC_OAUTH_ISSUER) and this endpoint\'s public URL (--oauth-resource / TRC_OAUTH_RESOURCE)');
  }
  const problems = checkGatewayConfig({ auth: merged });
  if (problems.length > 0) throw new UsageError(`OAuth settings: ${problems.map((p) => `${p.pointer.replace(/^\/auth\//u, '')}: ${p.message}`).join('; ')}`);
  return { ...config, auth: merged as NonNullable<GatewayConfig['auth']> };
}
