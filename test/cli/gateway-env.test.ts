/**
 * The gateway's deployment variables are checked before anything starts: an instance id that
 * could not prefix session ids (load-balancer routing) or lease owners is refused, not dropped.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const upstream = ['--', process.execPath, fileURLToPath(new URL('../gateway/fixtures/faulty-server.mjs', import.meta.url))];

describe('trc gateway deployment variables', () => {
  it.each(['gw.1', 'a/b', 'x y', 'a'.repeat(65)])('refuses TRC_INSTANCE_ID %j with exit 2', async (id) => {
    const r = await runCli(['gateway', '--http', '0', ...upstream], { env: { TRC_INSTANCE_ID: id } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/TRC_INSTANCE_ID may hold letters, digits, - and _/u);
  });

  it('refuses a lease that is not a whole number of milliseconds', async () => {
    const r = await runCli(['gateway', '--http', '0', ...upstream], { env: { TRC_LEASE_MS: '2.5' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/TRC_LEASE_MS needs an integer/u);
  });
});
