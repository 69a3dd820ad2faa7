/**
 * Start a throwaway PostgreSQL for local development and print its URL; Ctrl-C stops and deletes it.
 *   npx tsx scripts/pg-test-server.ts            # then: TRC_PG_URL=<printed url> npx vitest run test/store
 */
import { startThrowawayPostgres } from './pg-cluster.js';

const cluster = await startThrowawayPostgres();
process.stdout.write(`${cluster.url}\n`);
const shutdown = (): void => {
  void cluster.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
setInterval(() => undefined, 1 << 30);
