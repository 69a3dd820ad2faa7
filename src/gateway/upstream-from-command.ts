/**
 * The `-- CMD ARGS...` of `trc gateway` as an upstream entry of the configuration.
 */
import { basename } from 'node:path';
import type { GatewayConfig, UpstreamConfig } from './config.js';

/**
 * Build an upstream named after the command (or `name`) and put it first in `config`.
 * @example upstreamFromCommand({}, ['npx', '-y', '@modelcontextprotocol/server-memory']).upstreams?.[0]?.name // 'server-memory'
 */
export function upstreamFromCommand(config: GatewayConfig, argv: readonly string[], name?: string): GatewayConfig {
  const [command, ...args] = argv;
  if (command === undefined) return config;
  const existing = new Set((config.upstreams ?? []).map((u) => u.name));
  let base = name ?? deriveName(argv);
  for (let i = 2; existing.has(base); i++) base = `${deriveName(argv)}-${i}`;
  const upstream: UpstreamConfig = { name: base, command, args };
  return { ...config, upstreams: [upstream, ...(config.upstreams ?? [])] };
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
  const clean = last.replace(/[^A-Za-z0-9_-]/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
  return clean.length > 0 ? clean : 'upstream';
}
