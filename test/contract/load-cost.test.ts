import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('load-probe/probe.ts', import.meta.url));
const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../examples/order-lookup.json', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trc-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Probe {
  readonly valid: boolean;
  readonly rssKb: number;
  /** Every module loaded, ESM and CommonJS, as package-relative paths when under node_modules. */
  readonly loaded: readonly string[];
}

let runs = 0;
/** Run the probe in a fresh `node --import tsx` (how the CLI tests run the sources). */
function probe(entry: string, ...flags: string[]): Promise<Probe> {
  const log = join(dir, `resolved-${runs++}.log`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PROBE, log, entry, EXAMPLE, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`probe exited ${code}: ${err}`));
      const raw = JSON.parse(out) as { valid: boolean; rssKb: number; esm: string[]; cjs: string[] };
      const files = [...raw.esm.map((u) => (u.startsWith('file:') ? fileURLToPath(u) : u)), ...raw.cjs];
      const loaded = [...new Set(files.map((f) => f.replace(/^.*\/node_modules\//, '')))];
      resolve({ valid: raw.valid, rssKb: raw.rssKb, loaded });
    });
  });
}

const typebox = (p: Probe) => p.loaded.filter((f) => f.startsWith('@sinclair/typebox/'));
/** Ajv files other than its tiny run-time helpers, which generated code may call. */
const ajvCompiler = (p: Probe) => p.loaded.filter((f) => f.startsWith('ajv/') && !f.startsWith('ajv/dist/runtime/'));
/** Any ajv-formats file: the envelope's date-time format is our own (contract/date-time.ts). */
const ajvFormats = (p: Probe) => p.loaded.filter((f) => f.startsWith('ajv-formats/'));

describe('loading the contract core', () => {
  it('validates an envelope without loading TypeBox or the Ajv compiler', async () => {
    const run = await probe(src('contract/index.ts'));
    expect(run.valid).toBe(true);
    // The probe saw the contract itself and the generated validators being loaded …
    expect(run.loaded).toContain(src('contract/validate.ts'));
    expect(run.loaded).toContain(src('contract/generated/envelope-validators.ts'));
    expect(run.loaded).toContain(src('contract/date-time.ts'));
    // … and nothing heavy.
    expect(typebox(run)).toEqual([]);
    expect(ajvCompiler(run)).toEqual([]);
    expect(ajvFormats(run)).toEqual([]);
    // Under tsx (which transpiles every file it loads) this was 39–45 MB with TypeBox and Ajv
    // loaded at import time; it is 6–11 MB now (more when tsx's cache is cold).
    expect(run.rssKb).toBeLessThan(20 * 1024);
  });

  it('loads Ajv on the first createAjv2020() call, not before', async () => {
    const run = await probe(src('contract/index.ts'), '--ajv');
    expect(run.loaded).toContain('ajv/dist/2020.js');
    expect(run.loaded).toContain('ajv-formats/dist/index.js');
    expect(typebox(run)).toEqual([]);
  });

  it('loads TypeBox only through the contract/typebox entry', async () => {
    const run = await probe(src('contract/typebox.ts'));
    expect(run.valid).toBe(true);
    expect(typebox(run).length).toBeGreaterThan(0);
  });
});
