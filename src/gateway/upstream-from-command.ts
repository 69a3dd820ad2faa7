/**
 * The `-- CMD ARGS...` of `trc gateway` as an upstream entry of the configuration.
 */
import { basename } from 'node:path';
import { TrcError } from '../contract/index.js';
import type { GatewayConfig, UpstreamConfig } from './config.js';

/** Policy for the `-- CMD` upstream given by flags (`--trusted`, `--annotations`). */
export type CommandPolicy = Pick<UpstreamConfig, 'trusted' | 'annotations' | 'on_tool_change' | 'flagged_tools'>;

/**
 * Build an upstream named after the command (or `name`) and put it first in `config`. A config
 * entry that names no `command` or `url` is this upstream's policy (its name, trust, defaults and
 * tools); flags in `policy` win over it. Without a command, such an entry is an error.
 * @example upstreamFromCommand({}, ['npx', '-y', '@modelcontextprotocol/server-memory']).upstreams?.[0]?.name // 'server-memory'
 */
export function upstreamFromCommand(config: GatewayConfig, argv: readonly string[], name?: string, policy: CommandPolicy = {}): GatewayConfig {
  const [command, ...args] = argv;
  const all = config.upstreams ?? [];
  const entry = all.find((u) => u.command === undefined && u.url === undefined);
  if (command === undefined) {
    if (entry !== undefined) {
      throw new TrcError('GATEWAY_CONFIG_INVALID', `upstream "${entry.name}" names no "command" or "url": it is the policy of the "-- CMD" upstream, but no command was given after "--"`);
    }
    return config;
  }
  if (name?.includes('__') === true) throw new TrcError('GATEWAY_CONFIG_INVALID', `--name "${name}" contains "__", the separator of namespaced tool names`);
  const others = all.filter((u) => u !== entry);
  const existing = new Set(others.map((u) => u.name));
  let base = name ?? entry?.name ?? deriveName(argv);
  for (let i = 2; existing.has(base); i++) base = `${deriveName(argv)}-${i}`;
  const flags = Object.fromEntries(Object.entries(policy).filter(([, v]) => v !== undefined)) as CommandPolicy;
  const upstream: UpstreamConfig = { ...entry, ...flags, name: base, command, args };
  return { ...config, upstreams: [upstream, ...others] };
}

function deriveName(argv: readonly string[]): string {
  // Prefer the package or script name over a launcher such as npx/node.
  const launchers = new Set(['npx', 'node', 'bunx', 'uvx', 'pnpm', 'yarn', 'deno', 'python', 'python3']);
  const candidate = argv.find((a, i) => (i === 0 ? !launchers.has(basename(a)) : !a.startsWith('-'))) ?? argv[0] ?? 'upstream';
  // `…/server-everything/dist/index.js` → `server-everything`.
  const parts = candidate.split(/[\\/]/).filter((p) => p !== '' && !['dist', 'build', 'lib', 'src', 'bin'].includes(p));
  const file = basename(candidate).replace(/\.(m?js|cjs|ts|py)$/, '');
  const pick = file === 'index' || file === 'main' ? (parts.at(-2) ?? file) : file;
  const last = pick.replace(/^@[^/]+\//, '');
  const clean = last.replace(/[^A-Za-z0-9_-]/g, '-').replace(/_{2,}/g, '_').replace(/^-+|-+$/g, '').slice(0, 64);
  return clean.length > 0 ? clean : 'upstream';
}
