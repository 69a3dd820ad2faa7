/**
 * What a record holds was chosen by callers: a model names the tool it calls (and text it read
 * can steer that name), a client picks call ids, a token names the principal. `trc audit`,
 * `trc diagnose` and `trc reconcile --list` printed them raw, so an escape sequence in a tool
 * name reached the operator's terminal: it could clear the screen, retitle the window, or go
 * back up a line and print a forged one. They are printed as visible escapes. Real SQLite.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/executor/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';

const TOOL = 'evil\u001b]0;pwned\u0007\u001b[1A\rsucceeded  fake\u202e';
const CALL = 'c_\u001b[2J\u001b[31mX';
// Anything a terminal would act on: C0 (but the newlines between lines), DEL, C1, bidi overrides.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe('records printed on a terminal', () => {
  it('show a caller-chosen tool name, call id and principal as text, never as terminal controls', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-controls-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const executor = createExecutor({ tools: [], store });
    const env = await executor.call({ call_id: CALL, tool_name: TOOL, args: {} }, { id: 'u\u001b[32m' });
    expect(env.error?.code).toBe('UNKNOWN_TOOL');
    await store.ledgerBegin({ key: 'k\u001b[2J', tool: TOOL, principal: 'u', argsDigest: 'sha256:' + '0'.repeat(64), callId: CALL, now: new Date().toISOString() });
    await store.close();

    for (const args of [['audit'], ['diagnose', CALL], ['reconcile', '--list']]) {
      const r = await runCli([...args, '--store', path]);
      expect(r.stdout, args[0]).not.toMatch(CONTROL);
      expect(r.stderr, args[0]).not.toMatch(CONTROL);
      expect(r.stdout, args[0]).toContain('evil\\u{1b}]0;pwned\\u{7}\\u{1b}[1A\\u{d}succeeded  fake\\u{202e}');
    }
    const missing = await runCli(['diagnose', 'nope\u001b[2J', '--store', path]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('"nope\\u{1b}[2J"');
  });
});
