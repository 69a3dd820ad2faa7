/**
 * The fault campaign (issue 17): write calls through nginx to the counting upstream while
 * instances are SIGKILLed and restarted at random. Each write has its own arguments (so its own
 * idempotency key); a client retries the same arguments after a transport error or an
 * `IDEMPOTENCY_KEY_IN_FLIGHT` refusal, as an agent retrying a call would. Afterwards the
 * store and the upstream's effect table are checked: no key with two effects, no ambiguous
 * write reported `failed`, an audit record for every effect and every ledger entry's call, and
 * no entry left in flight. Used by test/deploy/faults.test.ts and `npm run bench -- faults`.
 */
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { ENVELOPE_META_KEY, IDEMPOTENCY_META_KEY } from '../../src/gateway/index.js';
import type { Deployment } from './harness.js';

/** Options of {@link runFaultCampaign}. */
export interface CampaignOptions {
  readonly writes: number;
  /** Clients sending at the same time (default 8). */
  readonly concurrency?: number;
  /**
   * Kill an instance every this many completed writes on average (default 250): tied to
   * progress, not to time, so a fast (quiet) machine sees as many kills as a slow one.
   */
  readonly killEveryWrites?: number;
  readonly pgUrl: string;
  /** SIGKILL instances at random (default true; false: a plain load run, for the scale bench). */
  readonly kill?: boolean;
  /** Progress lines (bench). */
  readonly log?: (line: string) => void;
}

/** What the campaign saw and what the checks found. */
export interface CampaignReport {
  readonly writes: number;
  readonly kills: number;
  readonly seconds: number;
  /** Final status of each write, counted. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Retries after a transport error (an instance died under the request) or an in-flight refusal. */
  readonly transportRetries: number;
  readonly inFlightRetries: number;
  /** Keys with more than one effect. */
  readonly duplicateEffects: number;
  /** Writes whose final answer was `failed` (none of them is a definite failure here). */
  readonly failedReports: number;
  /** Final `unknown` answers without a reconciliation block. */
  readonly unknownWithoutReconciliation: number;
  /** Keys with an effect but no audit record naming the key. */
  readonly effectsWithoutAudit: number;
  /** Ledger entries whose call has no audit record. */
  readonly entriesWithoutAudit: number;
  /** Ledger entries still `in_flight` after the campaign (every instance restarted). */
  readonly inFlightLeft: number;
  readonly ledgerEntries: number;
  readonly effects: number;
}

interface Env {
  status: string;
  error?: { code?: string };
  reconciliation?: unknown;
}

const letters = (n: number): string => [...randomBytes(n)].map((b) => String.fromCharCode(103 + (b % 20))).join('');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const envelopeOf = (r: unknown) => (r as { _meta?: Record<string, unknown> })._meta?.[ENVELOPE_META_KEY] as Env | undefined;

async function connect(url: string): Promise<Client> {
  for (let i = 0; ; i++) {
    try {
      const client = new Client({ name: 'fault-campaign', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    } catch (error) {
      if (i > 50) throw error;
      await sleep(200);
    }
  }
}

/**
 * Run the campaign on a started deployment.
 * @example const report = await runFaultCampaign(deployment, { writes: 2000, pgUrl });
 */
export async function runFaultCampaign(d: Deployment, options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now();
  const statuses: Record<string, number> = {};
  let transportRetries = 0;
  let inFlightRetries = 0;
  let failedReports = 0;
  let unknownWithoutReconciliation = 0;
  let next = 0;
  let done = 0;
  let stop = false;
  let kills = 0;

  // The killer: an instance is SIGKILLed every few hundred completed writes and started again
  // in the background (restarting takes seconds; the campaign goes on meanwhile). At least one
  // instance stays up, so the writes never stop.
  const down = new Set<number>();
  const restarts: Promise<void>[] = [];
  const killer = (async () => {
    const every = options.killEveryWrites ?? 250;
    let at = Math.max(1, Math.floor(every * (0.5 + Math.random())));
    while (!stop && options.kill !== false) {
      while (!stop && done < at) await sleep(20);
      if (stop) break;
      const up = d.instances.map((_, i) => i).filter((i) => !down.has(i));
      if (up.length <= 1) {
        await sleep(20);
        continue;
      }
      const victim = up[Math.floor(Math.random() * up.length)] as number;
      down.add(victim);
      await d.kill(victim);
      kills++;
      restarts.push((async () => {
        await sleep(Math.floor(Math.random() * 500));
        await d.restart(victim);
        down.delete(victim);
      })());
      at += Math.max(1, Math.floor(every * (0.5 + Math.random())));
    }
  })();

  const worker = async (): Promise<void> => {
    let client = await connect(d.url);
    for (;;) {
      const n = next++;
      if (n >= options.writes) break;
      // Letters only: no 6-character window of one write's arguments appears in another's result
      // (the gateway would hold a call whose arguments carry text seen in untrusted output).
      const args = { amount: 1 + (n % 97), op: letters(12) };
      // The client's own key: a retry with a new call id is the same write (the gateway's default key is per call).
      const meta = { [IDEMPOTENCY_META_KEY]: `campaign-${n}-${letters(8)}` };
      let final: Env | null = null;
      let unknownRetries = 0;
      for (let attempt = 0; attempt < 400 && final === null; attempt++) {
        let env: Env | undefined;
        try {
          env = envelopeOf(await client.callTool({ name: 'charge', arguments: args, _meta: meta }));
        } catch {
          // The instance died under the request (nginx answers 502) or the connection broke.
          transportRetries++;
          await sleep(50 + Math.random() * 150);
          await client.close().catch(() => undefined);
          client = await connect(d.url);
          continue;
        }
        if (env === undefined) {
          transportRetries++;
          await sleep(100);
          continue;
        }
        if (env.error?.code === 'IDEMPOTENCY_KEY_IN_FLIGHT') {
          inFlightRetries++;
          await sleep(100 + Math.random() * 200);
          continue;
        }
        // An unknown answer is reconciled again by the next call with the key (after a lease
        // of a dead instance expires, the lookup usually finds the charge).
        if (env.status === 'unknown' && unknownRetries < 3) {
          unknownRetries++;
          await sleep(300);
          continue;
        }
        final = env;
      }
      const status = final?.status ?? 'gave_up';
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 'failed') failedReports++;
      if (status === 'unknown' && final?.reconciliation === undefined) unknownWithoutReconciliation++;
      done++;
      if (done % 500 === 0) options.log?.(`${done}/${options.writes} writes, ${kills} kills, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    await client.close().catch(() => undefined);
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  stop = true;
  await killer;
  await Promise.all(restarts);
  for (let i = 0; i < d.instances.length; i++) await d.restart(i);
  const seconds = (Date.now() - started) / 1000;

  const db = new pg.Pool({ connectionString: options.pgUrl, max: 1 });
  try {
    const effects = await d.effects();
    const duplicateEffects = [...effects.values()].filter((c) => c > 1).length;
    const s = `"${d.schema}"`;
    const audited = new Set((await db.query<{ key: string | null }>(
      `SELECT DISTINCT (record::json -> 'detail' -> 'execution' ->> 'idempotency_key') AS key FROM ${s}.audit`,
    )).rows.map((r) => r.key));
    const effectsWithoutAudit = [...effects.keys()].filter((k) => !audited.has(k)).length;
    const ledger = (await db.query<{ state: string; call_id: string; has_audit: boolean }>(
      `SELECT l.state, l.call_id, EXISTS (SELECT 1 FROM ${s}.audit a WHERE a.call_id = l.call_id) AS has_audit FROM ${s}.ledger l`,
    )).rows;
    return {
      writes: options.writes,
      kills,
      seconds,
      statuses,
      transportRetries,
      inFlightRetries,
      duplicateEffects,
      failedReports,
      unknownWithoutReconciliation,
      effectsWithoutAudit,
      entriesWithoutAudit: ledger.filter((r) => !r.has_audit).length,
      inFlightLeft: ledger.filter((r) => r.state === 'in_flight').length,
      ledgerEntries: ledger.length,
      effects: effects.size,
    };
  } finally {
    await db.end();
  }
}
