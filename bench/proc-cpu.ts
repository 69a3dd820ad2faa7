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

/**
 * CPU µs one process (every thread) has used so far, or null when it is gone or not on Linux.
 * From each thread's /proc/<pid>/task/<tid>/schedstat (nanoseconds) where the kernel keeps it,
 * else /proc/<pid>/stat (10 ms ticks: ±2 % at 500 calls of ~500 µs). Threads that already
 * ended are not counted by schedstat: a bench reads it around calls, not across a thread's life.
 */
export function processCpuUs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const first = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0];
      ns += Number(first);
    }
    if (ns > 0) return ns / 1000;
  } catch {
    // No schedstat (kernel without it) or a thread ended meanwhile: fall back to the ticks.
  }
  const s = stat(pid);
  return s === null ? null : (s.self * 1e6) / TICK;
}
