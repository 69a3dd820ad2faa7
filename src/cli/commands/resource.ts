/**
 * `trc resource get HANDLE --principal P`: print a stored raw result, re-authorized.
 */
import { once } from 'node:events';
import { openResource } from '../../budget/index.js';
import { type Command, UsageError } from '../io.js';
import { parseFlags } from '../flags.js';
import { openExistingStore, storePath } from '../store.js';

const HELP = `Usage: trc resource get HANDLE --principal P [--store PATH]

Print the full raw result that "trc fit" (or the library's fit/fitStream) stored when it had
to trim a tool result. HANDLE is the trc://resource/<handle> URI from the envelope's
resources[] (or the bare handle). The bytes are written to stdout exactly as stored.

Handles are re-authorized on every read: the principal must be the one the result was stored
for, and the handle must not have expired. Failures name a stable code:
  HANDLE_UNKNOWN           no such handle (or its resource is gone)
  HANDLE_EXPIRED           the handle or its resource expired
  HANDLE_WRONG_PRINCIPAL   the handle belongs to another principal
  HANDLE_WRONG_KIND        the handle is a list cursor, not a resource handle

Options:
  --principal P    who is reading (required; default $TRC_PRINCIPAL)
  --store PATH     SQLite store (default $TRC_STORE, else trc.sqlite in the user
                   data directory: see "trc --help")
  -h, --help       show this help

Exit codes: 0 printed, 2 usage error, refused handle or missing store.

Example:
  trc resource get trc://resource/3q2-7wAAAAAAAAAAAAAAAA --principal alice > raw.json`;

/** `trc resource`. */
export const command: Command = {
  name: 'resource',
  summary: 'read a stored raw result by its handle (re-authorized)',
  help: HELP,
  async run(argv, io) {
    const parsed = parseFlags({
        args: [...argv],
        options: { principal: { type: 'string' }, store: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      });
    const [action, handle, ...extra] = parsed.positionals;
    if (action !== 'get') throw new UsageError(action === undefined ? 'missing action: trc resource get HANDLE' : `unknown action "${action}" (only "get")`);
    if (handle === undefined || extra.length > 0) throw new UsageError('expected exactly one HANDLE');
    const principal = parsed.values.principal ?? io.env['TRC_PRINCIPAL'];
    if (principal === undefined || principal === '') throw new UsageError('--principal is required');
    const store = await openExistingStore(storePath(parsed.values.store, io), io.env);
    try {
      const { chunks } = await openResource(store, handle, { kind: 'resource', principal });
      for await (const chunk of chunks) {
        if (!io.stdout.write(chunk)) await once(io.stdout, 'drain');
      }
      return 0;
    } finally {
      await store.close();
    }
  },
};
