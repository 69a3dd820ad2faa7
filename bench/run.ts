/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process (so RSS figures are not
 * polluted by each other) and prints their tables. `npm run bench -- budget` runs only files
 * whose name contains "budget".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filter === undefined || f.includes(filter))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', dir + file], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (failed > 0) {
  console.error(`\n${failed} benchmark file(s) failed`);
  process.exit(1);
}
