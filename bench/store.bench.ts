/**
 * Store benchmark: resource write/read throughput with peak memory, and ledger begin+settle
 * rate, for the memory, SQLite and PostgreSQL stores — against plain baselines measured in the
 * same run (a file written/read with node:fs; raw better-sqlite3 / pg INSERT+UPDATE statements).
 * PostgreSQL uses TRC_PG_URL, else a throwaway cluster (scripts/pg-cluster.ts).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../scripts/pg-cluster.js';
import type { Store } from '../src/store/index.js';
import { createMemoryStore } from '../src/store/index.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

const RESOURCE_MB = 128;
const PIECE = 64 * 1024;
const LEDGER_OPS = 3000;
const piece = randomBytes(PIECE);
const dir = mkdtempSync(join(tmpdir(), 'trc-store-bench-'));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);

interface Row { name: string; writeMBs: number; readMBs: number; peakRssMB: string; ledgerOps: number }
const rows: Row[] = [];

async function timeResource(sizeMB: number, write: (chunk: Uint8Array) => Promise<void>, finish: () => Promise<void>, read: () => AsyncIterable<Uint8Array>) {
  gc();
  const base = process.memoryUsage().rss;
  let peak = base;
  const total = sizeMB * 1024 * 1024;
  let t = performance.now();
  for (let at = 0; at < total; at += PIECE) {
    await write(piece);
    if (at % (8 * PIECE) === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  await finish();
  const writeS = (performance.now() - t) / 1000;
  t = performance.now();
  let readBytes = 0;
  for await (const chunk of read()) {
    readBytes += chunk.byteLength;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const readS = (performance.now() - t) / 1000;
  if (readBytes !== total) throw new Error(`read ${readBytes} of ${total} bytes`);
  return { writeMBs: sizeMB / writeS, readMBs: sizeMB / readS, peakRssMB: `+${mb(peak - base)}` };
}

/** Begin+settle pairs per second: LEDGER_OPS pairs, or as many as fit in 4 s (fsync-bound stores). */
async function timeLedger(beginSettle: (i: number) => Promise<void>): Promise<number> {
  const t = performance.now();
  let done = 0;
  while (done < LEDGER_OPS && performance.now() - t < 4000) {
    await beginSettle(done);
    done += 1;
  }
  return done / ((performance.now() - t) / 1000);
}

const envelope = { status: 'succeeded', data: { payment_id: 'pay_1', amount: 1250 } };

async function benchStore(name: string, store: Store, sizeMB = RESOURCE_MB): Promise<void> {
  const writer = await store.createResource({ principal: 'p', tool: 't', mimeType: 'application/octet-stream', expiresAt: null });
  const r = await timeResource(sizeMB, (c) => writer.write(c), async () => { await writer.commit(); }, () => store.readResource(writer.id));
  const ledgerOps = await timeLedger(async (i) => {
    const now = new Date().toISOString();
    await store.ledgerBegin({ key: `k${i}`, tool: 'pay', principal: 'p', argsDigest: 'd', callId: `c${i}`, now });
    await store.ledgerUpdate(`k${i}`, { state: 'succeeded', attempts: 1, envelope, now });
  });
  rows.push({ name, ...r, ledgerOps });
  await store.close();
}

async function baselineFs(): Promise<void> {
  const path = join(dir, 'baseline.bin');
  const handle = await open(path, 'w');
  const r = await timeResource(RESOURCE_MB, async (c) => { await handle.write(c); }, async () => { await handle.sync(); await handle.close(); },
    () => createReadStream(path, { highWaterMark: 1024 * 1024 }));
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE ledger (key TEXT PRIMARY KEY, state TEXT, attempts INTEGER, envelope TEXT, updated_at TEXT)');
  const ins = db.prepare('INSERT INTO ledger VALUES (?, ?, 0, ?, ?) ON CONFLICT DO NOTHING');
  const upd = db.prepare('UPDATE ledger SET state = ?, attempts = 1, envelope = ?, updated_at = ? WHERE key = ?');
  const ledgerOps = await timeLedger(async (i) => {
    const now = new Date().toISOString();
    ins.run(`k${i}`, 'in_flight', 'null', now);
    upd.run('succeeded', JSON.stringify(envelope), now, `k${i}`);
  });
  db.close();
  rows.push({ name: 'baseline: node:fs file / raw better-sqlite3 (FULL)', ...r, ledgerOps });
}

async function baselinePg(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  await pool.query('CREATE TABLE IF NOT EXISTS bench_raw_ledger (key TEXT PRIMARY KEY, state TEXT, attempts INTEGER, envelope TEXT, updated_at TEXT)');
  await pool.query('TRUNCATE bench_raw_ledger');
  const ledgerOps = await timeLedger(async (i) => {
    const now = new Date().toISOString();
    await pool.query('INSERT INTO bench_raw_ledger VALUES ($1, $2, 0, $3, $4) ON CONFLICT DO NOTHING', [`k${i}`, 'in_flight', 'null', now]);
    await pool.query('UPDATE bench_raw_ledger SET state = $1, attempts = 1, envelope = $2, updated_at = $3 WHERE key = $4', ['succeeded', JSON.stringify(envelope), now, `k${i}`]);
  });
  await pool.query('DROP TABLE bench_raw_ledger');
  await pool.end();
  rows.push({ name: 'baseline: raw pg INSERT+UPDATE', writeMBs: Number.NaN, readMBs: Number.NaN, peakRssMB: '-', ledgerOps });
}

let cluster: ThrowawayPostgres | null = null;
try {
  await baselineFs();
  await benchStore('memory', createMemoryStore());
  await benchStore('sqlite file (synchronous FULL)', await openSqliteStore({ path: join(dir, 'full.db') }));
  await benchStore('sqlite file (synchronous NORMAL)', await openSqliteStore({ path: join(dir, 'normal.db'), synchronous: 'NORMAL' }));
  // Same store, 4x the bytes: peak memory must not grow with the resource size.
  await benchStore(`sqlite file (NORMAL), ${4 * RESOURCE_MB} MB resource`, await openSqliteStore({ path: join(dir, 'big.db'), synchronous: 'NORMAL' }), 4 * RESOURCE_MB);
  let url = process.env.TRC_PG_URL;
  if (url === undefined || url === '') {
    cluster = await startThrowawayPostgres({ database: 'trc_bench' });
    url = cluster.url;
  }
  await baselinePg(url);
  await benchStore('postgres', await openPostgresStore({ connectionString: url, schema: `trc_bench_${process.pid}` }));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS trc_bench_${process.pid} CASCADE`);
  await admin.end();
} finally {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}

const fmt = (n: number): string => (Number.isNaN(n) ? '-' : n.toFixed(0));
console.log(`resource: ${RESOURCE_MB} MB (unless named) in ${PIECE / 1024} KB writes, read back in stored chunks; ledger: sequential begin+settle pairs (${LEDGER_OPS} or 4 s)`);
console.table(rows.map((r) => ({
  store: r.name, 'write MB/s': fmt(r.writeMBs), 'read MB/s': fmt(r.readMBs), 'peak RSS +MB': r.peakRssMB, 'begin+settle /s': fmt(r.ledgerOps),
})));
