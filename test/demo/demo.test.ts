import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import type { DemoStep, DemoTranscript } from '../../src/demo/index.js';
import { demoPaths, renderText } from '../../src/demo/index.js';
import { DEMO_TOOL_NAMES, demoTools } from '../../src/demo/tools.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-demo-'));
const storePath = join(dir, 'demo.sqlite');
const worldPath = join(dir, 'demo.world.sqlite');

let first: DemoTranscript;
let firstCode: number | null;

async function demoJson(args: string[]): Promise<{ code: number | null; t: DemoTranscript }> {
  const r = await runCli(['demo', '--store', storePath, '--json', ...args]);
  if (r.code !== 0) throw new Error(`trc demo exited ${String(r.code)}: ${r.stderr}\n${r.stdout.slice(0, 2000)}`);
  return { code: r.code, t: JSON.parse(r.stdout) as DemoTranscript };
}

const step = (t: DemoTranscript, n: number): DemoStep => {
  const s = t.steps.find((x) => x.step === n);
  if (s === undefined) throw new Error(`no step ${n}`);
  return s;
};
const env = (s: DemoStep, tool: string, i = 0): Envelope => {
  const c = s.calls.filter((x) => x.tool === tool)[i];
  if (c === undefined) throw new Error(`no call of ${tool} in step ${s.step}`);
  return c.envelope;
};

beforeAll(async () => {
  const r = await demoJson(['--fresh']);
  first = r.t;
  firstCode = r.code;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trc demo --json', () => {
  it('runs all seven steps, each behaving as expected, and exits 0', () => {
    expect(firstCode).toBe(0);
    expect(first.steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(first.steps.filter((s) => !s.ok).map((s) => s.verdict)).toEqual([]);
    expect(first.store_path).toBe(storePath);
    expect(first.world_path).toBe(worldPath);
  });

  it('reads the order from the SQLite table with record evidence and keeps the internal note out', () => {
    const s = step(first, 1);
    const e = env(s, 'order_get');
    expect(e.status).toBe('succeeded');
    expect(e.evidence?.[0]?.locator).toMatchObject({ table: 'orders', primary_key: 'ord_1001', columns: ['status', 'shipped_at'] });
    expect(e.provenance?.observed_at).toBe('2026-08-31T10:20:00Z');
    expect(e.provenance?.retrieved_at).not.toBe(e.provenance?.observed_at);
    expect(JSON.stringify(e)).not.toContain('possible reseller');
    const model = s.calls[0]?.model_sees ?? '';
    expect(model).toContain('"shipped_at": "2026-08-31T10:20:00Z"');
    expect(model).not.toContain('possible reseller');
    expect(model).not.toContain('mei@customer.example');
  });

  it('fits the 10,000-row list as partial with exact counts, a summary and a stored raw result', () => {
    const e = env(step(first, 2), 'items_list');
    expect(e.status).toBe('partial');
    expect(e.completeness?.state).toBe('truncated');
    expect(e.completeness?.available_items).toBe(10_000);
    const returned = e.completeness?.returned_items ?? 0;
    expect(returned).toBeGreaterThan(0);
    expect(returned).toBeLessThan(10_000);
    expect((e.data as { items: unknown[] }).items).toHaveLength(returned);
    expect(e.summary?.label).toBe('summary');
    expect(e.resources?.[0]?.uri).toMatch(/^trc:\/\/resource\//);
    expect(e.completeness?.next?.type).toBe('cursor');
  });

  it('pages with the cursor to the next slice with its own completeness', () => {
    const s = step(first, 2);
    const listed = env(s, 'items_list');
    const returned = listed.completeness?.returned_items ?? 0;
    const p = env(s, 'items_page');
    const ids = (p.data as { items: { id: number }[] }).items.map((i) => i.id);
    expect(ids[0]).toBe(returned + 1);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => returned + 1 + i));
    expect(p.status).toBe('partial');
    expect(p.completeness?.returned_items).toBe(ids.length);
    expect(p.completeness?.available_items).toBe(10_000 - returned);
    expect(p.completeness?.next?.value).not.toBe(listed.completeness?.next?.value);
  });

  it('isolates the injected page as instructional untrusted content and holds the e-mail it asked for', () => {
    const s = step(first, 3);
    const page = env(s, 'web_fetch');
    const flagged = (page.untrusted_content ?? []).filter((u) => u.instructional);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]?.text).toContain('Ignore previous instructions');
    // The page stays the observed data; the region covers it, and the model never reads the
    // injected line (it sees a reference, and the flagged text is withheld inside the boundary).
    expect(flagged[0]?.origin).toMatch(/^\/data/);
    expect(s.calls[0]?.model_sees).toContain('EXTERNAL_CONTENT');
    expect(s.calls[0]?.model_sees).not.toContain('Ignore previous instructions');
    const mail = env(s, 'email_send');
    expect(mail.status).toBe('needs_input');
    expect(mail.side_effect.occurred).toBe(false);
    expect(mail.error?.code).toBe('T3.tainted-argument');
    expect(mail.error?.message).toContain('/to');
    expect(mail.error?.message).toContain(flagged[0]?.content_id ?? 'missing');
  });

  it('reconciles the lost payment response to succeeded, replays the retry, and leaves exactly one charge', () => {
    const s = step(first, 4);
    const [charge, retry] = [env(s, 'payment_charge', 0), env(s, 'payment_charge', 1)];
    expect(charge.status).toBe('succeeded');
    expect(charge.side_effect.occurred).toBe(true);
    const key = charge.side_effect.idempotency_key;
    expect(typeof key).toBe('string');
    expect(retry.status).toBe('succeeded');
    expect(retry.side_effect.external_id).toBe(charge.side_effect.external_id);
    expect(retry.warnings.some((w) => typeof w !== 'string' && w.code === 'IDEMPOTENT_REPLAY')).toBe(true);
    const db = new Database(worldPath, { readonly: true });
    try {
      const rows = db.prepare('SELECT id FROM charges WHERE idempotency_key = ?').all(key) as { id: string }[];
      expect(rows).toEqual([{ id: charge.side_effect.external_id }]);
    } finally {
      db.close();
    }
  });

  it('returns one envelope per call id from callAll and classifies the carrier 503 as retryable', () => {
    const s = step(first, 5);
    expect(s.calls).toHaveLength(3);
    expect(new Set(s.calls.map((c) => c.envelope.call.call_id))).toEqual(new Set(s.facts['requested'] as string[]));
    const failedCalls = s.calls.filter((c) => c.status === 'failed');
    expect(failedCalls).toHaveLength(1);
    const error = failedCalls[0]?.envelope.error;
    expect(failedCalls[0]?.envelope.call.call_id).toMatch(/_ship_1002$/);
    expect(error).toMatchObject({ retryable: true, action: 'retry_later' });
    expect(error?.message).toContain('503');
  });

  it('keeps the warehouses disagreement as an unresolved conflict and totals only under a declared calculation', () => {
    const s = step(first, 6);
    const conflicts = s.facts['conflicts'] as { resolution: string; values: { value: unknown; source: string }[] }[];
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]?.resolution).toBe('unresolved');
    expect(conflicts[0]?.values.map((v) => [v.source, v.value])).toEqual([['inventory.warehouse_a', 10], ['inventory.warehouse_b', 0]]);
    expect(s.facts['aggregate_without_rule']).toBe('AGGREGATE_UNDECLARED');
    expect(s.facts['aggregate']).toMatchObject({ value: 10, calculation: { formula: 'sum(stock by warehouse)' } });
  });

  it('finds the shipping claim supported and the total claim overreach', () => {
    expect(step(first, 7).facts['verdicts']).toEqual(['supported', 'overreach']);
  });

  it('leaves an audit record for every call in the trc store', async () => {
    const store = await openSqliteStore({ path: storePath });
    try {
      for (const c of first.steps.flatMap((s) => s.calls)) {
        const rec = await store.getAudit(c.call_id);
        expect(rec?.status, c.call_id).toBe(c.status);
        // The staff-only note was dropped before the envelope was recorded, too.
        expect(JSON.stringify(rec)).not.toContain('possible reseller');
      }
    } finally {
      await store.close();
    }
  });
});

describe('trc demo on an existing store', () => {
  it('runs again on the same files with new ids and a new single charge', async () => {
    const { t } = await demoJson([]);
    expect(t.steps.filter((s) => !s.ok).map((s) => s.verdict)).toEqual([]);
    expect(t.run_id).not.toBe(first.run_id);
    const key1 = env(step(first, 4), 'payment_charge').side_effect.idempotency_key;
    const key2 = env(step(t, 4), 'payment_charge').side_effect.idempotency_key;
    expect(key2).not.toBe(key1);
    const db = new Database(worldPath, { readonly: true });
    try {
      const perKey = db.prepare('SELECT idempotency_key, count(*) AS n FROM charges GROUP BY idempotency_key').all() as { n: number }[];
      expect(perKey.length).toBeGreaterThanOrEqual(2);
      expect(perKey.every((r) => r.n === 1)).toBe(true);
    } finally {
      db.close();
    }
    const store = await openSqliteStore({ path: storePath });
    try {
      expect(await store.getAudit(t.steps[0]?.calls[0]?.call_id ?? '')).not.toBeNull();
      expect(await store.getAudit(first.steps[0]?.calls[0]?.call_id ?? '')).not.toBeNull();
    } finally {
      await store.close();
    }
  }, 60_000);

  it('prints a plain-text transcript with a summary table and audit hints when stdout is not a terminal', async () => {
    const r = await runCli(['demo', '--store', storePath, '--fresh']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b[');
    expect(r.stdout).toMatch(/step\s+tool\s+status\s+completeness\s+key facts/);
    expect(r.stdout).toContain('7/7 steps behaved as expected');
    expect(r.stdout).toContain(`trc audit --store ${storePath}`);
    // --fresh started over: only this run's calls are in the audit.
    const store = await openSqliteStore({ path: storePath });
    try {
      const ids = (await store.listAudit()).map((a) => a.callId);
      expect(ids.some((id) => id.includes(first.run_id))).toBe(false);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('reports a store path that cannot be created with a stable code and exit code 2', async () => {
    const r = await runCli(['demo', '--store', join(worldPath, 'under-a-file.sqlite')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('DEMO_STORE_UNUSABLE');
    expect(r.stderr).not.toContain('internal error');
  });

  it('refuses to wipe (or write into) a file it did not make, with or without --fresh', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trc-demo-foreign-'));
    try {
      const notes = join(dir, 'notes.txt');
      writeFileSync(notes, 'precious notes');
      const other = join(dir, 'prod.sqlite');
      const store = await openSqliteStore({ path: other });
      await store.appendAudit({ callId: 'prod_1', tool: 'refund_create', principal: 'p', startedAt: '2026-12-07T10:00:00Z', finishedAt: '2026-12-07T10:00:01Z', status: 'succeeded', argsDigest: 'sha256:0', envelopeDigest: null, detail: {} });
      await store.close();
      for (const target of [notes, other]) {
        for (const flags of [['--fresh'], []]) {
          const r = await runCli(['demo', '--store', target, ...flags]);
          expect(r.code).toBe(2);
          expect(r.stderr).toContain('DEMO_STORE_UNUSABLE');
        }
      }
      expect(readFileSync(notes, 'utf8')).toBe('precious notes');
      const after = await openSqliteStore({ path: other });
      try {
        expect((await after.listAudit()).map((a) => a.callId)).toEqual(['prod_1']);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('names every tool it registers in DEMO_TOOL_NAMES (what --fresh recognizes as its own)', () => {
    const names = demoTools({ world: {} as never, shippingUrl: 'http://127.0.0.1:1', loseResponses: new Set(), now: () => '2026-12-07T10:00:00Z', store: {} as never, pageSize: 5 }).all.map((t) => t.name);
    expect(new Set(names)).toEqual(DEMO_TOOL_NAMES);
  });

  it('reads a --store path ending in a separator as a directory', () => {
    expect(demoPaths('/w', 'runs/')).toEqual({ store: '/w/runs/demo.sqlite', world: '/w/runs/demo.world.sqlite' });
  });

  it('refuses an unknown flag with exit code 2', async () => {
    const r = await runCli(['demo', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--bogus');
  });
});

describe('demo rendering and paths', () => {
  it('colours the transcript only when asked to', () => {
    expect(renderText(first, { color: true })).toContain('\u001b[32m✓');
    expect(renderText(first, { color: false })).not.toContain('\u001b[');
  });

  it('marks a step whose expectation failed and counts it in the closing line', () => {
    const broken: DemoTranscript = { ...first, ok: false, steps: first.steps.map((s) => (s.step === 4 ? { ...s, ok: false, verdict: 'two charges found' } : s)) };
    const text = renderText(broken, { color: false });
    expect(text).toContain('✗ two charges found');
    expect(text).toContain('6/7 steps behaved as expected');
  });

  it('cuts long model texts in the terminal and points to --json for the rest', () => {
    const text = renderText(first, { color: false, maxLines: 5 });
    expect(text).toMatch(/│ … \d+ more lines \(the full text is in --json\)/);
  });

  it('puts the business database beside the trc store, or both files in a directory', () => {
    expect(demoPaths('/w', undefined, { HOME: '/h', XDG_DATA_HOME: '/x' })).toEqual({ store: '/x/tool-result-contract/demo.sqlite', world: '/x/tool-result-contract/demo.world.sqlite' });
    expect(demoPaths('/w', 'x/audit.db')).toEqual({ store: '/w/x/audit.db', world: '/w/x/audit.world.db' });
    expect(demoPaths('/w', dir)).toEqual({ store: join(dir, 'demo.sqlite'), world: join(dir, 'demo.world.sqlite') });
  });
});
