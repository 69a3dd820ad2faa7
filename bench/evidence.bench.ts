/**
 * Evidence bench: claims checked per second by `checkAnswer` on a 50-claim answer against 100
 * envelopes, beside a named baseline — a naive substring search of each claim's number-like
 * tokens in the serialized results — and how often each gets the verdict right on an answer
 * where 10 of the 50 claims state a wrong value.
 */
import type { Envelope } from '../src/contract/index.js';
import { checkAnswer } from '../src/evidence/index.js';

const ENVELOPES = 100;
const CLAIMS = 50;
const MUTATED = 10;
const RUN_MS = 3000;

let seed = 42;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};

function makeEnvelope(i: number): Envelope {
  const minute = 27_000_000 + i * 97;
  return {
    contract_version: 'agent.tool.result.v1',
    call: { tool_name: 'get_order', call_id: `call_${i}`, attempt: 1 },
    status: 'succeeded',
    data: {
      order_id: `ord_${1000 + i}`,
      status: 'shipped',
      quantity: 1 + ((i * 7) % 40),
      amount: 1000 + i * 37,
      weight: (i * 13) / 10 + 0.5,
      shipped_at: new Date(minute * 60_000).toISOString().replace('.000Z', 'Z'),
      carrier: ['SF Express', 'JD Logistics', 'EMS'][i % 3],
    },
    completeness: { state: 'complete', returned_items: 1, available_items: 1, next: null },
    provenance: { source_type: 'database', source_id: 'orders.primary', retrieved_at: '2026-09-01T02:10:00Z', observed_at: null },
    evidence: [
      {
        evidence_id: `ev_${i}`,
        kind: 'record',
        locator: { table: 'orders', primary_key: `ord_${1000 + i}`, columns: ['order_id', 'quantity', 'amount', 'weight', 'shipped_at', 'carrier'] },
        supports: ['/data/order_id', '/data/quantity', '/data/amount', '/data/weight', '/data/shipped_at', '/data/carrier'],
      },
    ],
    side_effect: { occurred: false, operation: 'read' },
    warnings: [],
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
function chinaTime(iso: string): string {
  const d = new Date(Date.parse(iso) + 8 * 3_600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** One claim about envelope i; `wrong` shifts a value so that it no longer means the same. */
function claim(env: Envelope, i: number, wrong: boolean): string {
  const d = env.data as { order_id: string; quantity: number; amount: number; weight: number; shipped_at: string };
  const shift = wrong ? 1 : 0;
  switch (rand(4)) {
    case 0:
      return `订单 ${d.order_id} 共 ${d.quantity + shift} 件，已于 ${chinaTime(wrong ? new Date(Date.parse(d.shipped_at) + 3_600_000).toISOString() : d.shipped_at)}（中国标准时间）发货。[ev_${i}]`;
    case 1:
      return `Order ${d.order_id} is worth ${(d.amount + shift * 10).toLocaleString('en-US')} and weighs ${(d.weight + shift).toFixed(1)} kg [ev_${i}].`;
    case 2:
      return `Order ${d.order_id} shipped at ${chinaTime(d.shipped_at)} (UTC+8) with ${d.quantity + shift} units [ev_${i}].`;
    default:
      return `${d.order_id} 的金额为 ${d.amount + shift * 100} 元 [ev_${i}]。`;
  }
}

function buildAnswer(envs: readonly Envelope[], mutated: ReadonlySet<number>): string {
  const parts: string[] = [];
  for (let c = 0; c < CLAIMS; c++) {
    const i = rand(envs.length);
    const env = envs[i];
    if (env !== undefined) parts.push(claim(env, i, mutated.has(c)));
  }
  return parts.join(' ');
}

function trimPunctuation(token: string): string {
  let end = token.length;
  while (end > 0 && '.,:'.includes(token[end - 1] ?? '')) end--;
  return token.slice(0, end);
}

/** Baseline: every digit-bearing token of a sentence must occur somewhere in the serialized results. */
function substringBaseline(answer: string, haystack: string): boolean[] {
  const sentences = answer.split(/(?<=[.。!?！？](?: ?\[[^[\]]*\])?) /).filter((s) => s.trim() !== '');
  return sentences.map((s) => {
    const tokens = s.split(/[\s，。()（）[\]]/).filter((t) => /\d/.test(t));
    return tokens.every((t) => haystack.includes(trimPunctuation(t)));
  });
}

function time(fn: () => void): { perSecond: number; runs: number } {
  for (let i = 0; i < 20; i++) fn();
  const start = performance.now();
  let runs = 0;
  while (performance.now() - start < RUN_MS) {
    fn();
    runs++;
  }
  const elapsed = (performance.now() - start) / 1000;
  return { perSecond: (runs * CLAIMS) / elapsed, runs };
}

const envs = Array.from({ length: ENVELOPES }, (_, i) => makeEnvelope(i));
const haystack = JSON.stringify(envs);
const mutated = new Set<number>();
while (mutated.size < MUTATED) mutated.add(rand(CLAIMS));
const clean = buildAnswer(envs, new Set());
const dirty = buildAnswer(envs, mutated);
const truth = Array.from({ length: CLAIMS }, (_, c) => !mutated.has(c));

const score = (got: readonly boolean[], expected: readonly boolean[]) => expected.filter((e, i) => got[i] === e).length;
const checkerClean = checkAnswer(clean, envs).claims.map((c) => c.verdict === 'supported');
const checkerDirty = checkAnswer(dirty, envs).claims.map((c) => c.verdict === 'supported');
const baseClean = substringBaseline(clean, haystack);
const baseDirty = substringBaseline(dirty, haystack);
if (checkerClean.length !== CLAIMS || baseClean.length !== CLAIMS) throw new Error(`expected ${CLAIMS} claims, got ${checkerClean.length} / ${baseClean.length}`);

const checker = time(() => checkAnswer(dirty, envs));
const baseline = time(() => substringBaseline(dirty, haystack));

const rows = [
  ['method', 'claims/s', 'right on clean answer', `right on answer with ${MUTATED} wrong values`],
  ['checkAnswer (this library)', Math.round(checker.perSecond).toLocaleString('en-US'), `${score(checkerClean, truth.map(() => true))}/${CLAIMS}`, `${score(checkerDirty, truth)}/${CLAIMS}`],
  ['baseline: substring search', Math.round(baseline.perSecond).toLocaleString('en-US'), `${score(baseClean, truth.map(() => true))}/${CLAIMS}`, `${score(baseDirty, truth)}/${CLAIMS}`],
];
console.log(`${CLAIMS}-claim answer (English and Chinese, mixed formats) against ${ENVELOPES} envelopes; ${RUN_MS / 1000}s per method`);
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
console.log(`checkAnswer is ${(checker.perSecond / baseline.perSecond).toFixed(2)}x the baseline's speed`);
