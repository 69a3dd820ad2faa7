/**
 * Contract core throughput, each figure against its named baseline in the same run:
 *   - envelopes/s of `validate()` (schema + semantic invariants) vs plain Ajv on the same schema
 *     (`createAjv2020()`), on the same realistic mix of envelopes (the seed's worked examples);
 *     target: the semantic layer costs at most 2x, i.e. ratio <= 2.0;
 *   - `digest()` MB/s (RFC 8785 + SHA-256) vs SHA-256 of `JSON.stringify` of the same data.
 * Run: `npm run bench -- contract` (or `node --expose-gc --import tsx bench/contract.bench.ts`).
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { canonicalJson, createAjv2020, digest, validate } from '../src/contract/index.js';
import { EnvelopeSchema } from '../src/contract/typebox.js';
import { compare, fmt } from './harness.js';

const ROUNDS = 5;
const ROUND_MS = 1_000;

// --- validate() vs plain Ajv --------------------------------------------------------------
const dir = new URL('../examples/', import.meta.url);
const envelopes = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as unknown);
const ajvCheck = createAjv2020().compile(EnvelopeSchema);
for (const env of envelopes) {
  if (!validate(env).valid || !ajvCheck(env)) throw new Error('bench input must be valid envelopes');
}
let i = 0;
const next = () => envelopes[i++ % envelopes.length];
const v = compare({
  ajv: () => void ajvCheck(next()),
  validate: () => void validate(next()),
}, { rounds: ROUNDS, roundMs: ROUND_MS, warmupMs: 300 });
const ajvRate = v['ajv'] ?? NaN;
const validateRate = v['validate'] ?? NaN;
const ratio = ajvRate / validateRate;

// --- digest() vs sha256(JSON.stringify) ---------------------------------------------------
/** A few MB of realistic tool data: order records with nested items, text and numbers. */
const data = {
  orders: Array.from({ length: 8_000 }, (_, n) => ({
    order_id: `ord_${100000 + n}`,
    status: ['shipped', 'pending', 'cancelled', 'refunded'][n % 4],
    customer: { id: `cus_${n % 997}`, name: `Customer ${n}`, email: `customer${n}@example.com`, vip: n % 13 === 0 },
    total: Math.round(n * 137.31) / 100,
    currency: 'EUR',
    created_at: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    items: Array.from({ length: 1 + (n % 4) }, (_, k) => ({ sku: `sku_${(n * 7 + k) % 5000}`, qty: 1 + k, price: 9.99 + k * 0.5 })),
    note: n % 5 === 0 ? 'Leave at the door — Tür hinten, 請放門口 😀' : null,
  })),
};
const bytes = Buffer.byteLength(canonicalJson(data), 'utf8');
const plainBytes = Buffer.byteLength(JSON.stringify(data), 'utf8');
const d = compare({
  'sha256(JSON.stringify)': () => void createHash('sha256').update(JSON.stringify(data)).digest('hex'),
  'digest (RFC 8785)': () => void digest(data),
}, { rounds: ROUNDS, roundMs: ROUND_MS, warmupMs: 300 });
const mbps = (opsPerSec: number, size: number) => (opsPerSec * size) / 1e6;
const plainMBps = mbps(d['sha256(JSON.stringify)'] ?? NaN, plainBytes);
const jcsMBps = mbps(d['digest (RFC 8785)'] ?? NaN, bytes);

console.log(`Node ${process.version}, ${ROUNDS} rounds x ${ROUND_MS} ms, median\n`);
console.log('validate() vs plain Ajv (same schema, same envelopes: the 7 seed examples in turn)');
console.log('  contender          envelopes/s     relative');
console.log(`  plain Ajv      ${fmt(ajvRate).padStart(15)}     1.00x (baseline)`);
console.log(`  validate()     ${fmt(validateRate).padStart(15)}     ${fmt(validateRate / ajvRate, 2)}x`);
console.log(`  semantic layer cost: ${fmt(ratio, 2)}x the time of Ajv alone (target <= 2.00: ${ratio <= 2 ? 'met' : 'MISSED'})\n`);
console.log(`digest() vs SHA-256 of JSON.stringify (same data: ${fmt(bytes / 1e6, 2)} MB canonical, ${fmt(plainBytes / 1e6, 2)} MB stringified)`);
console.log('  contender                   MB/s     relative');
console.log(`  sha256(JSON.stringify) ${fmt(plainMBps, 1).padStart(9)}     1.00x (baseline)`);
console.log(`  digest (RFC 8785)      ${fmt(jcsMBps, 1).padStart(9)}     ${fmt(jcsMBps / plainMBps, 2)}x`);
