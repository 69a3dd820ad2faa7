#!/usr/bin/env node
// The `trc` executable: wire the real process to `main()`.
import { main } from './main.js';

// node:sqlite (the store's driver without better-sqlite3) is flagged experimental on Node 22–24,
// and Node prints that on every start; an MCP host shows stderr as the server's log. Every
// other warning is printed as Node would.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /SQLite/u.test(warning.message)) return;
  process.stderr.write(`(node:${process.pid}) ${warning.name}: ${warning.message}\n`);
});

// A reader that stopped reading (`trc scan … | head -1`) is no error: stop quietly, as other
// Unix tools do. Not for the gateway, whose stdout is its client: it winds down by itself and
// stores what it still holds.
if (process.argv[2] !== 'gateway') {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

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
