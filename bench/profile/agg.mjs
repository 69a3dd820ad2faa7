// Aggregate a V8 .cpuprofile: self and inclusive time by module group, by file, and by function.
// usage: node agg.mjs <file.cpuprofile> [--calls N] [--window t0,t1 (µs, monotonic)] [--top 40] [--root /tmp/h2]
// Notes: V8's sampler is wall-clock; time the thread spent preempted while runnable lands on the
// frame it was preempted in (mostly the write syscall: writeUtf8String). Inlined frames are
// reconstructed by V8, so function attribution is better than perf's.
import { optionReader, readProfile } from './profile-read.mjs';
const argv = process.argv.slice(2);
const file = argv[0];
const opt = optionReader(argv);
const calls = Number(opt('--calls', '0'));
const top = Number(opt('--top', '40'));
const root = opt('--root', '/tmp/h2');
const win = opt('--window', null)?.split(',').map(Number);
const { p, byId, parent, t } = readProfile(file);
const dur = (i) => (i + 1 < t.length ? t[i + 1] - t[i] : 0);
const group = (url, fn) => {
  if (!url) {
    if (fn === '(garbage collector)') return 'GC (main thread)';
    if (fn === '(idle)') return '(idle)';
    if (fn === '(program)') return '(program: native/V8 outside JS)';
    return `native:${fn.slice(0, 40)}`;
  }
  let m;
  if ((m = url.match(/\/dist\/(gateway|executor|contract|store|trust|budget|effects|evidence|cli|adapters)\//))) return `src/${m[1]}/*`;
  if ((m = url.match(/node_modules\/(@[^/]+\/[^/]+|[^/]+)\//))) {
    const pkg = m[1];
    if (pkg === '@modelcontextprotocol/sdk') return `@mcp/sdk ${(url.match(/dist\/esm\/(.*)$/)?.[1] ?? url).split('/').slice(0, 2).join('/')}`;
    return pkg;
  }
  if (url.startsWith('node:')) return 'node: ' + url.slice(5).split('/').slice(0, 2).join('/');
  return url.replace('file://' + root + '/', '');
};
const short = (url) => url.replace('file://' + root + '/', '').replace(/.*node_modules\//, 'nm/').replace(/^node:internal\//, 'node:');
const selfG = new Map(), inclG = new Map(), selfF = new Map(), inclF = new Map(), selfFile = new Map(), inclFile = new Map();
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
let total = 0, idle = 0, n = 0;
for (let i = 0; i < p.samples.length; i++) {
  if (win && (t[i] < win[0] || t[i] > win[1])) continue;
  const d = dur(i);
  const leaf = byId.get(p.samples[i]);
  if (leaf.callFrame.functionName === '(idle)') { idle += d; continue; }
  total += d; n++;
  const cf = leaf.callFrame;
  const fkey = (c) => `${c.functionName || '(anon)'} ${short(c.url)}:${c.lineNumber + 1}`;
  add(selfG, group(cf.url, cf.functionName), d);
  add(selfF, fkey(cf), d);
  add(selfFile, cf.url ? short(cf.url) : cf.functionName, d);
  const seenG = new Set(), seenF = new Set(), seenFile = new Set();
  for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
    const c = byId.get(id).callFrame;
    if (c.functionName === '(root)') break;
    const g = group(c.url, c.functionName), f = fkey(c), fl = c.url ? short(c.url) : c.functionName;
    if (!seenG.has(g)) { seenG.add(g); add(inclG, g, d); }
    if (!seenF.has(f)) { seenF.add(f); add(inclF, f, d); }
    if (!seenFile.has(fl)) { seenFile.add(fl); add(inclFile, fl, d); }
  }
}
const per = (us) => (calls ? (us / calls).toFixed(1).padStart(8) + ' µs/call' : '');
const pct = (us) => ((100 * us) / total).toFixed(1).padStart(6) + ' %';
console.log(`busy ${(total / 1000).toFixed(0)} ms (${n} samples), idle ${(idle / 1000).toFixed(0)} ms${calls ? `, ${(total / calls).toFixed(1)} µs/call busy over ${calls} calls` : ''}`);
const show = (title, self, incl, k = top) => {
  console.log(`\n== ${title} (sorted by self) ==\n     self                       inclusive`);
  for (const [key, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, k)) console.log(`${pct(v)}${per(v)}   ${pct(incl.get(key) ?? 0)}${per(incl.get(key) ?? 0)}   ${key}`);
};
const showIncl = (title, incl, self, k = top) => {
  console.log(`\n== ${title} (sorted by inclusive) ==`);
  for (const [key, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, k)) console.log(`${pct(v)}${per(v)}   self ${pct(self.get(key) ?? 0)}   ${key}`);
};
show('module group', selfG, inclG, 40);
show('file', selfFile, inclFile, top);
show('function', selfF, inclF, top);
showIncl('function', inclF, selfF, top);
