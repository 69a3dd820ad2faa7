/**
 * Child process of the load-cost test (`node --import tsx probe.ts LOG ENTRY EXAMPLE [--ajv]`):
 * imports ENTRY, validates EXAMPLE with it, optionally calls `createAjv2020()`, and prints as
 * JSON what was loaded (every resolved ESM URL and every CommonJS module in `require.cache`)
 * and how much the peak RSS grew.
 */
import { readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

interface ContractLike {
  validate: (value: unknown) => { valid: boolean };
  createAjv2020?: () => unknown;
}

const [log, entry, example, flag] = process.argv.slice(2);
if (log === undefined || entry === undefined || example === undefined) throw new Error('usage: probe.ts LOG ENTRY EXAMPLE [--ajv]');
register('./record-resolve.mjs', import.meta.url, { data: { log } });

const envelope = JSON.parse(readFileSync(example, 'utf8')) as unknown;
const before = process.resourceUsage().maxRSS;
const contract = (await import(pathToFileURL(entry).href)) as ContractLike;
const { validate } = contract.validate === undefined ? ((await import('../../../src/contract/index.js')) as ContractLike) : contract;
const valid = validate(envelope).valid;
const rssKb = process.resourceUsage().maxRSS - before;
if (flag === '--ajv') contract.createAjv2020?.();

process.stdout.write(
  JSON.stringify({
    valid,
    rssKb,
    esm: readFileSync(log, 'utf8').split('\n').filter(Boolean),
    cjs: Object.keys(createRequire(import.meta.url).cache),
  }),
);
