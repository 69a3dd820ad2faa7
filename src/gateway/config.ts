/**
 * Loading and validating the gateway configuration (YAML or JSON). A bad file is a
 * `GATEWAY_CONFIG_INVALID` error listing every problem with its JSON Pointer and line, and the
 * gateway does not start.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { createAjv2020, escapePointerToken, parsePointer, TrcError } from '../contract/index.js';
import { ignoreListProblems } from '../executor/index.js';
import { gatewayConfigSchema } from './config-schema.js';
import type { AuthConfig } from './auth/auth-config.js';

/** Per-tool policy (SPEC T4, T6, W2, Z). Every field is optional; unset means "use defaults". */
export interface ToolPolicy {
  readonly effect?: 'read' | 'write';
  readonly idempotent?: boolean;
  readonly honours_key?: boolean;
  readonly reconcile?: { readonly tool: string; readonly args?: Record<string, unknown> };
  readonly untrusted_fields?: readonly string[];
  readonly visibility?: Readonly<Record<string, 'model' | 'user' | 'internal'>>;
  readonly budget?: { readonly max_bytes?: number; readonly max_tokens?: number };
  readonly risk?: 'low' | 'medium' | 'high' | 'critical';
  readonly confirmation_required?: boolean;
  readonly timeout_ms?: number;
  readonly source_type?: string;
  /** Detector rule ids, or prefixes ending in ".", not applied to this tool's results. */
  readonly ignore_detector_rules?: readonly string[];
}

/** One upstream MCP server: a command to spawn (stdio) or a Streamable HTTP URL. */
export interface UpstreamConfig {
  readonly name: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  /** For a `url` upstream: the environment variable holding its bearer token. */
  readonly bearer_token_env?: string;
  readonly trusted?: boolean;
  /** How MCP annotations count (default: `policy` when trusted, else `hint`). */
  readonly annotations?: 'policy' | 'hint' | 'ignore';
  /** Largest message accepted from a stdio upstream, in bytes (default 128 MiB). */
  readonly max_message_bytes?: number;
  /** A tool whose description or schema changed since it was first seen (T5): `flag` (default) or `hold`. */
  readonly on_tool_change?: 'flag' | 'hold';
  /** How a flagged tool is listed: its description `marked` as external text (default) or `withheld`. */
  readonly flagged_tools?: 'marked' | 'withheld';
  readonly defaults?: ToolPolicy;
  readonly tools?: Readonly<Record<string, ToolPolicy>>;
}

/** The whole configuration file. */
export interface GatewayConfig {
  readonly upstreams?: readonly UpstreamConfig[];
  readonly defaults?: ToolPolicy;
  readonly store?: string;
  readonly store_sync?: 'full' | 'normal';
  readonly principal?: string;
  readonly handle_ttl_seconds?: number;
  /** Audit records older than this many days are deleted while the gateway runs (default: kept). */
  readonly audit_retention_days?: number;
  /** The HTTP gateway as an OAuth 2.1 resource server (principal from each request's token). */
  readonly auth?: AuthConfig;
}

/** One problem in a configuration file. */
export interface ConfigProblem {
  readonly pointer: string;
  readonly line: number | null;
  readonly message: string;
}

let compiled: ReturnType<ReturnType<typeof createAjv2020>['compile']> | undefined;
function validator() {
  compiled ??= createAjv2020().compile(gatewayConfigSchema);
  return compiled;
}

/**
 * Check a parsed configuration object. Returns the problems (empty when valid).
 * @example checkGatewayConfig({ upstreams: [{ name: 'fs' }] }) // → [{ pointer: '/upstreams/0', … }]
 */
export function checkGatewayConfig(value: unknown): ConfigProblem[] {
  const check = validator();
  if (check(value)) return semanticProblems(value as GatewayConfig);
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const e of check.errors ?? []) {
    // oneOf reports every branch; keep one readable line per pointer+message.
    const extra = e.keyword === 'additionalProperties' ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}"` : '';
    const allowed = e.keyword === 'enum' ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})` : '';
    const message = e.keyword === 'not' ? 'an upstream has "command" or "url", not both' : `${e.message ?? 'invalid'}${extra}${allowed}`;
    const key = `${e.instancePath}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ pointer: e.instancePath, line: null, message });
  }
  return problems;
}

function semanticProblems(config: GatewayConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const names = new Set<string>();
  let policyOnly = 0;
  (config.upstreams ?? []).forEach((u, i) => {
    if (u.command === undefined && u.url === undefined && ++policyOnly > 1) {
      problems.push({ pointer: `/upstreams/${i}`, line: null, message: 'only one upstream may name no "command" or "url" (it is the policy of the "-- CMD" upstream)' });
    }
    if (names.has(u.name)) problems.push({ pointer: `/upstreams/${i}/name`, line: null, message: `duplicate upstream name "${u.name}"` });
    // The first "__" of an exposed tool name ends the upstream name: no shadowing is possible.
    if (u.name.includes('__')) problems.push({ pointer: `/upstreams/${i}/name`, line: null, message: `upstream name "${u.name}" contains "__", the separator of namespaced tool names` });
    names.add(u.name);
    const tokenEnv = u.bearer_token_env;
    if (tokenEnv !== undefined) {
      const pointer = `/upstreams/${i}/bearer_token_env`;
      if (u.url === undefined) problems.push({ pointer, line: null, message: 'bearer_token_env applies to a "url" upstream only' });
      else if ((process.env[tokenEnv] ?? '') === '') problems.push({ pointer, line: null, message: `environment variable ${tokenEnv} is not set` });
    }
  });
  // A misspelt rule id would silently ignore nothing.
  const ignoreLists: [ToolPolicy | undefined, string][] = [[config.defaults, '/defaults']];
  (config.upstreams ?? []).forEach((u, i) => {
    ignoreLists.push([u.defaults, `/upstreams/${i}/defaults`]);
    for (const [name, policy] of Object.entries(u.tools ?? {})) ignoreLists.push([policy, `/upstreams/${i}/tools/${escapePointerToken(name)}`]);
  });
  for (const [policy, at] of ignoreLists) {
    if (policy?.ignore_detector_rules === undefined) continue;
    for (const p of ignoreListProblems(policy.ignore_detector_rules, `${at}/ignore_detector_rules`) ?? []) problems.push({ ...p, line: null });
  }
  if (config.auth !== undefined) {
    // Tokens and the metadata that says where to get them travel in clear over plain HTTP.
    for (const field of ['issuer', 'resource'] as const) {
      const url = new URL(config.auth[field]);
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) problems.push({ pointer: `/auth/${field}`, line: null, message: `${field} must be an https URL (http only on loopback)` });
      if (url.hash !== '') problems.push({ pointer: `/auth/${field}`, line: null, message: `${field} must not have a fragment` });
    }
  }
  return problems;
}

/**
 * Parse configuration text (YAML, of which JSON is a subset). Throws `GATEWAY_CONFIG_INVALID`
 * with every problem (pointer and line) when the file is not valid.
 * @example parseGatewayConfig('upstreams:\n  - name: fs\n    command: mcp-server-filesystem\n', 'trc.yaml')
 */
export function parseGatewayConfig(text: string, fileName = '<config>'): GatewayConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => ({ pointer: '', line: e.linePos?.[0]?.line ?? null, message: e.message.split('\n')[0] ?? e.message }));
    throw configError(fileName, problems);
  }
  const value: unknown = doc.toJS();
  const problems = checkGatewayConfig(value ?? {}).map((p) => ({ ...p, line: lineOf(doc, lines, p.pointer) }));
  if (problems.length > 0) throw configError(fileName, problems);
  return (value ?? {}) as GatewayConfig;
}

/** Read and parse a configuration file; see {@link parseGatewayConfig}. */
export function loadGatewayConfig(path: string): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new TrcError('GATEWAY_CONFIG_UNREADABLE', `cannot read ${path}: ${(cause as Error).message}`, { cause });
  }
  return parseGatewayConfig(text, path);
}

function lineOf(doc: ReturnType<typeof parseDocument>, lines: LineCounter, pointer: string): number | null {
  const parsed = parsePointer(pointer);
  if (!Array.isArray(parsed)) return null;
  const path = parsed.map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range !== undefined) return lines.linePos(node.range[0]).line;
    const root = doc.contents?.range;
    if (n === 0 && root) return lines.linePos(root[0]).line;
  }
  return null;
}

function configError(fileName: string, problems: ConfigProblem[]): TrcError {
  const text = problems
    .map((p) => `  ${fileName}${p.line === null ? '' : `:${p.line}`} at ${p.pointer === '' ? '(root)' : p.pointer}: ${p.message}`)
    .join('\n');
  return new TrcError('GATEWAY_CONFIG_INVALID', `invalid gateway configuration:\n${text}`, { data: { file: fileName, problems } });
}
