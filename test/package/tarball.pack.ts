/**
 * The package as a user gets it: `npm pack`, installed in a fresh project beside the newest
 * framework SDKs (no ERESOLVE), every sub-path's `.d.ts` type-checked by a strict consumer
 * without skipLibCheck, every path the README names present in the installed package, and the
 * README's gateway config run verbatim from a global install with cwd `/`.
 *
 * Needs the npm registry (or its cache) and a built `dist/` (`npm run build`); run by
 * `.ci/run` through `vitest.package.config.ts` on Node 22+, where the CLI needs no
 * better-sqlite3 (node:sqlite).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { installNewest } from './install-newest.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; bin: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), 'trc-pack-'));
// --prefer-online: `@latest` is resolved from a fresh packument. With --prefer-offline a cached
// one days old names a version of `ai` whose dependencies (@ai-sdk/gateway) the stale cache of
// theirs does not list, and the install fails with ETARGET (seen in CI).
const npm = (args: readonly string[], cwd: string): string =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-online', '--loglevel=error'], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
let tarball = '';
const project = join(work, 'project');
const installed = join(project, 'node_modules/tool-result-contract');

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('build dist/ first: npm run build');
  const out = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], root);
  tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]?.filename ?? '');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The newest majors beside the tarball: an ERESOLVE fails this install (and so the suite).
  // @types/json-schema: @ai-sdk/provider's .d.ts imports it without declaring it.
  installNewest(npm, [tarball, 'ai@latest', 'openai@latest', '@openai/agents@latest', '@langchain/core@latest', '@anthropic-ai/sdk@latest', '@modelcontextprotocol/sdk@latest', 'zod@^4', '@types/node@^22', '@types/json-schema', 'typescript@5.9'], project);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('installs beside the newest framework majors without ERESOLVE, and without better-sqlite3 or pg', () => {
    expect(existsSync(join(installed, 'package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/better-sqlite3'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/pg'))).toBe(false);
    const ai = JSON.parse(readFileSync(join(project, 'node_modules/ai/package.json'), 'utf8')) as { version: string };
    expect(Number(ai.version.split('.')[0])).toBeGreaterThanOrEqual(7);
  });

  it('type-checks every sub-path export in a strict consumer without skipLibCheck', () => {
    const subpaths = Object.keys(pkg.exports).filter((k) => !k.endsWith('.json'));
    const lines = subpaths.map((k, i) => `import * as m${i} from '${k === '.' ? 'tool-result-contract' : `tool-result-contract/${k.slice(2)}`}';\nvoid m${i};`);
    writeFileSync(join(project, 'consumer.ts'), lines.join('\n') + '\n');
    const tsc = (extra: Record<string, boolean>): string => {
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { strict: true, noUncheckedIndexedAccess: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: ['node'], ...extra },
        files: ['consumer.ts'],
      }));
      const r = spawnSync(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
      return r.stdout + r.stderr;
    };
    // strict + noUncheckedIndexedAccess: the whole program, every package's .d.ts, is clean.
    expect(tsc({})).toBe('');
    // exactOptionalPropertyTypes too (this project's own setting): the framework SDKs' .d.ts do
    // not pass it (their problem), ours and the consumer do.
    const errors = tsc({ exactOptionalPropertyTypes: true }).split('\n').filter((l) => /error TS\d+/u.test(l));
    expect(errors.filter((l) => l.startsWith('consumer.ts') || l.includes('node_modules/tool-result-contract/'))).toEqual([]);
  }, 600_000);

  it('ships every path the README names', () => {
    // "Development" is for a checkout of the repository (scripts/, test/); the rest is for users.
    const full = readFileSync(join(installed, 'README.md'), 'utf8');
    const readme = full.slice(0, full.indexOf('\n## Development'));
    expect(readme.length).toBeGreaterThan(1000);
    const named = new Set<string>();
    for (const m of readme.matchAll(/(?:`|\]\(|\s)((?:docs|examples|schema|src|test|scripts|bench)\/[\w./-]*)/gu)) named.add(m[1] ?? '');
    for (const m of readme.matchAll(/\]\((?!https?:|#)([^)\s]+)\)/gu)) named.add(m[1] ?? '');
    expect(named.size).toBeGreaterThan(10);
    const missing = [...named].filter((p) => !existsSync(join(installed, p)));
    expect(missing).toEqual([]);
  });

  it('runs the README gateway config verbatim from a global install, with cwd /, writing nothing to /', async () => {
    const prefix = join(work, 'global');
    npm(['install', '-g', '--prefix', prefix, tarball], work);
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const config = [...readme.matchAll(/^\{ "mcpServers": .*$/gmu)].map((m) => JSON.parse(m[0]) as { mcpServers: Record<string, { command: string; args: string[] }> });
    const global = config.map((c) => Object.values(c.mcpServers)[0]).find((s) => s?.command === 'tool-result-contract');
    expect(global).toBeDefined();
    const home = join(work, 'home');
    mkdirSync(join(home, 'data'), { recursive: true });
    writeFileSync(join(home, 'data', 'hello.txt'), 'hello from the data directory\n');
    const before = readdirSync('/').sort();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TRC_STORE' && k !== 'XDG_DATA_HOME') env[k] = v;
    // The global bin first on PATH, and the Node running this test as `node` (Node 22+).
    env['PATH'] = `${join(prefix, 'bin')}:${dirname(process.execPath)}:${env['PATH'] ?? ''}`;
    env['HOME'] = home;
    // Verbatim but for the served directory: /data → a directory of this test.
    const args = (global?.args ?? []).map((a) => (a === '/data' ? join(home, 'data') : a));
    const transport = new StdioClientTransport({ command: global?.command ?? '', args, cwd: '/', env, stderr: 'pipe' });
    const client = new Client({ name: 'desktop-host', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: join(home, 'data', 'hello.txt') } });
    await client.close();
    expect(result['_meta']).toHaveProperty(['dev.tool-result-contract/envelope', 'status'], 'succeeded');
    expect(JSON.stringify(result.content)).toContain('hello from the data directory');
    expect(existsSync(join(home, '.local/share/tool-result-contract/trc.sqlite'))).toBe(true);
    expect(readdirSync('/').sort()).toEqual(before);
  }, 300_000);
});
