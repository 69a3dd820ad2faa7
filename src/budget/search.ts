/**
 * Find the largest structural trim of `data` that fits a token and byte budget: estimate,
 * trim, then count the kept part exactly with an early-exit check (SPEC Z1/Z2).
 */
import { TrcError } from '../contract/index.js';
import type { Envelope } from '../contract/index.js';
import type { ResolvedBudget } from './budget.js';
import { clearlyOverTokens, surelyWithinTokens, type TokenCounter } from './token-counter.js';
import { trimValue, type TrimLimits, type TrimOutcome } from './trim.js';

/** Field cap used once scaling starts (objects with more keys lose fields). */
const FIELD_BASE = 256;
const STEPS = 14;

function scaled(budget: ResolvedBudget, s: number): TrimLimits {
  if (s >= 1) return { items: budget.maxItems, chars: budget.maxStringChars, depth: budget.maxDepth, fields: Infinity };
  return {
    items: Math.floor(budget.maxItems * s),
    chars: Math.floor(budget.maxStringChars * s),
    // Depth cuts lose whole subtrees, so depth shrinks more slowly than the other limits.
    depth: Math.ceil(budget.maxDepth * Math.sqrt(s)),
    fields: Math.floor(FIELD_BASE * s),
  };
}

/** True when `value`, serialized, is within `tokens` and `bytes`. */
export function fitsWithin(value: unknown, tokens: number, bytes: number, counter: TokenCounter): boolean {
  const text = JSON.stringify(value) ?? 'null';
  // UTF-8 never has fewer bytes than UTF-16 units, so the length alone can rule out.
  if (text.length > bytes || Buffer.byteLength(text, 'utf8') > bytes) return false;
  if (clearlyOverTokens(text, tokens)) return false;
  if (counter.tokensAtMostBytes === true && surelyWithinTokens(text, tokens)) return true;
  return counter.isWithinLimit(text, tokens);
}

/** The target of the search: full budget when nothing is trimmed, data share otherwise. */
export interface SearchTarget {
  readonly budget: ResolvedBudget;
  /** Budget for `data` once a summary must share the space. */
  readonly dataTokens: number;
  readonly dataBytes: number;
  readonly counter: TokenCounter;
  /** Evidence-named pointers (relative to data) and their ancestors. */
  readonly targets: ReadonlySet<string>;
  readonly onPath: ReadonlySet<string>;
  /** True when items were already dropped before this search (the streaming path). */
  readonly alreadyTrimmed?: boolean;
}

/**
 * Trim `data` as little as possible. Tries with evidence protected first; only if even the
 * protected nodes alone do not fit is protection reduced to ordering preference.
 * Throws `TrcError('BUDGET_UNSATISFIABLE')` if an emptied payload still does not fit.
 */
export function searchTrim(data: unknown, t: SearchTarget): TrimOutcome {
  const user = scaled(t.budget, 1);
  const guarded = t.targets.size > 0;
  // One listing of each object's member names for every attempt of the search.
  const keysOf = new WeakMap<object, string[]>();
  const attempt = (s: number, protect: boolean): TrimOutcome =>
    trimValue(data, scaled(t.budget, s), guarded ? { targets: t.targets, onPath: t.onPath, limits: protect ? user : scaled(t.budget, s) } : undefined, keysOf);
  const fits = (o: TrimOutcome) =>
    o.trims.length === 0 && t.alreadyTrimmed !== true
      ? fitsWithin(o.value, t.budget.maxTokens, t.budget.maxBytes, t.counter)
      : fitsWithin(o.value, t.dataTokens, t.dataBytes, t.counter);

  const first = attempt(1, true);
  if (fits(first)) return first;
  for (const protect of guarded ? [true, false] : [false]) {
    let best = attempt(0, protect);
    if (!fits(best)) continue;
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < STEPS; i++) {
      const mid = (lo + hi) / 2;
      const candidate = attempt(mid, protect);
      if (fits(candidate)) {
        lo = mid;
        best = candidate;
      } else {
        hi = mid;
      }
    }
    return best;
  }
  throw new TrcError('BUDGET_UNSATISFIABLE', 'even an emptied payload does not fit the budget; raise maxTokens or maxBytes');
}

/** Tokens and UTF-8 bytes of the model-visible part: `data` and `summary`, each as JSON. */
export interface VisibleSize {
  readonly tokens: number;
  readonly bytes: number;
}

/**
 * Measure what a budget limits: `data` and `summary`, serialized separately and added up.
 * @example measureVisible(env, o200kCounter).tokens <= 8000
 */
export function measureVisible(env: Pick<Envelope, 'data' | 'summary'>, counter: TokenCounter): VisibleSize {
  const parts = [JSON.stringify(env.data ?? null)];
  if (env.summary !== undefined) parts.push(JSON.stringify(env.summary));
  let tokens = 0;
  let bytes = 0;
  for (const p of parts) {
    tokens += counter.count(p);
    bytes += Buffer.byteLength(p, 'utf8');
  }
  return { tokens, bytes };
}
