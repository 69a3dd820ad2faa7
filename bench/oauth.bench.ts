/**
 * What authenticating one HTTP request costs the gateway with OAuth (issue 17), beside
 * baselines measured in the same run: the door's `authenticate()` (header, signature against
 * the cached JWKS, claims, principal) for RS256 and ES256 tokens — a new token every request,
 * and the same token again (a client's normal case: the door remembers a verified token for
 * up to a minute) —, `jose.jwtVerify` alone with the key in hand (the floor any JWT check
 * pays), and the shared-token mode's constant-time comparison. CPU time per request,
 * sequential, after warm-up (the JWKS is fetched once).
 * Run: `npm run bench -- oauth` (or `node --expose-gc --import tsx bench/oauth.bench.ts`).
 */
import { timingSafeEqual } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { resourceServer } from '../src/gateway/index.js';
import { startIssuer } from '../test/helpers/oauth-issuer.js';
import { cpuMsAsync, fmt, machineLine, median } from './harness.js';

const RESOURCE = 'http://localhost/mcp';
const N = 2000;

const WARMUP = 200;
const ROUNDS = 3;

async function perCall(fn: (i: number) => Promise<void>): Promise<number> {
  let i = 0;
  for (; i < WARMUP; i++) await fn(i); // warm up (and the first JWKS fetch)
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    (globalThis as { gc?: () => void }).gc?.();
    samples.push((await cpuMsAsync(async () => { for (let k = 0; k < N; k++) await fn(i++); })) / N);
  }
  return median(samples);
}

const rows: [string, number][] = [];
for (const alg of ['RS256', 'ES256'] as const) {
  const issuer = await startIssuer({ alg });
  const door = resourceServer({ issuer: issuer.url, resource: RESOURCE, required_scopes: ['mcp'] }, '/mcp');
  const token = await issuer.token({ sub: 'alice', aud: RESOURCE, scope: 'mcp' });
  const header = `Bearer ${token}`;
  // Signed beforehand, so the figure is verification only.
  const fresh: string[] = [];
  for (let i = 0; i < WARMUP + ROUNDS * N; i++) fresh.push(`Bearer ${await issuer.token({ sub: `user${i % 50}`, aud: RESOURCE, scope: 'mcp' })}`);
  rows.push([`door.authenticate, a new token each time (${alg})`, await perCall(async (i) => { await door.authenticate(fresh[i] as string); })]);
  rows.push([`door.authenticate, the same token again (${alg})`, await perCall(async () => { await door.authenticate(header); })]);
  const jwks = createLocalJWKSet((await (await fetch(`${issuer.url}/jwks`)).json()) as { keys: [] });
  rows.push([`baseline: jose.jwtVerify, local JWKS (${alg})`, await perCall(async () => { await jwtVerify(token, jwks, { issuer: issuer.url, audience: RESOURCE }); })]);
  await issuer.close();
}
const expected = Buffer.from('Bearer s3cr3t-shared-token-of-some-length');
rows.push(['baseline: shared token, timingSafeEqual', await perCall(async () => { const got = Buffer.from('Bearer s3cr3t-shared-token-of-some-length'); timingSafeEqual(got, expected); })]);

console.log(`\nCPU per request (µs, median of 3 × ${fmt(N)} sequential requests) — ${machineLine()}`);
const w = Math.max(...rows.map(([n]) => n.length));
for (const [name, ms] of rows) console.log(`  ${name.padEnd(w)}  ${fmt(ms * 1000, 1).padStart(8)} µs`);
