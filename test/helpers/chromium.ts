/**
 * A headless Chromium for browser tests: `$TRC_CHROMIUM`, else the first of the usual binaries on
 * PATH, else (as root, like the PostgreSQL setup) `apt-get install chromium-headless-shell`.
 */
import { execFileSync, spawnSync } from 'node:child_process';

const NAMES = ['chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome'];

function onPath(): string | null {
  for (const name of NAMES) {
    const found = spawnSync('which', [name], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim();
  }
  return null;
}

/** Path of a headless-capable Chromium, installing one when possible; throws with advice otherwise. */
export function chromiumBinary(): string {
  const chosen = process.env['TRC_CHROMIUM'] ?? onPath();
  if (chosen !== null && chosen !== '') return chosen;
  if (process.getuid?.() !== 0) {
    throw new Error('no headless Chromium found and not root to install it: apt-get install chromium-headless-shell, or set TRC_CHROMIUM');
  }
  process.stderr.write('[chromium] not found; running apt-get install -y chromium-headless-shell...\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'chromium-headless-shell']]) {
    execFileSync('apt-get', args, { stdio: ['ignore', process.stderr, process.stderr], env });
  }
  const installed = onPath();
  if (installed === null) throw new Error('apt-get installed chromium-headless-shell but no binary was found on PATH');
  return installed;
}
