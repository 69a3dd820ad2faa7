/**
 * Contract core throughput on the compiled package (dist/, rebuilt when stale), each figure
 * against its named baseline in the same run, contenders alternated, CPU time:
 *   - envelopes/s of `validate()` (schema + semantic invariants) vs plain Ajv on the same schema
 *     (`createAjv2020()` compiling the TypeBox objects), on the same envelopes (the seed's worked
 *     examples); target: `validate()` costs at most 1.3× plain Ajv. Plain Ajv inlines the whole
 *     schema into one ~80 KB function, which V8 never optimizes; our generated validators are one
 *     function per top-level member, so `validate()` can come out faster than plain Ajv;
 *   - `digest()` MB/s (RFC 8785 + SHA-256) vs SHA-256 of `JSON.stringify` of the same data;
 *     target: at least 60 % of the baseline's throughput.
 * Run: `npm run bench -- contract` (or `node --expose-gc --import tsx bench/contract.bench.ts`).
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import type * as ContractModule from '../src/contract/index.js';
import type * as TypeboxModule from '../src/contract/typebox.js';
import { cpuMs, ensureFreshDist, fmt, machineLine, median, reportTarget } from './harness.js';

ensureFreshDist();
const { canonicalJson, createAjv2020, digest, validate } = (await import(new URL('../dist/contract/index.js', import.meta.url).href)) as typeof ContractModule;
const { EnvelopeSchema } = (await import(new URL('../dist/contract/typebox.js', import.meta.url).href)) as typeof TypeboxModule;

/** Alternate the contenders; each round runs each one `n` times; median CPU µs per run. */
function compareCpu(contenders: Record<string, () => void>, rounds: number, n: number): Record<string, number> {
  const samples: Record<string, number[]> = {};
  for (const fn of Object.values(contenders)) for (let i = 0; i < n; i++) fn(); // warm up the JIT
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(contenders)) {
      globalThis.gc?.();
      (samples[name] ??= []).push((1000 * cpuMs(() => { for (let i = 0; i < n; i++) fn(); })) / n);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, 1e6 / median(v)]));
}

const ROUNDS = 9;

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
const v = compareCpu({
  ajv: () => void ajvCheck(next()),
  validate: () => void validate(next()),
}, ROUNDS, 20_000);
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
const d = compareCpu({
  'sha256(JSON.stringify)': () => void createHash('sha256').update(JSON.stringify(data)).digest('hex'),
  'digest (RFC 8785)': () => void digest(data),
}, ROUNDS, 4);
// The same on one 1 KB result, the size of an executor call's data.
const small = data.orders.slice(0, 4);
const s1 = compareCpu({
  'sha256(JSON.stringify)': () => void createHash('sha256').update(JSON.stringify(small)).digest('hex'),
  'digest (RFC 8785)': () => void digest(small),
}, ROUNDS, 5_000);
const mbps = (opsPerSec: number, size: number) => (opsPerSec * size) / 1e6;
const plainMBps = mbps(d['sha256(JSON.stringify)'] ?? NaN, plainBytes);
const jcsMBps = mbps(d['digest (RFC 8785)'] ?? NaN, bytes);

console.log(`${ROUNDS} alternated rounds, CPU time, median; ${machineLine()}\n`);
console.log('validate() vs plain Ajv (same schema, same envelopes: the 7 seed examples in turn)');
console.log('  contender          envelopes/s     relative');
console.log(`  plain Ajv      ${fmt(ajvRate).padStart(15)}     1.00x (baseline)`);
console.log(`  validate()     ${fmt(validateRate).padStart(15)}     ${fmt(validateRate / ajvRate, 2)}x`);
reportTarget({ area: 'contract', measure: 'validate() time / plain Ajv time', value: `${fmt(ratio, 2)}×`, target: '≤ 1.3×', met: ratio <= 1.3 });
console.log('');
console.log(`digest() vs SHA-256 of JSON.stringify (same data: ${fmt(bytes / 1e6, 2)} MB canonical, ${fmt(plainBytes / 1e6, 2)} MB stringified)`);
console.log('  contender                   MB/s     relative');
console.log(`  sha256(JSON.stringify) ${fmt(plainMBps, 1).padStart(9)}     1.00x (baseline)`);
console.log(`  digest (RFC 8785)      ${fmt(jcsMBps, 1).padStart(9)}     ${fmt(jcsMBps / plainMBps, 2)}x`);
const smallRatio = (s1['digest (RFC 8785)'] ?? NaN) / (s1['sha256(JSON.stringify)'] ?? NaN);
console.log(`  on ${Buffer.byteLength(JSON.stringify(small))} bytes (4 orders): digest at ${fmt(smallRatio, 2)}x of the baseline`);
reportTarget({ area: 'contract', measure: 'digest() throughput / sha256(JSON.stringify), 2.8 MB', value: `${fmt((100 * jcsMBps) / plainMBps, 0)} %`, target: '≥ 60 %', met: jcsMBps / plainMBps >= 0.6 });
reportTarget({ area: 'contract', measure: 'digest() throughput / sha256(JSON.stringify), 1 KB', value: `${fmt(100 * smallRatio, 0)} %`, target: '≥ 60 %', met: smallRatio >= 0.6 });
