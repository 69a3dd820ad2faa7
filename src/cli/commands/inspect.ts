/**
 * `trc inspect [--store PATH] [--port N] [--host H]`: the web inspector over the audit store.
 */
import { defaultDemoStore } from '../../demo/paths.js';
import { startInspector } from '../../inspector/index.js';
import { parseFlags } from '../flags.js';
import { describeListenError, parseHost } from '../host.js';
import { InputError } from '../input.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { openExistingStore, storePath } from '../store.js';
import { describeStoreLocation } from '../../gateway/open-store.js';

const HELP = `trc inspect — browse recorded tool calls in a web page

Usage: trc inspect [--store PATH] [--port N] [--host H]

Serves a read-only page over the audit store that "trc gateway", the executor and
"trc demo" write: every call with its status, tool, principal, duration and flags
(error codes, instruction-like text found in results), newest first, grouped by
session, run or principal if asked; and per call its arguments (secrets masked
before they were recorded), what the model saw (the model text, or for a gateway
call the MCP result the client got, block for block), the untrusted texts with
what the detector found, the four-layer diagnosis (as "trc diagnose"), a fresh
contract validation of the recorded envelope and the whole audit record.

New calls appear as they are recorded (a live tail over Server-Sent Events,
GET /api/events). The filters (status, tool, principal, run, session, since,
until, limit, grouping) and the open call live in the page's query string, so a
reload, back and forward, or a shared link keep them: for example
  http://127.0.0.1:PORT/?status=failed&group=session#token=…

It binds to loopback only and prints a URL carrying a random access token in its
fragment (#token=…): open that exact URL. Requests without the token, or with a
non-loopback Host header, are refused. Records are shown as text, never as HTML,
under a Content-Security-Policy that runs only the page's own script.
Stop with Ctrl-C (open live streams are ended first).

Options:
  --store PATH   SQLite store (default $TRC_STORE, else trc.sqlite in the user
                 data directory: see "trc --help")
  --port N       port to listen on (default: any free port)
  --host H       127.0.0.1 (default), localhost, ::1 or [::1]

  -h, --help     show this help

"trc demo" writes its calls to demo.sqlite in the user data directory (beside the
default store) and prints the "trc inspect --store …" line that opens them.

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
  if (!/^\d+$/u.test(values.port ?? '0') || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs a port number (0–65535), got "${values.port}"`);
  const host = values.host === undefined ? undefined : parseHost(values.host);
  const path = storePath(values.store, io);
  let store;
  try {
    store = await openExistingStore(path, io.env);
  } catch (error) {
    if (error instanceof InputError && values.store === undefined) {
      const demo = defaultDemoStore(io.env);
      throw new InputError(`${error.message}; "trc demo" writes its calls to ${demo}: trc inspect --store ${demo}`);
    }
    throw error;
  }
  try {
    const inspector = await startInspector({ store, port, ...(host === undefined ? {} : { host }) });
    // Listen for the signals before saying where to connect: whoever reads the URL may stop us at once.
    const stopped = new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    println(io.stdout, `trc inspector for ${describeStoreLocation(path)}\nopen ${inspector.url}\n(Ctrl-C to stop)`);
    await stopped;
    await inspector.close();
    return 0;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const listen = describeListenError(error, host ?? '127.0.0.1', port);
    if (listen !== null || e.code === 'INSPECTOR_NOT_LOOPBACK') {
      println(io.stderr, `trc inspect: ${listen ?? e.message}`);
      return 2;
    }
    throw error;
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** The `trc inspect` command. */
export const command: Command = { name: 'inspect', summary: 'browse recorded calls in a local web page (read-only)', help: HELP, run };
