/**
 * The summary zone (SPEC Z4/Z5): a deterministic description of what trimming left out,
 * labelled as a summary so it is never taken for the original data.
 */
import type { Summary, Trim } from '../contract/index.js';
import type { ListStatsJson } from './list-stats.js';

/** A list that lost items, with statistics of the items it lost. */
export interface OmittedList {
  /** Pointer of the list in the envelope. */
  readonly pointer: string;
  readonly total: number;
  readonly kept: number;
  readonly omitted: ListStatsJson;
}

/** What the summary describes. */
export interface SummaryInput {
  /** Trim records with envelope pointers. */
  readonly trims: readonly Trim[];
  readonly lists: readonly OmittedList[];
  readonly resourceUri: string | null;
}

const num = (n: number | undefined): string => (n === undefined ? '?' : String(n));

function describeList(list: OmittedList, fieldsCap: number): string {
  const omitted = list.total - list.kept;
  const names = Object.keys(list.omitted.fields);
  const shown = names.slice(0, fieldsCap);
  const parts: string[] = [];
  if (shown.length > 0) parts.push(`fields: ${shown.join(', ')}${names.length > shown.length ? `, +${names.length - shown.length} more` : ''}`);
  for (const name of shown) {
    const f = list.omitted.fields[name];
    if (f !== undefined && f.numeric > 0) parts.push(`${name}: min ${num(f.min)}, max ${num(f.max)}, sum ${num(f.sum)}`);
  }
  const v = list.omitted.values;
  if (v !== undefined && v.numeric > 0) parts.push(`values: min ${num(v.min)}, max ${num(v.max)}, sum ${num(v.sum)}`);
  return `${list.pointer || '/'}: ${omitted} of ${list.total} items omitted${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`;
}

function countKinds(trims: readonly Trim[]): string[] {
  const n = { chars: 0, field: 0, depth: 0 };
  for (const t of trims) {
    if (t.kind === 'chars') n.chars++;
    else if (t.kind === 'field') n.field++;
    else if (t.kind === 'depth') n.depth++;
  }
  const out: string[] = [];
  if (n.chars > 0) out.push(`${n.chars} string(s) shortened`);
  if (n.field > 0) out.push(`${n.field} object(s) lost fields`);
  if (n.depth > 0) out.push(`${n.depth} nested container(s) emptied`);
  return out;
}

/** The stats with only the first `cap` fields (already sorted by name). */
function pickFields(stats: ListStatsJson, cap: number): ListStatsJson {
  return { ...stats, fields: Object.fromEntries(Object.entries(stats.fields).slice(0, cap)) };
}

/** Detail levels tried from richest to poorest until one fits. */
const LEVELS = [
  { lists: 8, fields: 16, stats: true },
  { lists: 4, fields: 8, stats: true },
  { lists: 4, fields: 4, stats: false },
  { lists: 1, fields: 2, stats: false },
] as const;

/**
 * Build the richest summary for which `fits` holds, falling back to a one-line label.
 * Deterministic: the same input always yields the same summary.
 * @example buildSummary({ trims, lists, resourceUri: null }, () => true).label // 'summary'
 */
export function buildSummary(input: SummaryInput, fits: (s: Summary) => boolean): Summary {
  const lists = [...input.lists].sort((a, b) => b.total - b.kept - (a.total - a.kept) || (a.pointer < b.pointer ? -1 : 1));
  for (const level of LEVELS) {
    const shown = lists.slice(0, level.lists);
    const sentences = [
      'Summary of what was left out to fit the context budget (not the original data).',
      ...shown.map((l) => describeList(l, level.fields) + '.'),
    ];
    if (lists.length > shown.length) sentences.push(`${lists.length - shown.length} more list(s) lost items.`);
    const kinds = countKinds(input.trims);
    if (kinds.length > 0) sentences.push(kinds.join('; ') + '.');
    sentences.push('Exact counts per node are in completeness.trimmed.');
    if (input.resourceUri !== null) sentences.push(`Full result: ${input.resourceUri}`);
    const summary: Summary = { label: 'summary', text: sentences.join(' ') };
    if (level.stats) {
      summary.stats = {
        trimmed_nodes: input.trims.length,
        lists: shown.map((l) => ({ pointer: l.pointer, total: l.total, kept: l.kept, omitted: pickFields(l.omitted, level.fields) })),
      };
    }
    if (fits(summary)) return summary;
  }
  const short: Summary = { label: 'summary', text: 'Content was omitted to fit the budget; see completeness.trimmed.' };
  return fits(short) ? short : { label: 'summary', text: 'omitted' };
}
