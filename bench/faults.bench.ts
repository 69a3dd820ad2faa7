/**
 * The fault campaign at full size (issue 17): 10,000 writes through nginx to three gateways on
 * one PostgreSQL store while instances are SIGKILLed and restarted at random; prints the
 * checks (duplicates, ambiguous writes reported failed, audit records, in-flight keys left).
 * `npm run bench -- faults` (TRC_FAULT_WRITES to change the count). The CI test runs 2,000.
 */
import { startThrowawayPostgres } from '../scripts/pg-cluster.js';
import { runFaultCampaign } from '../test/deploy/fault-campaign.js';
import { startDeployment } from '../test/deploy/harness.js';
import { reportTarget } from './harness.js';

const WRITES = Number(process.env['TRC_FAULT_WRITES'] ?? '10000');
const own = process.env['TRC_PG_URL'] === undefined ? await startThrowawayPostgres() : null;
const pgUrl = own?.url ?? process.env['TRC_PG_URL'] ?? '';
const d = await startDeployment({ pgUrl, instances: 3, principal: 'campaign-user', leaseMs: 1500, timeoutMs: 4000 });
try {
  const r = await runFaultCampaign(d, { writes: WRITES, pgUrl, concurrency: 12, killEveryWrites: 250, log: (line) => console.log(line) });
  console.log(`\n${r.writes} writes in ${r.seconds.toFixed(0)} s (${(r.writes / r.seconds).toFixed(1)} writes/s with faults), ${r.kills} SIGKILLs`);
  console.log(`final statuses: ${JSON.stringify(r.statuses)}; retries after a dead instance: ${r.transportRetries}, after an in-flight refusal: ${r.inFlightRetries}`);
  const checks: [string, number][] = [
    ['keys with duplicate effects', r.duplicateEffects],
    ['ambiguous writes reported failed', r.failedReports],
    ['unknown without reconciliation', r.unknownWithoutReconciliation],
    ['effects without an audit record', r.effectsWithoutAudit],
    ['ledger entries whose call has no audit record', r.entriesWithoutAudit],
    ['entries left in flight after restart', r.inFlightLeft],
  ];
  for (const [name, n] of checks) console.log(`${name.padEnd(48)} ${String(n).padStart(6)}  ${n === 0 ? 'ok' : 'FAIL'}`);
  console.log(`ledger entries ${r.ledgerEntries}, keys with an effect ${r.effects}`);
  const bad = checks.reduce((n, [, v]) => n + v, 0);
  reportTarget({ area: 'faults', measure: `violations over ${r.writes} writes, ${r.kills} kills`, value: String(bad), target: '0', met: bad === 0 });
  if (bad !== 0) process.exitCode = 1;
} finally {
  await d.close();
  await own?.stop();
}
