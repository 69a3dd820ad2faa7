/**
 * Values read out in words (SPEC T3). An injection can hand the model an account number the
 * way one reads it over the phone — "G B eight two, then W E S T, then one two three four …" —
 * for the model to write down as `GB82WEST1234…`. Taint reads each such stretch as the value it
 * spells, so the value's windows are found like any other. A stretch is a run of digit words
 * (English), spelling-alphabet words ("Golf Bravo"), single letters or digits, digit groups and
 * short capitalized letter groups, with a few filler words between them ("then", "and",
 * "dash"); it counts when it has at least four digit words, which ordinary prose rarely strings
 * together. One linear pass, after a native test that skips text with fewer than four digit
 * words at all. ASCII only: a value read out in another language is not read.
 */

/** Digit words a stretch needs: fewer is ordinary prose ("one or two of them"). */
const MIN_DIGIT_WORDS = 4;
/** Filler words in a row that still keep a stretch going. */
const MAX_FILLERS = 2;
const DIGIT_WORD = /\b(?:zero|one|two|three|four|five|six|seven|eight|nine)\b/gi;

/** What a word means in a value read out: a digit, a letter, a repeat of the next part, or a filler. */
type Meaning = { readonly digit: string } | { readonly letter: string } | { readonly times: number } | { readonly filler: true };
// The spelling alphabet (ICAO/NATO), "Golf Bravo" for GB.
const SPELLING = ['alfa', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima', 'mike',
  'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu'];
const LETTERS: Record<string, Meaning> = Object.fromEntries([
  ...SPELLING.map((w) => [w, { letter: w.charAt(0) }] as const),
  ['alpha', { letter: 'a' }], ['juliet', { letter: 'j' }], ['whisky', { letter: 'w' }],
]);
const MEANINGS: Readonly<Record<string, Meaning>> = {
  zero: { digit: '0' }, one: { digit: '1' }, two: { digit: '2' }, three: { digit: '3' }, four: { digit: '4' },
  five: { digit: '5' }, six: { digit: '6' }, seven: { digit: '7' }, eight: { digit: '8' }, nine: { digit: '9' },
  // "double five" is 55.
  double: { times: 2 }, triple: { times: 3 },
  // Words between the parts of a value read out, dropped.
  then: { filler: true }, and: { filler: true }, dash: { filler: true }, hyphen: { filler: true }, space: { filler: true },
  followed: { filler: true }, by: { filler: true }, next: { filler: true }, comma: { filler: true },
  ...LETTERS,
};
// The words above by length, to compare code units in place: most words of a text are none of
// them, and a lower-cased copy of each cost more than the rest of the pass.
const BY_LENGTH: readonly (readonly [string, Meaning][])[] = (() => {
  const table: [string, Meaning][][] = [];
  for (const [w, m] of Object.entries(MEANINGS)) (table[w.length] ??= []).push([w, m]);
  return table;
})();

/** The meaning of the letters `text[s, e)`, any case, or undefined. */
function meaningAt(text: string, s: number, e: number): Meaning | undefined {
  const candidates = BY_LENGTH[e - s];
  if (candidates === undefined) return undefined;
  next: for (const [word, meaning] of candidates) {
    for (let k = 0; k < word.length; k++) if ((text.charCodeAt(s + k) | 0x20) !== word.charCodeAt(k)) continue next;
    return meaning;
  }
  return undefined;
}

const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * The values `text` reads out in words, each as the characters it spells.
 * @example spokenValues('it is G B eight two, then W E S T, then one two three four.') // ['GB82WEST1234']
 */
export function spokenValues(text: string): string[] {
  if (!hasDigitWords(text)) return [];
  // A Set: a text can hold many stretches, and a list scan per stretch would be quadratic.
  const out = new Set<string>();
  let value = '';
  let digitWords = 0;
  let fillers = 0;
  let repeat = 1;
  const end = (): void => {
    if (digitWords >= MIN_DIGIT_WORDS) out.add(value);
    value = '';
    digitWords = 0;
    fillers = 0;
    repeat = 1;
  };
  const put = (piece: string): void => {
    value += piece.repeat(repeat);
    repeat = 1;
    fillers = 0;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (!isLetter(c) && !isDigit(c)) { i++; continue; }
    const s = i;
    let letters = 0;
    let upper = 0;
    while (i < text.length && (isLetter(text.charCodeAt(i)) || isDigit(text.charCodeAt(i)))) {
      const u = text.charCodeAt(i);
      if (isLetter(u)) { letters++; if (u <= 0x5a) upper++; }
      i++;
    }
    const w = i - s;
    if (letters === 0) { put(text.slice(s, i)); continue; } // a digit group
    if (w === 1 || (letters === w && upper === w && w <= 4)) { put(text.slice(s, i)); continue; } // a letter, "GB"
    const meaning = letters === w ? meaningAt(text, s, i) : undefined;
    if (meaning !== undefined && 'digit' in meaning) { put(meaning.digit); digitWords++; continue; }
    if (meaning !== undefined && 'letter' in meaning) { put(meaning.letter); continue; }
    if (meaning !== undefined && 'times' in meaning) { repeat = meaning.times; continue; }
    if (meaning !== undefined && value !== '' && fillers < MAX_FILLERS) { fillers++; continue; }
    if (value !== '' || repeat !== 1) end();
  }
  end();
  return [...out];
}

/** At least {@link MIN_DIGIT_WORDS} digit words anywhere in `text` (a native scan). */
function hasDigitWords(text: string): boolean {
  DIGIT_WORD.lastIndex = 0;
  for (let n = 0; n < MIN_DIGIT_WORDS; n++) if (DIGIT_WORD.exec(text) === null) return false;
  return true;
}
