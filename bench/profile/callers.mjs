// For samples whose stack has a frame whose url matches PATTERN: attribute the time to the
// chain of the first N non-matching callers above the outermost matching frame... (entry point).
// usage: node callers.mjs file.cpuprofile PATTERN --window a,b --calls N [--depth 2]
import { optionReader, readProfile, shortFrame } from './profile-read.mjs';
const argv = process.argv.slice(2);
const [file, pattern] = argv;
const opt = optionReader(argv);
const calls = Number(opt('--calls', '1'));
const depth = Number(opt('--depth', '2'));
const win = opt('--window', null)?.split(',').map(Number);
const re = new RegExp(pattern);
const { p, byId, parent, t } = readProfile(file);
const short = shortFrame;
const m = new Map(); let tot = 0;
for (let i = 0; i < p.samples.length; i++) {
  if (win && (t[i] < win[0] || t[i] > win[1])) continue;
  const d = i + 1 < t.length ? t[i + 1] - t[i] : 0;
  const stack = [];
  for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id).callFrame);
  // outermost matching frame (closest to root)
  let k = -1;
  for (let j = stack.length - 1; j >= 0; j--) if (re.test(stack[j].url)) { k = j; break; }
  if (k < 0) continue;
  tot += d;
  const key = stack.slice(k + 1, k + 1 + depth).map(short).join(' <- ') + '  [entry: ' + short(stack[k]) + ']';
  m.set(key, (m.get(key) ?? 0) + d);
}
console.log(`total matching ${pattern}: ${(tot / calls).toFixed(1)} µs/call`);
for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(v / calls).toFixed(1).padStart(7)} µs  ${k}`);
