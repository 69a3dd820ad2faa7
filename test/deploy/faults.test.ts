// The fault campaign in CI: 2,000 writes through nginx to three gateways on one PostgreSQL
// store, instances SIGKILLed and restarted at random (10,000: `npm run bench -- faults`).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runFaultCampaign } from './fault-campaign.js';
import { startDeployment, type Deployment } from './harness.js';

const pgUrl = inject('trcPgUrl') ?? process.env.TRC_PG_URL ?? '';
let deployment: Deployment;
beforeAll(async () => {
  // A short lease, so a dead instance's writes are taken over within seconds.
  deployment = await startDeployment({ pgUrl, instances: 3, principal: 'campaign-user', leaseMs: 1500, timeoutMs: 4000 });
}, 120_000);
afterAll(async () => {
  await deployment?.close();
}, 60_000);

describe('fault campaign through nginx', () => {
  it('loses and duplicates nothing over 2,000 writes while instances are SIGKILLed and restarted', async () => {
    const report = await runFaultCampaign(deployment, { writes: 2000, pgUrl, concurrency: 12, killEveryWrites: 250 });
    const summary = JSON.stringify(report);
    // The figures of the run (kills, retries, final statuses), for the CI log.
    console.log(`fault campaign: ${summary}`);
    expect(report.kills, summary).toBeGreaterThanOrEqual(5);
    expect(report.duplicateEffects, summary).toBe(0);
    expect(report.failedReports, summary).toBe(0);
    expect(report.statuses['gave_up'] ?? 0, summary).toBe(0);
    expect(report.unknownWithoutReconciliation, summary).toBe(0);
    expect(report.effectsWithoutAudit, summary).toBe(0);
    expect(report.entriesWithoutAudit, summary).toBe(0);
    expect(report.inFlightLeft, summary).toBe(0);
    expect(report.ledgerEntries, summary).toBe(2000);
  }, 300_000);
});
