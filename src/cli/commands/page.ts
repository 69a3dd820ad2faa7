/**
 * `trc page CURSOR --principal P`: the next page of a list that `trc fit` cut, re-authorized.
 */
import { page } from '../../budget/index.js';
import { type Command, UsageError, println } from '../io.js';
import { parseFlags } from '../flags.js';
import { openExistingStore, storePath } from '../store.js';
import { report } from './fit.js';

const HELP = `Usage: trc page CURSOR --principal P [--page-size N] [--store PATH] [--json]

Print the next page of a list that "trc fit" (or the library's fit/fitStream) had to cut.
CURSOR is the value of completeness.next in the fitted envelope ("next cursor: …" in the
report). The page is a new envelope over the stored raw result: its items, exact counts
(returned_items, available_items from this page on) and, while items are left, the cursor
of the page after it. The last page is "succeeded" and complete.

Cursors are re-authorized on every use, like "trc resource get": the principal must be the
one the list was stored for, and the cursor must not have expired. Failures name a stable
code:
  HANDLE_UNKNOWN           no such cursor (or its stored result is gone)
  HANDLE_EXPIRED           the cursor or its stored result expired
  HANDLE_WRONG_PRINCIPAL   the cursor belongs to another principal
  HANDLE_WRONG_KIND        the value is a resource handle, not a list cursor

Options:
  --principal P    who is reading (required; default $TRC_PRINCIPAL)
  --page-size N    items per page (default 100)
  --store PATH     SQLite store (default $TRC_STORE, else trc.sqlite in the user
                   data directory: see "trc --help")
  --json           print the page envelope as JSON instead of a readable report
  -h, --help       show this help

Exit codes: 0 printed, 2 usage error, refused cursor or missing store.

Examples:
  trc fit rows.json --max-items 20 --principal alice
  trc page 3q2-7wAAAAAAAAAAAAAAAA --principal alice --page-size 50 --json`;

/** `trc page`. */
export const command: Command = {
  name: 'page',
  summary: 'read the next page of a fitted list by its cursor (re-authorized)',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags({
      args: [...argv],
      options: { principal: { type: 'string' }, 'page-size': { type: 'string' }, store: { type: 'string' }, json: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
    const [cursor, ...extra] = positionals;
    if (cursor === undefined || cursor === '' || extra.length > 0) throw new UsageError('expected exactly one CURSOR');
    const principal = values.principal ?? io.env['TRC_PRINCIPAL'];
    if (principal === undefined || principal === '') throw new UsageError('--principal is required');
    const sizeText = values['page-size'];
    const pageSize = sizeText === undefined ? undefined : /^\d+$/u.test(sizeText) ? Number(sizeText) : NaN;
    if (pageSize !== undefined && (!Number.isSafeInteger(pageSize) || pageSize < 1)) throw new UsageError(`--page-size needs a positive integer, got "${sizeText}"`);
    const store = await openExistingStore(storePath(values.store, io), io.env);
    try {
      const env = await page(cursor, principal, { store, ...(pageSize === undefined ? {} : { pageSize }) });
      println(io.stdout, values.json ? JSON.stringify(env, null, 2) : report(env, principal));
      return 0;
    } finally {
      await store.close();
    }
  },
};
