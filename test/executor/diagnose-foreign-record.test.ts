/**
 * A record this version did not write (another version, another program, an edit by hand) can
 * hold anything in its detail. Diagnosing it must say which fields it cannot read, by JSON
 * Pointer, and judge the rest: it was an internal error in `trc diagnose` and a 500 for that
 * call in the inspector. Real SQLite, edited with better-sqlite3 like a person would.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createExecutor, diagnose } from '../../src/executor/index.js';
import { startInspector } from '../../src/inspector/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';
import { readTool } from './helpers/tools.js';

/** The detail fields edited, each in a call of its own, and the pointer diagnose must name. */
const EDITS: readonly [string, (d: Record<string, any>) => void, string, string][] = [
  ['e_findings', (d) => { d.call.args_valid = false; d.call.args_findings = null; }, 'call', '/detail/call/args_findings'],
  ['e_timings', (d) => { d.execution.timings_ms = 'x'; }, 'execution', '/detail/execution/timings_ms'],
  ['e_key', (d) => { d.execution.idempotency_key = 'k'; d.execution.effect_position = null; }, 'execution', '/detail/execution/effect_position'],
  ['e_contract', (d) => { d.contract.findings = null; }, 'contract', '/detail/contract/findings'],
  ['e_hazards', (d) => { d.model = { hazards: 'x' }; }, 'model', '/detail/model/hazards'],
  ['e_untrusted', (d) => { d.envelope.untrusted_content = [null, 5]; }, 'model', '/detail/envelope/untrusted_content'],
  ['e_notes', (d) => { d.notes.execution = 7; }, 'execution', '/detail/notes/execution'],
];

describe('diagnosing a record this version did not write', () => {
  it('names the fields it cannot read and judges the other layers, in diagnose, trc diagnose and the inspector', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-foreign-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const executor = createExecutor({ tools: [readTool((a) => ({ data: { id: a.id, status: 'shipped' } }))], store });
    for (const [id] of EDITS) await executor.call({ call_id: id, tool_name: 'order_get', args: { id: 'o1' } }, { id: 'u' });
    await store.close();
    const db = new Database(path);
    for (const [id, edit] of EDITS) {
      const record = JSON.parse(db.prepare('SELECT record FROM audit WHERE call_id = ?').pluck().get(id) as string) as { detail: Record<string, any> };
      edit(record.detail);
      db.prepare('UPDATE audit SET record = ? WHERE call_id = ?').run(JSON.stringify(record), id);
    }
    db.close();

    const reopened = await openSqliteStore({ path });
    const inspector = await startInspector({ store: reopened, port: 0 });
    try {
      for (const [id, , layer, pointer] of EDITS) {
        const d = await diagnose(id, reopened);
        expect(d?.layers.find((l) => l.layer === layer), id).toMatchObject({ verdict: 'not_checked', findings: [expect.stringContaining(pointer)] });
        expect(d?.record_problems.join('\n'), id).toContain(pointer);
        // The other layers are still judged.
        expect(d?.layers.filter((l) => l.layer !== layer && l.verdict === 'ok').length, id).toBeGreaterThan(0);
        const res = await fetch(`http://127.0.0.1:${inspector.port}/api/calls/${id}`, { headers: { authorization: `Bearer ${inspector.token}` } });
        expect(res.status, id).toBe(200);
        expect(JSON.stringify(((await res.json()) as { diagnosis: unknown }).diagnosis), id).toContain(pointer);
      }
    } finally {
      await inspector.close();
      await reopened.close();
    }
    const cli = await runCli(['diagnose', 'e_timings', '--store', path]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).not.toContain('internal error');
    expect(cli.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^trc diagnose: the record of call "e_timings" is not in the shape this version writes \(\/detail\/execution\/timings_ms is not a list of numbers/)]);
    expect(cli.stdout).toContain('execution  not checked');
  });
});
