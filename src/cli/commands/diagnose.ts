/**
 * `trc diagnose CALL_ID`: walk the four layers of one recorded call (SPEC D1) and say which failed.
 */
import { diagnose } from '../../executor/index.js';
import { type Command, UsageError, println } from '../io.js';
import { parseFlags } from '../flags.js';
import { openExistingStore, storePath } from '../store.js';
import { describeStoreLocation } from '../../gateway/open-store.js';
import { printable } from '../terminal-text.js';

const HELP = `trc diagnose — which layer of a tool call went wrong

Usage: trc diagnose CALL_ID [--store PATH] [--json]

Reads the audit record the executor wrote for CALL_ID and walks the four layers
of a wrong answer, in order:
  call       the tool exists, the arguments match its schema, the call was authorized
  execution  attempts and timings, timeout point, classification, idempotency key, and
             where the side effect stands (not sent / sent, not executed / executed but
             the response was lost / confirmed), plus later reconciliations
  contract   the envelope validated (status vs data, completeness, digests) or was replaced
  model      what the model could misread in this result (partial read as whole, unknown
             called failed, instruction-like external text, unresolved conflicts)
and names the first layer that failed (or is unresolved, e.g. a write awaiting
reconciliation). The model layer cannot be judged from the record alone; check an
answer's claims with \`trc cite\`.

Options:
  --store PATH   SQLite store (default $TRC_STORE, else trc.sqlite in the user
                 data directory: see "trc --help")
  --json         print the diagnosis as JSON

Exit codes: 0 no layer failed, 1 a layer failed or is unresolved, 2 unknown call id,
usage or I/O error, or a record not in the shape this version writes (its layers are
"not checked", naming the JSON Pointer of each field that is not; stderr says so).

Example:
  trc diagnose call_7 --store ./.trc/trc.sqlite`;

const MARK: Record<string, string> = { ok: 'ok', failed: 'FAILED', unresolved: 'UNRESOLVED', at_risk: 'at risk', not_checked: 'not checked' };

export const command: Command = {
  name: 'diagnose',
  summary: 'walk the four layers of one recorded call and say which failed',
  help: HELP,
  async run(argv, io) {
    const parsed = parseFlags({ args: [...argv], options: { store: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const [callId, ...extra] = parsed.positionals;
    if (callId === undefined || extra.length > 0) throw new UsageError('expected exactly one CALL_ID');
    const path = storePath(parsed.values.store, io);
    const store = await openExistingStore(path, io.env);
    try {
      const d = await diagnose(callId, store);
      if (d === null) {
        println(io.stderr, `trc diagnose: no audit record for call "${printable(callId)}" in ${describeStoreLocation(path)}`);
        return 2;
      }
      if (parsed.values.json === true) {
        println(io.stdout, JSON.stringify(d, null, 2));
      } else {
        // What the record says was chosen by callers (a model's tool name, an upstream's words
        // in a note): printed inert, never as terminal controls.
        println(io.stdout, printable(`call ${d.call_id}  tool ${d.tool}  status ${d.status}`));
        for (const l of d.layers) {
          println(io.stdout, `\n${l.layer.padEnd(9)}  ${MARK[l.verdict] ?? l.verdict}`);
          for (const f of l.findings) println(io.stdout, `  - ${printable(f)}`);
        }
        for (const r of d.reconciliations) println(io.stdout, `\nlater reconciliation ${printable(r.call_id)}: ${printable(r.status)}`);
        for (const r of d.repeats) println(io.stdout, `\nlater run of the same call id ${printable(r.call_id)}: ${printable(r.status)}`);
        println(io.stdout, d.failed_layer === null ? '\nno layer failed' : `\nfailed layer: ${d.failed_layer}`);
      }
      // A record this version cannot read in part is no clean bill of health: say so, exit 2.
      if (d.record_problems.length > 0) {
        println(io.stderr, `trc diagnose: the record of call "${printable(callId)}" is not in the shape this version writes (${printable(d.record_problems.join('; '))}); those layers were not checked`);
        return d.failed_layer === null ? 2 : 1;
      }
      return d.failed_layer === null ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};
