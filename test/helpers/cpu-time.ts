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
 * How much more CPU `work` takes on an input of size `large` than on one of size `small`,
 * best of `runs` each, on a fresh input per run (`make` is not timed, and no engine cache
 * sees the same string twice). The small size is warmed up first and counted as at least
 * 0.5 ms, so timer granularity on a tiny input cannot blow the ratio up.
 * @example expect(growth((n) => 'a'.repeat(n), detect, 100_000, 1_000_000)).toBeLessThan(LINEAR_BOUND_10X)
 */
export function growth<T>(make: (n: number) => T, work: (input: T) => unknown, small: number, large: number, runs = 3): number {
  work(make(small));
  const best = (n: number) => {
    let b = Infinity;
    for (let i = 0; i < runs; i++) {
      const input = make(n);
      b = Math.min(b, cpuOnce(() => work(input)));
    }
    return b;
  };
  return best(large) / Math.max(0.5, best(small));
}

/** The bound for 10x the input: far above linear (10x), far below quadratic (100x). */
export const LINEAR_BOUND_10X = 40;
