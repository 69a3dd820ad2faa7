// What every script here starts with: its options, the .cpuprofile read with each node's parent
// and each sample's time (µs, monotonic), and a frame's short name.
import { readFileSync } from 'node:fs';

/** `opt('--calls', '1')`: the value after a flag in `argv`, or the default. */
export const optionReader = (argv) => (k, d) => {
  const i = argv.indexOf(k);
  return i < 0 ? d : argv[i + 1];
};

/** The profile, its nodes by id, each node's parent id, and each sample's timestamp. */
export function readProfile(file) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const t = [];
  let acc = p.startTime;
  for (const d of p.timeDeltas) {
    acc += d;
    t.push(acc);
  }
  return { p, byId, parent, t };
}

/** `name dist/…/file.js:line` for a call frame. */
export const shortFrame = (c) => `${c.functionName || '(anon)'} ${c.url.replace(/.*\/(dist|node_modules)\//, '$1/').replace(/^node:internal\//, 'node:')}:${c.lineNumber + 1}`;
