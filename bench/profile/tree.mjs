// Top-down call tree below every frame matching ROOTRE (function + url), merged by function,
// printing nodes with >= MIN µs/call. usage: node tree.mjs file ROOTRE --window a,b --calls N [--min 1] [--depth 6]
import { optionReader, readProfile, shortFrame } from './profile-read.mjs';
const argv = process.argv.slice(2);
const [file, rootPat] = argv;
const opt = optionReader(argv);
const calls = Number(opt('--calls', '1')), min = Number(opt('--min', '1')), maxDepth = Number(opt('--depth', '6'));
const win = opt('--window', null)?.split(',').map(Number);
const re = new RegExp(rootPat);
const { p, byId, parent, t } = readProfile(file);
const short = shortFrame;
const tree = { n: 0, kids: new Map() };
for (let i = 0; i < p.samples.length; i++) {
  if (win && (t[i] < win[0] || t[i] > win[1])) continue;
  const d = i + 1 < t.length ? t[i + 1] - t[i] : 0;
  const stack = [];
  for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id).callFrame);
  let k = -1;
  for (let j = stack.length - 1; j >= 0; j--) if (re.test(short(stack[j]))) { k = j; break; }
  if (k < 0) continue;
  let node = tree; node.n += d;
  for (let j = k; j >= 0; j--) {
    const key = short(stack[j]);
    let c = node.kids.get(key);
    if (!c) node.kids.set(key, (c = { n: 0, kids: new Map() }));
    c.n += d; node = c;
  }
}
const pr = (node, depth, name) => {
  const self = node.n - [...node.kids.values()].reduce((a, c) => a + c.n, 0);
  if (name) console.log(`${'  '.repeat(depth)}${(node.n / calls).toFixed(1)} µs (self ${(self / calls).toFixed(1)})  ${name}`);
  if (depth >= maxDepth) return;
  for (const [k, c] of [...node.kids].sort((a, b) => b[1].n - a[1].n)) if (c.n / calls >= min) pr(c, depth + 1, k);
};
console.log(`total ${(tree.n / calls).toFixed(1)} µs/call`);
pr(tree, -1, null);
