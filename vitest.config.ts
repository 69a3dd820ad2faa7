import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI must not pass with skipped tests (.ci/run also checks the report).
    allowOnly: !process.env.CI,
  },
});
