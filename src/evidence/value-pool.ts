/**
 * The structured values a piece of evidence stands for, indexed so a claim's values can be
 * looked up quickly: numbers, date/times, strings, and the values stated inside strings.
 */
import { parseIsoWallTime, type WallTime } from './datetime.js';
import { extractTextValues, foldText } from './text-values.js';

/** Primitive values gathered from one or more places in a document. */
export interface ValuePool {
  readonly numbers: number[];
  readonly times: WallTime[];
  /** Strings as given (ids compare exactly). */
  readonly strings: Set<string>;
  /** Strings folded (NFKC, lower case, single spaces) for quotes. */
  readonly folded: string[];
  /** Tokens of strings, so an id inside "orders/ord_1001" is found. */
  readonly tokens: Set<string>;
}

/** An empty pool to fill with {@link addToPool}. */
export function emptyPool(): ValuePool {
  return { numbers: [], times: [], strings: new Set(), folded: [], tokens: new Set() };
}

const NUMERIC_STRING = /^\s*[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*$/;
const MAX_VALUES = 50_000;

/** Fold a string for tolerant comparison of quotes. */
export function foldForQuote(s: string): string {
  return foldText(s).toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Drop trailing separators ("ord_1001." → "ord_1001") without a backtracking regex. */
function trimSeparators(token: string): string {
  let end = token.length;
  while (end > 0 && '.:-'.includes(token[end - 1] ?? '')) end--;
  return token.slice(0, end);
}

function addString(pool: ValuePool, s: string): void {
  pool.strings.add(s);
  pool.folded.push(foldForQuote(s));
  for (const token of s.split(/[^\w.:-]/)) if (token !== '') pool.tokens.add(trimSeparators(token));
  if (NUMERIC_STRING.test(s)) {
    pool.numbers.push(Number(s.replace(/[,\s]/g, '')));
    return;
  }
  const iso = parseIsoWallTime(s.trim());
  if (iso !== null) {
    pool.times.push(iso);
    return;
  }
  // Values stated inside prose strings count too ("Room 1203", "due 2026-09-01").
  if (s.length <= 2000 && /\d/.test(s)) {
    for (const v of extractTextValues(s)) {
      if (v.kind === 'number') pool.numbers.push(v.value);
      else if (v.kind === 'datetime') pool.times.push(v.value);
      else if (v.kind === 'id') pool.tokens.add(v.value);
    }
  }
}

/**
 * Add every primitive inside `value` (walked depth-first, own properties only) to `pool`, and
 * the length of every array (a list backs a statement of how many items it holds). With
 * `keys`, property names count as strings too (for text that quotes a JSON object).
 * @example const pool = emptyPool(); addToPool(pool, { stock: 10, at: '2026-09-01T02:00:00Z' });
 */
export function addToPool(pool: ValuePool, value: unknown, options: { keys?: boolean } = {}): void {
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_VALUES) {
    const v = stack.pop();
    seen++;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) pool.numbers.push(v);
    } else if (typeof v === 'string') {
      addString(pool, v);
    } else if (typeof v === 'boolean' || v === null || v === undefined) {
      continue;
    } else if (Array.isArray(v)) {
      pool.numbers.push(v.length);
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (typeof v === 'object') {
      for (const key of Object.keys(v)) {
        if (options.keys === true) {
          pool.strings.add(key);
          pool.folded.push(foldForQuote(key));
        }
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
}
