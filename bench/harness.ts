/**
 * Shared timing for the micro-benchmarks: operations per second with growing batches, and
 * contenders alternated round by round so machine drift hits each of them alike.
 */

/** Run `fn` for about `ms` and return operations per second. Batches grow so that reading the
 * clock never dominates a fast `fn`, nor overshoots with a slow one. */
export function rate(fn: () => void, ms: number): number {
  let ops = 0;
  let batch = 1;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    const before = performance.now();
    for (let k = 0; k < batch; k++) fn();
    ops += batch;
    const now = performance.now();
    if (now - before < 5) batch *= 2;
    elapsed = now - start;
  }
  return (ops * 1000) / elapsed;
}

/** Alternate the contenders for `rounds` rounds of `roundMs` and keep each one's median rate. */
export function compare(contenders: Record<string, () => void>, options: { rounds: number; roundMs: number; warmupMs?: number }): Record<string, number> {
  const samples: Record<string, number[]> = {};
  for (const fn of Object.values(contenders)) rate(fn, options.warmupMs ?? 300); // warm up the JIT
  for (let r = 0; r < options.rounds; r++) {
    for (const [name, fn] of Object.entries(contenders)) {
      (globalThis as { gc?: () => void }).gc?.();
      (samples[name] ??= []).push(rate(fn, options.roundMs));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

/** A number with thousands separators. */
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
