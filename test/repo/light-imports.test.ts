/**
 * Pay for what you use: the root entry and /contract, /budget, /trust and /evidence load no
 * native module, no SQL driver, no MCP SDK and not gpt-tokenizer's tables; each store and
 * adapter loads its driver only through its own sub-path.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RECORD = fileURLToPath(new URL('./fixtures/record-loads.mjs', import.meta.url));
const ENTRY = fileURLToPath(new URL('./fixtures/import-entry.mjs', import.meta.url));

interface Loads {
  readonly esm: string[];
  readonly cjs: string[];
  readonly addons: string[];
}

function loadsOf(source: string): Loads {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', RECORD, ENTRY, pathToFileURL(`${root}${source}`).href], { encoding: 'utf8', cwd: root, timeout: 60_000 });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  expect(line, r.stderr).not.toBe('');
  return JSON.parse(line) as Loads;
}

/** Packages (node_modules/<name>) and node: built-ins among the loaded modules. */
function packages(loads: Loads): Set<string> {
  const out = new Set<string>();
  for (const url of [...loads.esm, ...loads.cjs]) {
    if (url.startsWith('node:')) out.add(url);
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
    if (m?.[1] !== undefined) out.add(m[1] === 'gpt-tokenizer' && m[2]?.includes('o200k_base') ? 'gpt-tokenizer/o200k_base' : m[1]);
  }
  return out;
}

const HEAVY = ['better-sqlite3', 'pg', 'pg-pool', 'node:sqlite', '@modelcontextprotocol/sdk', 'gpt-tokenizer/o200k_base', 'openai', 'ai', '@openai/agents', '@langchain/core', '@anthropic-ai/sdk', '@opentelemetry/api'];

describe('light sub-paths', () => {
  it.each([
    ['the root entry', 'src/index.ts'],
    ['/contract', 'src/contract/index.ts'],
    ['/budget', 'src/budget/index.ts'],
    ['/trust', 'src/trust/index.ts'],
    ['/evidence', 'src/evidence/index.ts'],
  ])('%s loads no native module, SQL driver, MCP SDK or tokenizer table', (_name, source) => {
    const loads = loadsOf(source);
    expect(loads.esm.length).toBeGreaterThan(3);
    expect(loads.addons).toEqual([]);
    const loaded = packages(loads);
    expect(HEAVY.filter((p) => loaded.has(p))).toEqual([]);
  });

  it('the SQLite store loads its driver, and the recorder sees it (the check above can fail)', () => {
    const loads = loadsOf('test/repo/fixtures/open-sqlite.ts');
    const loaded = packages(loads);
    expect(loaded.has('better-sqlite3') || loaded.has('node:sqlite')).toBe(true);
    if (loaded.has('better-sqlite3')) expect(loads.addons.some((f) => f.includes('better_sqlite3'))).toBe(true);
  });

  it('the MCP adapter loads the MCP SDK through its own sub-path', () => {
    expect(packages(loadsOf('src/adapters/mcp/index.ts')).has('@modelcontextprotocol/sdk')).toBe(true);
  });
});
