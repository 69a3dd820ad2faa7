/**
 * `trc inspect [--store PATH] [--port N] [--host H]`: the web inspector over the audit store.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startInspector } from '../../inspector/index.js';
import { parseFlags } from '../flags.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';

const HELP = `trc inspect — browse recorded tool calls in a web page

Usage: trc inspect [--store PATH] [--port N] [--host H]

Serves a read-only page over the audit store that "trc gateway", the executor and
"trc demo" write: every call with its status, tool, duration and flags (error codes,
instruction-like text found in results), and per call the four-layer diagnosis
(as "trc diagnose"), a fresh contract validation of the recorded envelope, the
untrusted texts with what the detector found, and the whole audit record.

It binds to loopback only and prints a URL carrying a random access token in its
fragment (#token=…): open that exact URL. Requests without the token, or with a
non-loopback Host header, are refused. Records are shown as text, never as HTML.
Stop with Ctrl-C.

Options:
  --store PATH   SQLite store (default $TRC_STORE, else ./.trc/trc.sqlite)
  --port N       port to listen on (default: any free port)
  --host H       127.0.0.1 (default), localhost or ::1
  -h, --help     show this help

Exit codes: 0 stopped with Ctrl-C/SIGTERM, 2 usage error, no store, or port in use.`;

async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags({
    args: [...argv],
    options: { store: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs a port number (0–65535), got "${values.port}"`);
  const chosen = values.store ?? io.env['TRC_STORE'] ?? '.trc/trc.sqlite';
  const path = resolve(io.cwd, chosen);
  if (!existsSync(path)) {
    println(io.stderr, `trc inspect: no store at ${path} (use --store PATH or TRC_STORE; "trc demo" writes one)`);
    return 2;
  }
  const { openSqliteStore } = await import('../../store/sqlite/index.js');
  const store = await openSqliteStore({ path });
  try {
    const inspector = await startInspector({ store, port, ...(values.host === undefined ? {} : { host: values.host }) });
    println(io.stdout, `trc inspector for ${path}\nopen ${inspector.url}\n(Ctrl-C to stop)`);
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await inspector.close();
    return 0;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'INSPECTOR_NOT_LOOPBACK') {
      println(io.stderr, `trc inspect: ${e.message}`);
      return 2;
    }
    throw error;
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** The `trc inspect` command. */
export const command: Command = { name: 'inspect', summary: 'browse recorded calls in a local web page (read-only)', help: HELP, run };
