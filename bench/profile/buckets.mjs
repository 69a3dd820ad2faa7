// Put each (non-idle) sample of a .cpuprofile into one cost bucket by markers on its stack,
// first matching rule wins. Prints µs/call per bucket (wall-sampled; see README in report).
// usage: node buckets.mjs file.cpuprofile --window a,b --calls N
import { optionReader, readProfile } from './profile-read.mjs';
const argv = process.argv.slice(2);
const file = argv[0];
const opt = optionReader(argv);
const calls = Number(opt('--calls', '1'));
const win = opt('--window', null)?.split(',').map(Number);
const { p, byId, parent, t } = readProfile(file);
const key = (c) => `${c.functionName} ${c.url}`;
const any = (stack, re) => stack.some((c) => re.test(key(c)));
const leaf = (stack, re) => re.test(key(stack[0]));
const rules = [
  ['GC (main thread)', (s) => leaf(s, /^\(garbage collector\)/)],
  ['pipe writes (write syscall; wall-sampled, includes preemption)', (s) => leaf(s, /^(writeUtf8String|writeBuffer|writev|writeLatin1String) /)],
  ['audit: late record + detail JSON', (s) => any(s, /audit-sink\.js/) && any(s, /buildAuditEntry|get record|made |detailJson|encodingOf|lateAuditEntry/) && !any(s, /sqliteTransaction|appendAuditBatch/)],
  ['audit: SQLite insert batch (better-sqlite3 + encode)', (s) => any(s, /audit-sink\.js|appendAuditBatch|sqliteTransaction/)],
  ['render: toMcpResult (mcpBlockView, model projection)', (s) => any(s, /^toMcpResult |to-mcp-result\.js/)],
  ['pipeline: run authority (taint observe/check)', (s) => any(s, /run-authority\.js/)],
  ['pipeline: isolate (instruction detection)', (s) => any(s, /trust\/isolate\.js/)],
  ['pipeline: maskEnvelope (secrets)', (s) => any(s, /mask-envelope\.js/)],
  ['pipeline: finalize validate (envelope schema)', (s) => any(s, /contract\/validate\.js|envelope-validators|known-valid/)],
  ['pipeline: digests (canonical JSON + sha256)', (s) => any(s, /contract\/digest\.js|^hash node:internal\/crypto/)],
  ['pipeline: other stages (classify, normalize, evidence, telemetry, ids)', (s) => any(s, /dist\/(executor|evidence|contract|trust|effects)\//)],
  ['SDK: message-kind zod guards (isJSONRPC*)', (s) => any(s, /^isJSONRPC/)],
  ['SDK: tools/call request+result zod validation (server)', (s) => any(s, /wrappedHandler |zod-compat|zod-json-schema-compat/) && any(s, /node_modules\/zod/)],
  ['zod: upstream result (ResultSchema in request, CallToolResultSchema in invoker)', (s) => any(s, /node_modules\/zod/)],
  ['JSON.stringify of outgoing lines', (s) => any(s, /^write .*stdio-transports/) && !any(s, /^Writable.write /)],
  ['stream write path (node streams above the syscall)', (s) => any(s, /^Writable.write /)],
  ['framing + JSON.parse + shape check (incoming)', (s) => any(s, /line-framer\.js|jsonrpc-shape/) && !any(s, /protocol\.js/)],
  ['SDK protocol bookkeeping (dispatch, request map, timers, abort)', (s) => any(s, /modelcontextprotocol\/sdk/)],
  ['gateway glue (callTool, invoker, forward, session)', (s) => any(s, /dist\/gateway\//)],
  ['node: stream read path, ticks, timers', (s) => any(s, /^.* node:/)],
  ['(program) / other native', () => true],
];
const sums = new Map(rules.map(([n]) => [n, 0])); let tot = 0;
for (let i = 0; i < p.samples.length; i++) {
  if (win && (t[i] < win[0] || t[i] > win[1])) continue;
  const d = i + 1 < t.length ? t[i + 1] - t[i] : 0;
  const stack = [];
  for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id).callFrame);
  if (stack[0].functionName === '(idle)') continue;
  tot += d;
  for (const [n, f] of rules) if (f(stack)) { sums.set(n, sums.get(n) + d); break; }
}
console.log(`main-thread busy (wall-sampled): ${(tot / calls).toFixed(1)} µs/call`);
for (const [n, v] of [...sums].sort((a, b) => b[1] - a[1])) console.log(`${(v / calls).toFixed(1).padStart(7)} µs  ${((100 * v) / tot).toFixed(1).padStart(5)} %  ${n}`);
