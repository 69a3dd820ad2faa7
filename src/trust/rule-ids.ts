/**
 * Every rule id the instruction detector can report, so that configuration naming rules to
 * leave out (`ignoreRules`, a tool's `ignoreDetectorRules`, the gateway's
 * `ignore_detector_rules`) is checked: a misspelt id would otherwise silently ignore nothing.
 */
import { TrcError } from '../contract/index.js';
import { CJK_RULE_IDS } from './cjk-phrases.js';
import { ENCODED_KINDS } from './encoded-payloads.js';
import { PHRASE_RULES } from './phrase-rule-set.js';
import { MARKER_RULE_IDS } from './marker-scan.js';
import { VIEW_NAMES } from './text-views.js';

const HIDDEN_RULE_IDS = ['hidden.tag-characters', 'hidden.bidi-controls', 'hidden.zero-width'];

let ids: ReadonlySet<string> | undefined;

/**
 * The ids, built once.
 * @example detectorRuleIds().has('override.dismiss-prior') // true
 */
export function detectorRuleIds(): ReadonlySet<string> {
  ids ??= new Set([
    ...PHRASE_RULES.map((r) => r.id), ...CJK_RULE_IDS, ...MARKER_RULE_IDS, ...HIDDEN_RULE_IDS,
    // `encoded.<kind>`: an encoded run that decodes to instructions; `obfuscated.<view>`: a decoding that shows them.
    ...ENCODED_KINDS.map((k) => `encoded.${k}`), ...VIEW_NAMES.map((v) => `obfuscated.${v}`),
  ]);
  return ids;
}

/**
 * The entries of an ignore list that name no rule: an entry is a rule id, or a prefix ending in
 * `.` (`'role.'`) that some id starts with. Each comes back with its index in the list.
 * @example unknownRuleEntries(['role.', 'override.dismis-prior']) // [{ index: 1, entry: 'override.dismis-prior' }]
 */
export function unknownRuleEntries(entries: readonly unknown[]): { index: number; entry: unknown }[] {
  const known = detectorRuleIds();
  const out: { index: number; entry: unknown }[] = [];
  entries.forEach((entry, index) => {
    if (typeof entry !== 'string') { out.push({ index, entry }); return; }
    const ok = entry.endsWith('.') ? entry.length > 1 && [...known].some((id) => id.startsWith(entry)) : known.has(entry);
    if (!ok) out.push({ index, entry });
  });
  return out;
}

/** Edit distance of two short strings (config-time only). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The known rule id closest to `entry`, when one is close enough to be what was meant.
 * @example nearestRuleId('override.dismis-prior') // 'override.dismiss-prior'
 */
export function nearestRuleId(entry: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(entry.length / 5)) + 1;
  for (const id of detectorRuleIds()) {
    const d = distance(entry, id);
    if (d < bestDistance) { best = id; bestDistance = d; }
  }
  return best;
}

/**
 * Why an ignore list is refused, one line per bad entry (with a near id when there is one), or
 * null when every entry names a rule. `pointer` is where the list sits in its configuration.
 * @example ignoreListProblems(['role.turnz'], '/ignoreDetectorRules') // [{ pointer: '/ignoreDetectorRules/0', message: '… did you mean "role.turn"?' }]
 */
export function ignoreListProblems(list: unknown, pointer: string): { pointer: string; message: string }[] | null {
  if (!Array.isArray(list)) return [{ pointer, message: 'must be a list of detector rule ids or prefixes ending in "."' }];
  const bad = unknownRuleEntries(list);
  if (bad.length === 0) return null;
  return bad.map(({ index, entry }) => {
    const near = typeof entry === 'string' ? nearestRuleId(entry) : undefined;
    const what = typeof entry === 'string' ? `"${entry}" names no detector rule` : 'must be a string';
    return { pointer: `${pointer}/${index}`, message: near === undefined ? `${what} (\`trc scan --list-rules\` prints them)` : `${what}; did you mean "${near}"?` };
  });
}

/**
 * Refuse a tool's ignore list that names no rule (`TOOL_DEFINITION_INVALID`, with the first
 * bad entry's pointer and every problem): what `defineTool` and the framework wrappers throw.
 * @example assertToolIgnoreList('helpdesk', ['role.turnz']) // throws: did you mean "role.turn"?
 */
export function assertToolIgnoreList(tool: string, list: unknown): void {
  const problems = ignoreListProblems(list, '/ignoreDetectorRules');
  if (problems === null) return;
  throw new TrcError('TOOL_DEFINITION_INVALID', `tool "${tool}": ${problems.map((p) => `${p.pointer}: ${p.message}`).join('; ')}`, { data: { pointer: problems[0]?.pointer, problems } });
}
