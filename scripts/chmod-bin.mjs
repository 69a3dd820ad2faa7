// tsc does not keep the executable bit; npm links `bin` but a direct `./dist/cli/bin.js` call needs it.
import { chmodSync, existsSync } from 'node:fs';
const bin = new URL('../dist/cli/bin.js', import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
