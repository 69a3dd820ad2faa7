/**
 * vitest globalSetup: a real PostgreSQL for the tests, never skipped.
 * Uses `TRC_PG_URL` when set; otherwise starts a throwaway cluster (installing PostgreSQL with
 * apt when absent and root; see `scripts/pg-cluster.ts`) and removes it in teardown.
 * Tests read the URL with `inject('trcPgUrl')`; it is also set as `process.env.TRC_PG_URL`.
 */
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../scripts/pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    trcPgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TRC_PG_URL;
  if (given !== undefined && given !== '') {
    project.provide('trcPgUrl', given);
    return async () => undefined;
  }
  const cluster = await startThrowawayPostgres();
  process.env.TRC_PG_URL = cluster.url;
  project.provide('trcPgUrl', cluster.url);
  return async () => {
    await cluster.stop();
  };
}
