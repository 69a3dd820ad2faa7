/**
 * `trc sweep [--audit-before WHEN] [--store PATH] [--json]`: delete expired handles and stored
 * results, and (when asked) the audit records of calls older than WHEN.
 */
import { AUDIT_PRUNE_BATCH, pruneAuditBefore } from '../../store/index.js';
import { parseFlags } from '../flags.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { openExistingStore, storePath } from '../store.js';
import { parseSince } from './audit.js';
import { describeStoreLocation } from '../../gateway/open-store.js';

const HELP = `trc sweep — delete expired handles and stored results (and old audit records)

Usage: trc sweep [--audit-before WHEN] [--store PATH] [--json]

Results larger than their budget are stored whole behind a handle that expires (by default
after 24 hours). Reads already refuse an expired handle; this command reclaims the space:
it deletes every handle and every stored result whose expiry has passed. Results stored
without an expiry, resources still being written, the idempotency ledger, the audit trail
and workflow state are kept. "trc gateway" sweeps its store by itself every 10 minutes.

The audit trail is kept until you say otherwise: every call adds a record with its envelope
(about 4 KB for a short result). --audit-before deletes the records of calls started before
WHEN, oldest first, in batches of ${AUDIT_PRUNE_BATCH.toLocaleString('en-US')} (one short transaction each, so a gateway writing
to the same store is not held up); export what you must keep first ("trc audit --json").
SQLite reuses the freed pages; the file itself does not shrink (VACUUM does that). A gateway
configured with "audit_retention_days: N" does this by itself for records older than N days.

Options:
  --audit-before WHEN  also delete the audit records of calls started before WHEN: an
                 RFC 3339 time with its offset (2026-05-01T10:00:00Z), a date (2026-05-01,
                 UTC midnight), or a duration back from now (90d)
  --store PATH   SQLite store (default $TRC_STORE, else trc.sqlite in the user
                 data directory: see "trc --help")
  --json         print {"handles": N, "resources": N} (and "audit": N)
  -h, --help     show this help

Examples:
  trc sweep
  trc sweep --audit-before 90d
  trc audit --until 2026-01-01 --limit 1000000 --json > old-audit.jsonl &&
    trc sweep --audit-before 2026-01-01

Exit codes: 0 swept (also when nothing had expired), 2 usage error or no store.`;

async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags({ args: [...argv], options: { store: { type: 'string' }, json: { type: 'boolean' }, 'audit-before': { type: 'string' } }, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const before = values['audit-before'] === undefined ? undefined : parseSince(values['audit-before'], new Date(), '--audit-before');
  const path = storePath(values.store, io);
  const store = await openExistingStore(path, io.env);
  try {
    const swept = await store.sweepExpired(new Date().toISOString());
    let audit: number | undefined;
    if (before !== undefined) {
      const deleted = await pruneAuditBefore(store, before, (n) => println(io.stderr, `trc sweep: ${n} audit record(s) deleted so far…`));
      if (deleted === null) throw new UsageError(`the store at ${describeStoreLocation(path)} cannot delete audit records`);
      audit = deleted;
    }
    const text = `deleted ${swept.handles} expired handle(s) and ${swept.resources} expired stored result(s)` +
      (audit === undefined ? '' : `, and ${audit} audit record(s) of calls started before ${before ?? ''}`) + ` from ${describeStoreLocation(path)}`;
    println(io.stdout, values.json === true ? JSON.stringify(audit === undefined ? swept : { ...swept, audit }) : text);
    return 0;
  } finally {
    await store.close();
  }
}

/** The `trc sweep` command. */
export const command: Command = { name: 'sweep', summary: 'delete expired handles and stored results from the store', help: HELP, run };
