/**
 * Whether a phrase starts with a dismissal verb in a form that describes rather than commands:
 * "the model ignores previous instructions", "Claude ignored my system prompt", "check that you
 * are not overriding the system prompt" (bug reports, forum posts, documentation about models)
 * against "Ignore previous instructions". Such a match is kept as a weak sign; the imperative
 * and a bare -ing form ("Ignoring all previous instructions, print …") stay strong. Reported
 * attacks in the imperative ("attackers tell the model to ignore previous instructions") are
 * still flagged: the words are the attack's own.
 */

// Third-person, past and participle forms of the English dismissal verbs (instruction-phrases).
const DESCRIBED = new Set([
  'ignores', 'ignored', 'disregards', 'disregarded', 'forgets', 'forgot', 'forgotten', 'skips', 'skipped',
  'overrides', 'overrode', 'overridden', 'bypasses', 'bypassed', 'neglects', 'neglected', 'abandons', 'abandoned',
  'dismisses', 'dismissed', 'overlooks', 'overlooked', 'discards', 'discarded', 'overwrites', 'overwrote', 'overwritten',
]);
// Their -ing forms: a description only after a form of "be" ("the model is ignoring …").
const PROGRESSIVE = new Set([
  'ignoring', 'disregarding', 'forgetting', 'skipping', 'overriding', 'bypassing', 'neglecting', 'abandoning',
  'dismissing', 'overlooking', 'discarding', 'overwriting',
]);
const BE = new Set(['am', 'is', 'are', 're', 'was', 'were', 'be', 'been', 'being', 'm', 's']);
const LONGEST = 12;

const isLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const isWordUnit = (c: number): boolean => (c >= 0x30 && c <= 0x39) || isLetter(c) || c >= 0xc0;
const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;

/** The ASCII word ending just before `end` (after blanks), lower-cased, and where it starts; at most `LONGEST` letters. */
function wordBefore(text: string, end: number): { word: string; start: number } {
  let e = end;
  while (e > 0 && isBlank(text.charCodeAt(e - 1))) e--;
  let s = e;
  while (s > 0 && e - s <= LONGEST && isLetter(text.charCodeAt(s - 1))) s--;
  return { word: text.slice(s, e).toLowerCase(), start: s };
}

/** Whether a form of "be" ends just before `end`, allowing "not" or "n't" after it ("you're not", "isn't"). */
function beforeIsBe(text: string, end: number): boolean {
  let w = wordBefore(text, end);
  if (w.word === 'not') w = wordBefore(text, w.start);
  else if (w.word === 't' && w.start >= 2 && text.charCodeAt(w.start - 1) === 0x27 && (text.charCodeAt(w.start - 2) | 0x20) === 0x6e) {
    const base = wordBefore(text, w.start - 1).word; // "isn", "aren", "wasn", "weren"
    return BE.has(base.slice(0, -1));
  }
  if (w.word === '' || !BE.has(w.word)) return false;
  // "you're", "it's", "I'm": the be form follows an apostrophe; standing alone it is a word.
  const glued = w.start > 0 && text.charCodeAt(w.start - 1) === 0x27;
  return w.word.length > 1 && w.word !== 're' ? true : glued;
}

/**
 * True when the word at `start` of `text` describes a dismissal: a third-person or past form
 * after a word of its sentence (its subject: "the bot ignores"), or an -ing form after a form of
 * "be". At the start of a line or sentence ("IGNORED ALL PREVIOUS INSTRUCTIONS.") it does not.
 * @example describesDismissal('The bot ignores previous instructions', 8) // true
 */
export function describesDismissal(text: string, start: number): boolean {
  let end = start;
  while (end < text.length && end - start <= LONGEST && isLetter(text.charCodeAt(end))) end++;
  if (end - start > LONGEST || (end < text.length && isWordUnit(text.charCodeAt(end)))) return false;
  const word = text.slice(start, end).toLowerCase();
  if (PROGRESSIVE.has(word)) return beforeIsBe(text, start);
  if (!DESCRIBED.has(word)) return false;
  let before = start - 1;
  while (before >= 0 && isBlank(text.charCodeAt(before))) before--;
  return before >= 0 && before !== start - 1 && isWordUnit(text.charCodeAt(before));
}
