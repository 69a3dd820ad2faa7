/**
 * E7: an MCP text block and `structuredContent` must describe the same observation. A mismatch
 * is reported, and the result becomes non-citable; neither side is picked.
 */
import { canonicalJson, escapePointerToken } from '../contract/index.js';
import { EVIDENCE_RULES, type EvidenceFinding } from './findings.js';
import { extractTextValues } from './text-values.js';
import { textValueAgrees } from './value-match.js';
import { addToPool, emptyPool } from './value-pool.js';

/** Outcome of {@link compareContent}. */
export interface ContentComparison {
  /** `consistent`: same observation; `mismatch`: they disagree; `unverifiable`: the text states nothing checkable. */
  readonly verdict: 'consistent' | 'mismatch' | 'unverifiable';
  /** How the text was compared: as JSON (canonical equality) or by the values it states. */
  readonly mode: 'json' | 'values';
  /** False on a mismatch: the result must not be cited. */
  readonly citable: boolean;
  readonly findings: readonly EvidenceFinding[];
}

/** Options of {@link compareContent}. */
export interface CompareContentOptions {
  /** Pointer of the text block, used in findings (default `/content/0/text`). */
  readonly textPointer?: string;
}

const MAX_DIFFS = 5;

function parseJsonContainer(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) as unknown };
  } catch {
    return { ok: false };
  }
}

function safeCanonical(value: unknown): string | null {
  try {
    return canonicalJson(value);
  } catch {
    return null;
  }
}

/** Pointers (relative to the structured value) where two JSON values differ, at most `limit`. */
function diffPointers(a: unknown, b: unknown, at: string, out: string[], limit: number): void {
  if (out.length >= limit) return;
  const aObj = a !== null && typeof a === 'object';
  const bObj = b !== null && typeof b === 'object';
  if (!aObj || !bObj || Array.isArray(a) !== Array.isArray(b)) {
    if (safeCanonical(a) !== safeCanonical(b)) out.push(at);
    return;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    diffPointers((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}/${escapePointerToken(key)}`, out, limit);
    if (out.length >= limit) return;
  }
}

/** True when `text` equals a string somewhere in `value` (bounded walk). */
function isStringValueOf(text: string, value: unknown): boolean {
  if (text.trim() === '') return false;
  let budget = 10_000;
  const walk = (v: unknown): boolean => {
    if (--budget < 0) return false;
    if (typeof v === 'string') return v === text || v.trim() === text.trim();
    if (v === null || typeof v !== 'object') return false;
    return (Array.isArray(v) ? v : Object.values(v)).some(walk);
  };
  return walk(value);
}

/**
 * Decide whether `text` (an MCP text block) and `structured` (`structuredContent`) describe the
 * same observation: canonical JSON equality when the text is a JSON object/array, otherwise
 * every number, date/time, id and quoted string in the text must agree with a structured value.
 * @example
 * compareContent('{"stock": 10}', { stock: 10 }).verdict // 'consistent'
 * compareContent('Stock is 12 units.', { stock: 10 }).verdict // 'mismatch'
 */
export function compareContent(text: string, structured: unknown, options: CompareContentOptions = {}): ContentComparison {
  const pointer = options.textPointer ?? '/content/0/text';
  const parsed = parseJsonContainer(text);
  if (parsed.ok) {
    const same = safeCanonical(parsed.value) !== null && safeCanonical(parsed.value) === safeCanonical(structured);
    if (same) return { verdict: 'consistent', mode: 'json', citable: true, findings: [] };
    const diffs: string[] = [];
    diffPointers(parsed.value, structured, '', diffs, MAX_DIFFS);
    const where = diffs.length === 0 ? '' : ` (differs at ${diffs.map((d) => (d === '' ? '(root)' : d)).join(', ')})`;
    return {
      verdict: 'mismatch',
      mode: 'json',
      citable: false,
      findings: [
        {
          rule: EVIDENCE_RULES.E7_JSON_MISMATCH,
          pointer,
          message: `text content is JSON but not the same value as structuredContent${where}`,
          severity: 'error',
        },
      ],
    };
  }
  // A text that is one of the structured values (a file returned as `{ content }` and as text)
  // states exactly what the data does: its numbers are part of that value, not claims about others.
  if (isStringValueOf(text, structured)) return { verdict: 'consistent', mode: 'values', citable: true, findings: [] };
  const values = extractTextValues(text);
  if (values.length === 0) return { verdict: 'unverifiable', mode: 'values', citable: true, findings: [] };
  const pool = emptyPool();
  addToPool(pool, structured, { keys: true });
  const findings: EvidenceFinding[] = [];
  for (const v of values) {
    if (textValueAgrees(v, pool)) continue;
    findings.push({
      rule: EVIDENCE_RULES.E7_VALUE_MISMATCH,
      pointer,
      message: `text states ${v.kind} "${v.raw}" that no value in structuredContent agrees with`,
      severity: 'error',
    });
  }
  return findings.length === 0
    ? { verdict: 'consistent', mode: 'values', citable: true, findings }
    : { verdict: 'mismatch', mode: 'values', citable: false, findings };
}
