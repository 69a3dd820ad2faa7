/**
 * `trc sweep [--store PATH] [--json]`: delete expired handles and stored results.
 */
import { parseFlags } from '../flags.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { openExistingStore, storePath } from '../store.js';

const HELP = `trc sweep — delete expired handles and stored results

Usage: trc sweep [--store PATH] [--json]

Results larger than their budget are stored whole behind a handle that expires (by default
after an hour). Reads already refuse an expired handle; this command reclaims the space:
it deletes every handle and every stored result whose expiry has passed. Results stored
without an expiry, resources still being written, the idempotency ledger, the audit trail
and workflow state are kept. "trc gateway" sweeps its store by itself every 10 minutes.

Options:
  --store PATH   SQLite store (default $TRC_STORE, else trc.sqlite in the user
                 data directory: see "trc --help")
  --json         print {"handles": N, "resources": N}
  -h, --help     show this help

Exit codes: 0 swept (also when nothing had expired), 2 usage error or no store.`;

async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags({ args: [...argv], options: { store: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const path = storePath(values.store, io);
  const store = await openExistingStore(path);
  try {
    const swept = await store.sweepExpired(new Date().toISOString());
    println(io.stdout, values.json === true ? JSON.stringify(swept) : `deleted ${swept.handles} expired handle(s) and ${swept.resources} expired stored result(s) from ${path}`);
    return 0;
  } finally {
    await store.close();
  }
}

/** The `trc sweep` command. */
export const command: Command = { name: 'sweep', summary: 'delete expired handles and stored results from the store', help: HELP, run };
