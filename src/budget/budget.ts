/**
 * The size budget (SPEC Z1): what the model-visible part of an envelope may cost.
 */
import { TrcError } from '../contract/index.js';

/** Limits for the model-visible part (`data` plus the `summary` zone). All optional. */
export interface Budget {
  /** Tokens of `data` + `summary` (each serialized as JSON, counted separately). */
  readonly maxTokens?: number;
  /** Items kept per array. */
  readonly maxItems?: number;
  /** Code points kept per string. */
  readonly maxStringChars?: number;
  /** Containers deeper than this (root `data` = depth 0) are emptied. */
  readonly maxDepth?: number;
  /** UTF-8 bytes of `data` + `summary` serialized as JSON. */
  readonly maxBytes?: number;
}

/** A budget with every limit filled in. */
export type ResolvedBudget = { readonly [K in keyof Budget]-?: number };

/** Defaults: 8,000 tokens (o200k), 100 items per list, 4,000 chars per string, depth 16, 256 KiB. */
export const DEFAULT_BUDGET: ResolvedBudget = {
  maxTokens: 8000,
  maxItems: 100,
  maxStringChars: 4000,
  maxDepth: 16,
  maxBytes: 256 * 1024,
};

/** Below these a summary and an emptied payload no longer fit; such budgets are refused. */
export const MIN_TOKENS = 32;
export const MIN_BYTES = 128;

/**
 * Fill in defaults and check every limit is a non-negative integer (tokens ≥ 32, bytes ≥ 128).
 * Throws `TrcError('BUDGET_INVALID')` with the JSON Pointer of the bad limit.
 * @example resolveBudget({ maxItems: 20 }).maxTokens // 8000
 */
export function resolveBudget(budget: Budget = {}): ResolvedBudget {
  const out = { ...DEFAULT_BUDGET };
  for (const key of Object.keys(DEFAULT_BUDGET) as (keyof ResolvedBudget)[]) {
    const value = budget[key];
    if (value === undefined) continue;
    const min = key === 'maxTokens' ? MIN_TOKENS : key === 'maxBytes' ? MIN_BYTES : 0;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      throw new TrcError('BUDGET_INVALID', `budget ${key} must be an integer ≥ ${min}; got ${String(value)}`, {
        data: { pointer: `/${key}` },
      });
    }
    out[key] = value;
  }
  return out;
}

/** What the summary zone may use of the token and byte budgets; the rest goes to `data`. */
export function summaryReserve(budget: ResolvedBudget): { tokens: number; bytes: number } {
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  return {
    tokens: clamp(Math.floor(budget.maxTokens / 4), 16, 400),
    bytes: clamp(Math.floor(budget.maxBytes / 4), 64, 2048),
  };
}
