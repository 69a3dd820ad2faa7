/**
 * CPU time of process trees from /proc (Linux): a process's own user+system time, the time of
 * the children it already reaped, and the time of its live children — so the CPU of PostgreSQL
 * (postmaster and backends) and of each gateway (and its upstream) can be told apart.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK = 100; // USER_HZ on Linux

interface Stat { pid: number; ppid: number; self: number; reaped: number }

function stat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(f[1]), self: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/** Seconds of CPU used so far by the process trees rooted at `roots`. */
export function treeCpuSeconds(roots: readonly number[]): number {
  const all = readdirSync('/proc').filter((d) => /^\d+$/u.test(d)).map((d) => stat(Number(d))).filter((s): s is Stat => s !== null);
  const children = new Map<number, Stat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let ticks = 0;
  const seen = new Set<number>();
  const walk = (s: Stat): void => {
    if (seen.has(s.pid)) return;
    seen.add(s.pid);
    ticks += s.self + s.reaped;
    for (const c of children.get(s.pid) ?? []) walk(c);
  };
  for (const pid of roots) {
    const s = all.find((x) => x.pid === pid);
    if (s !== undefined) walk(s);
  }
  return ticks / TICK;
}

/** The parent of a process (the postmaster of a PostgreSQL backend). */
export function parentOf(pid: number): number | null {
  return stat(pid)?.ppid ?? null;
}

/** Busy and total CPU ticks of the whole machine so far (/proc/stat), to tell a saturated machine. */
export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const f = line.trim().split(/\s+/u).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return { busy: total - idle, total };
}
