import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A throwaway PostgreSQL cluster for the store suite (or TRC_PG_URL when set).
    globalSetup: ['test/store/pg-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default leaves a core free (cores - 1: one file at a time
    // on a 2-core CI machine), but most suites here wait on child processes, sockets and
    // databases rather than compute: on 2 cores the whole suite took 928 s one file at a time and
    // 658 s two at a time, every test passing.
    maxWorkers: Math.max(2, availableParallelism()),
    // CI must not pass with skipped tests (.ci/run also checks the report).
    allowOnly: !process.env.CI,
  },
});
