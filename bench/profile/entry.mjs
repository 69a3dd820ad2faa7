// Attribute each sample to the outermost project/SDK frame on its stack (the async function or
// I/O callback that was running), and show what the time inside it went to (leaf module group).
// usage: node entry.mjs file.cpuprofile --window a,b --calls N
import { optionReader, readProfile, shortFrame } from './profile-read.mjs';
const argv = process.argv.slice(2);
const file = argv[0];
const opt = optionReader(argv);
const calls = Number(opt('--calls', '1'));
const win = opt('--window', null)?.split(',').map(Number);
const { p, byId, parent, t } = readProfile(file);
const short = shortFrame;
const grp = (c) => {
  const u = c.url;
  if (!u) return c.functionName === '(garbage collector)' ? 'GC' : c.functionName === '(program)' ? '(program)' : 'native ' + c.functionName.slice(0, 24);
  let m;
  if ((m = u.match(/\/dist\/([a-z-]+)\//)) && !u.includes('node_modules')) return 'src/' + m[1];
  if ((m = u.match(/node_modules\/(@[^/]+\/[^/]+|[^/]+)\//))) return m[1] === '@modelcontextprotocol/sdk' ? 'sdk' : m[1];
  return 'node';
};
const entries = new Map(); let tot = 0;
for (let i = 0; i < p.samples.length; i++) {
  if (win && (t[i] < win[0] || t[i] > win[1])) continue;
  const d = i + 1 < t.length ? t[i + 1] - t[i] : 0;
  const stack = [];
  for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id).callFrame);
  if (stack[0].functionName === '(idle)') continue;
  tot += d;
  let e = null;
  for (let j = stack.length - 1; j >= 0; j--) if (stack[j].url && !stack[j].url.startsWith('node:')) { e = short(stack[j]); break; }
  if (e === null) e = '(no project frame) ' + (stack.length > 1 ? short(stack[stack.length - 2]) : short(stack[0]));
  const lg = grp(stack[0]);
  const x = entries.get(e) ?? { total: 0, by: new Map() };
  x.total += d; x.by.set(lg, (x.by.get(lg) ?? 0) + d);
  entries.set(e, x);
}
console.log(`busy ${(tot / calls).toFixed(1)} µs/call`);
for (const [k, v] of [...entries].sort((a, b) => b[1].total - a[1].total).slice(0, 40)) {
  const by = [...v.by].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([g, x]) => `${g} ${(x / calls).toFixed(1)}`).join(', ');
  console.log(`${(v.total / calls).toFixed(1).padStart(7)} µs  ${k}\n            ${by}`);
}
