/**
 * The packed-tarball checks (test/package/*.pack.ts): npm pack, install, strict tsc, README
 * paths, the global gateway. Needs the npm registry (or its cache) and Node 22+; `.ci/run`
 * runs it after `npm test`.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['test/package/**/*.pack.ts'], testTimeout: 300_000, hookTimeout: 600_000, pool: 'forks', allowOnly: !process.env['CI'] },
});
