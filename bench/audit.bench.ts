/**
 * Audit insert benchmark: what one read call's audit record costs the SQLite store (a file, WAL,
 * synchronous FULL) on the gateway's write-behind path, with the gateway's time-ordered call ids
 * (`newCallId`, UUID v7) beside random UUID v4 ids (the ids it made before), in alternating
 * rounds of one run. Records are shaped like a gateway `echo` record (~2.8 KB) and inserted five
 * per commit, the batch the 5 ms window gathers at about one call per millisecond. Each round
 * starts on a fresh file and fills it with 10,000 records first (`BENCH_AUDIT_FILL`), so random
 * keys land on pages spread over the call-id index.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newCallId } from '../src/executor/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { AuditRecord } from '../src/store/index.js';

const FILL = Number(process.env.BENCH_AUDIT_FILL ?? 10_000);
const MEASURED = 5_000;
const BATCH = 5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'trc-audit-bench-'));

// A record of the shape (and about the size) the gateway writes for a small read result.
function record(callId: string, i: number): AuditRecord {
  const now = new Date().toISOString();
  const source = { type: 'mcp', id: 'everything/echo' };
  const envelope = {
    contract_version: 'agent.tool.result.v1', call: { tool_name: 'echo', call_id: callId, attempt: 1 }, status: 'succeeded',
    data: { content: [{ type: 'text', text: `Echo: message ${i}` }] }, completeness: { state: 'unknown', reason: 'not_reported_by_tool' },
    provenance: { source_type: 'mcp', source_id: source.id, retrieved_at: now, observed_at: null },
    evidence: [{ evidence_id: 'tool_output', kind: 'tool_output', source, locator: { response_path: '/content' }, supports: ['/data/content'] }],
    untrusted_content: [{
      content_id: `uc_${i.toString(16).padStart(16, '0')}`, mime_type: 'application/json', text: JSON.stringify({ content: [{ type: 'text', text: `Echo: message ${i}` }] }),
      trust: 'untrusted', source, instructional: false, families: [], spans: [], allowed_uses: ['summarize', 'quote', 'classify', 'extract_facts', 'translate'],
      forbidden_uses: ['follow_instructions', 'change_agent_policy', 'authorize_tool_call', 'expand_data_scope', 'high_risk_arguments_without_confirmation'], origin: '/data',
    }],
    side_effect: { occurred: false, operation: 'read' }, warnings: [], extensions: { mcp: { content_at: '/data/content' } },
    tool_hints: { origin: 'everything', trusted: false, annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } },
    result_digest: `sha256:${'0'.repeat(64)}`,
  };
  const detail = {
    kind: 'trc.executor.call.v1',
    call: { tool_known: true, args_valid: true, args_findings: [], authorization: 'allow', args: { message: `message ${i}` }, run: 'session:1' },
    execution: { attempts: 1, timings_ms: [0], outcome: 'returned', classification: null, idempotency_key: null, ledger_state: null, effect_position: 'none', reconciliation_state: null },
    contract: { valid: true, replaced: false, findings: [], status: 'succeeded', completeness: 'unknown' },
    model: { hazards: ['partial_result: must not be read as the whole'] }, notes: { call: [], execution: [], contract: [], model: [] },
    edge: { kind: 'gateway', transport: 'stdio', session: '1', upstream: 'everything', upstream_tool: 'echo', effect_source: 'hint', structured: 'auto' },
    envelope,
  };
  return { callId, tool: 'echo', principal: 'session:1', startedAt: now, finishedAt: now, status: 'succeeded', argsDigest: `sha256:${'1'.repeat(64)}`, envelopeDigest: `sha256:${'2'.repeat(64)}`, detail } as AuditRecord;
}

const ids: Record<string, () => string> = {
  'random UUID v4 ids (before)': () => `call_${randomUUID()}`,
  'time-ordered UUID v7 ids (newCallId)': () => newCallId(),
};

async function round(makeId: () => string, n: number): Promise<number> {
  const path = join(dir, `audit-${n}.db`);
  const store = await openSqliteStore({ path });
  let i = 0;
  const batch = (): AuditRecord[] => Array.from({ length: BATCH }, () => record(makeId(), i++));
  for (let k = 0; k < FILL / BATCH; k++) await store.appendAuditBatch(batch());
  const c0 = process.cpuUsage();
  for (let k = 0; k < MEASURED / BATCH; k++) await store.appendAuditBatch(batch());
  const c = process.cpuUsage(c0);
  await store.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  return (c.user + c.system) / MEASURED;
}

const results = new Map<string, number[]>(Object.keys(ids).map((k) => [k, []]));
let n = 0;
try {
  for (let r = 0; r < ROUNDS; r++) for (const [name, makeId] of Object.entries(ids)) results.get(name)?.push(await round(makeId, n++));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
console.log(`SQLite audit insert, ${BATCH} records per commit after ${FILL} already stored (CPU µs per record, median of ${ROUNDS} alternating rounds; each round's figures in brackets)`);
const [before, after] = [...results.values()].map(median) as [number, number];
for (const [name, xs] of results) console.log(`  ${name.padEnd(40)} ${median(xs).toFixed(1).padStart(7)} µs   [${xs.map((x) => x.toFixed(1)).join(', ')}]`);
console.log(`  time-ordered / random: ${(after / before).toFixed(2)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`);
