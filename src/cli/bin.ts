#!/usr/bin/env node
// The `trc` executable: wire the real process to `main()`.
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  isTTY: Boolean(process.stderr.isTTY),
});
// exitCode rather than exit(): lets stdout drain. Long-running commands (gateway) resolve late.
process.exitCode = code;
