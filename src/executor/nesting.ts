/**
 * How deep a result is nested, measured without recursion. JSON parsing is iterative, so an
 * upstream can send a value deeper than the JavaScript stack lets the pipeline's recursive walks
 * (normalization, masking, fitting, isolation) go; past the stack V8 throws a RangeError or, in
 * some frames, a TypeError, so a failure is told to be a depth one by measuring, not by its type.
 */

/** Nesting past which a result is reported as too deep when processing it failed. */
export const DEEP_RESULT_LEVELS = 1000;

/**
 * True when `value` holds containers nested more than `levels` deep. Stops at the first such
 * path, so a shallow value costs one walk and a deep one less.
 * @example nestedDeeperThan([[1]], 1) // true
 */
export function nestedDeeperThan(value: unknown, levels: number): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (v === null || typeof v !== 'object') continue;
    if (depth >= levels) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}
