/**
 * `trc demo [--store PATH] [--json] [--fresh]`: the scripted agent session of `src/demo`.
 */
import { DEMO_STORE_FILE, renderText, runDemo } from '../../demo/index.js';
import { parseFlags } from '../flags.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';

const HELP = `trc demo — a scripted agent session through the contract (no LLM, no network)

Usage: trc demo [--store PATH] [--json] [--fresh]

Plays the tool calls an agent would make against a small shop and prints, for each
step, the call, what the model would read (the text the executor's presentation stage
builds — never the raw data) and a one-line verdict:

  1  order lookup in an SQLite table: record evidence (table, primary key, columns),
     observed_at ≠ retrieved_at, the staff-only note never reaches the model
  2  a 10,000-row catalogue fitted to the budget (partial, exact counts, a summary
     labelled as such, the raw result stored behind a handle), then the next page
     read with the cursor
  3  a web page carrying a prompt injection: isolated as untrusted content and flagged;
     the e-mail it asks for is held by the call policy (tainted argument + content id)
  4  a payment whose response is lost after the charge committed: reconciled through
     the idempotency key to "succeeded", a retry replays it, and the payments table
     holds exactly one charge
  5  parallel calls (callAll) where the carrier API answers 503: one envelope per call
     id, the failure classified as retryable with an action
  6  two warehouses that disagree (10 vs 0): an unresolved conflict, and a total only
     under a declared calculation
  7  an answer checked claim by claim: the shipping time is supported, "20 items in
     total" is overreach

It ends with a summary table and the commands to inspect the audit, which stays in
the store. Everything is real: SQLite databases, a local HTTP service, the SQLite store.

Options:
  --store PATH   the trc store (audit, idempotency ledger, stored results);
                 default ${DEMO_STORE_FILE} in the user data directory (see "trc --help";
                 never the working directory). The demo's business database sits beside
                 it (demo.sqlite → demo.world.sqlite). A directory holds both files.
  --fresh        delete both databases first (otherwise a run adds to them; every run
                 uses new call ids and idempotency keys)
  --json         print the transcript as one JSON object (steps, calls, envelopes,
                 model texts, verdicts, facts) instead of text
  -h, --help     show this help

Examples:
  trc demo --fresh
  trc demo --json | jq '.steps[] | {step, ok, verdict}'
  trc demo --store .trc/demo.sqlite     # a project-local store, when you want one

Exit codes: 0 every step behaved as expected, 1 a step did not, 2 usage or I/O error.`;

async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseFlags({
    args: [...argv],
    options: { store: { type: 'string' }, json: { type: 'boolean' }, fresh: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.store === '') throw new UsageError('--store needs a path');
  const transcript = await runDemo({ cwd: io.cwd, env: io.env, fresh: values.fresh === true, ...(values.store === undefined ? {} : { store: values.store }) });
  if (values.json === true) {
    println(io.stdout, JSON.stringify(transcript, null, 2));
  } else {
    const tty = (io.stdout as { isTTY?: boolean }).isTTY === true;
    const noColor = io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '';
    io.stdout.write(renderText(transcript, { color: tty && !noColor }));
  }
  return transcript.ok ? 0 : 1;
}

/** The `demo` command. */
export const command: Command = { name: 'demo', summary: 'run a scripted agent session on the SQLite default (no LLM)', help: HELP, run };
