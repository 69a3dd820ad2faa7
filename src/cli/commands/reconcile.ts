/**
 * `trc reconcile`: settle side-effecting calls left `in_flight` (the executor stopped mid-call) or
 * `unknown` (the response was lost), by looking each idempotency key up with its tool's
 * `reconcile(key)`. Never re-sends a write.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createExecutor, type AnyTool, type ReconcileReport } from '../../executor/index.js';
import type { LedgerEntry } from '../../store/types.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { printable } from '../terminal-text.js';
import { parseFlags } from '../flags.js';
import { describeFileError } from '../input.js';
import { openExistingStore, storePath } from '../store.js';

const HELP = `trc reconcile — settle side-effecting calls whose outcome is not confirmed

Usage: trc reconcile --tools MODULE [--store PATH] [--in-flight-only] [--json]
       trc reconcile --list [--store PATH] [--json]

A write whose response was lost (timeout, reset, crash) is recorded in the ledger as
"in_flight" (the process died mid-call) or "unknown" (the executor gave up waiting).
This command looks every such idempotency key up in the downstream system with the
tool's own reconcile(key) and records what it finds:
  found            → the entry becomes "succeeded" with side_effect.occurred and the external id
  confirmed absent → stays "unknown" (a late request may still land; a retry needs the
                     original arguments, so the agent must call again with the same key)
  cannot tell      → stays "unknown" with a reconciliation block
It never re-sends a write.

Options:
  --tools MODULE     an ES module exporting \`tools\`: an array of defineTool() results with
                     reconcile(key). Resolved from the working directory. Built JavaScript,
                     or TypeScript when trc runs under tsx.
  --store PATH       SQLite store (default $TRC_STORE, else trc.sqlite in the user
                     data directory: see "trc --help")
  --in-flight-only   only entries left in flight by a crash (what executor.recoverInFlight() does)
  --list             only list pending entries; needs no tools
  --json             print the reports as JSON

Exit codes: 0 nothing left pending, 1 entries remain unknown (or are listed), 2 usage or I/O error.

Examples:
  trc reconcile --tools ./dist/tools.js
  trc reconcile --list --store ./.trc/trc.sqlite --json`;

/** Load `tools` from a user module. */
async function loadTools(spec: string, io: CliIO): Promise<AnyTool[]> {
  const path = resolve(io.cwd, spec);
  if (!existsSync(path)) throw new UsageError(`--tools: ${describeFileError(spec, Object.assign(new Error(''), { code: 'ENOENT' }))}`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new UsageError(`--tools: cannot load ${path}: ${(cause as Error).message}`);
  }
  const tools = mod['tools'];
  if (!Array.isArray(tools)) throw new UsageError(`--tools: ${spec} must export \`tools\`, an array of defineTool() results`);
  // Checked here, each by its pointer: an object that only looked like a tool (a name, no
  // compiled rules) reached the lookup and ended the run as an internal error with a stack trace.
  tools.forEach((t: unknown, i) => {
    const problem = notADefinedTool(t);
    if (problem !== null) throw new UsageError(`--tools: ${spec}: /tools/${i} ${problem}; export the results of defineTool()`);
  });
  return tools as AnyTool[];
}

/** Why `t` is not what defineTool() returns (as far as reconciling reads it), or null. */
function notADefinedTool(t: unknown): string | null {
  if (typeof t !== 'object' || t === null) return 'is not an object';
  const tool = t as { name?: unknown; rules?: unknown; reconcile?: unknown; run?: unknown };
  if (typeof tool.name !== 'string') return 'has no name';
  const rules = tool.rules as { name?: unknown; timeoutMs?: unknown } | null | undefined;
  if (typeof rules !== 'object' || rules === null || rules.name !== tool.name || typeof rules.timeoutMs !== 'number') return `("${tool.name}") is not a defineTool() result: it has no compiled rules`;
  if (tool.reconcile !== undefined && typeof tool.reconcile !== 'function') return `("${tool.name}") has a reconcile that is not a function`;
  return null;
}

function printEntries(io: CliIO, entries: readonly LedgerEntry[]): void {
  if (entries.length === 0) {
    println(io.stdout, 'nothing pending');
    return;
  }
  for (const e of entries) println(io.stdout, printable(`${e.state.padEnd(9)}  ${e.tool}  key ${e.key}  call ${e.callId}  attempts ${e.attempts}  since ${e.updatedAt}`));
}

function printReports(io: CliIO, reports: readonly ReconcileReport[]): void {
  if (reports.length === 0) {
    println(io.stdout, 'nothing pending');
    return;
  }
  for (const r of reports) {
    const found = r.external_id === null ? '' : `  external_id ${r.external_id}`;
    println(io.stdout, printable(`${r.before} → ${r.after}  ${r.result}  ${r.tool}  key ${r.key}  call ${r.callId}${found}`));
  }
  const left = reports.filter((r) => r.after !== 'succeeded').length;
  println(io.stdout, `${reports.length - left} confirmed, ${left} still need reconciliation`);
}

export const command: Command = {
  name: 'reconcile',
  summary: 'reconcile side-effecting calls left in flight or unknown',
  help: HELP,
  async run(argv, io) {
    const parsed = parseFlags({
        args: [...argv],
        options: { tools: { type: 'string' }, store: { type: 'string' }, 'in-flight-only': { type: 'boolean' }, list: { type: 'boolean' }, json: { type: 'boolean' } },
        allowPositionals: false,
        strict: true,
      });
    const v = parsed.values;
    if (v.list !== true && v.tools === undefined) throw new UsageError('--tools MODULE is required to reconcile (or use --list)');
    const path = storePath(v.store, io);
    const tools = v.tools === undefined ? [] : await loadTools(v.tools, io);
    const store = await openExistingStore(path, io.env);
    try {
      if (v.list === true) {
        const entries = [...(await store.ledgerList({ state: 'in_flight' })), ...(v['in-flight-only'] === true ? [] : await store.ledgerList({ state: 'unknown' }))];
        if (v.json === true) println(io.stdout, JSON.stringify(entries.map(({ envelope: _e, ...rest }) => rest), null, 2));
        else printEntries(io, entries);
        return entries.length === 0 ? 0 : 1;
      }
      const executor = createExecutor({ tools, store });
      const reports = v['in-flight-only'] === true ? await executor.recoverInFlight() : await executor.reconcilePending();
      if (v.json === true) println(io.stdout, JSON.stringify(reports, null, 2));
      else printReports(io, reports);
      const missing = reports.filter((r) => r.result === 'tool_not_registered').map((r) => r.tool);
      if (missing.length > 0) println(io.stderr, `trc reconcile: no tool registered for ${[...new Set(missing)].join(', ')}; add it to the --tools module`);
      return reports.every((r) => r.after === 'succeeded') ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};
