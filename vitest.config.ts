import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A throwaway PostgreSQL cluster for the store suite (or TRC_PG_URL when set).
    globalSetup: ['test/store/pg-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI must not pass with skipped tests (.ci/run also checks the report).
    allowOnly: !process.env.CI,
  },
});
