/**
 * Linear-time checks without wall-clock thresholds (the machine is shared: waiting for a core
 * says nothing about an algorithm). Compare the CPU time of one input with that of an input
 * ten times larger: linear work stays near 10x, quadratic work near 100x.
 */

/** CPU time (ms) of one call of `fn`. */
function cpuOnce(fn: () => unknown): number {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

/** Best CPU time (ms) of `runs` calls of `fn`. */
export function cpuMs(fn: () => unknown, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, cpuOnce(fn));
  return best;
}

/**
 * How much more CPU `work` takes on an input of size `large` than on one of size `small`:
 * the best of `runs` each, the two sizes taken in turn (so a change of load on the machine
 * hits both alike), a fresh input per run (`make` is not timed, and no engine cache sees the
 * same string twice). Both sizes are warmed up first; the small one counts as at least
 * 0.5 ms, so timer granularity on a tiny input cannot blow the ratio up.
 * @example growth((n) => 'a'.repeat(n), detect, 100_000, 1_000_000) // near 10 when linear; compare with LINEAR_BOUND_10X
 */
export function growth<T>(make: (n: number) => T, work: (input: T) => unknown, small: number, large: number, runs = 3): number {
  work(make(small));
  work(make(large));
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  for (let i = 0; i < runs; i++) {
    const s = make(small);
    bestSmall = Math.min(bestSmall, cpuOnce(() => work(s)));
    const l = make(large);
    bestLarge = Math.min(bestLarge, cpuOnce(() => work(l)));
  }
  return bestLarge / Math.max(0.5, bestSmall);
}

/** The bound for 10x the input: far above linear (10x), far below quadratic (100x). */
export const LINEAR_BOUND_10X = 40;
