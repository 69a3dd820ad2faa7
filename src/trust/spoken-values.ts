/**
 * Values read out in words (SPEC T3). An injection can hand the model an account number the
 * way one reads it over the phone — "G B eight two, then W E S T, then one two three four …" —
 * for the model to write down as `GB82WEST1234…`. Taint reads each such stretch as the value it
 * spells, so the value's windows are found like any other. A stretch is a run of digit words
 * (English), spelling-alphabet words ("Golf Bravo"), single letters or digits, digit groups and
 * short capitalized letter groups, with a few filler words between them ("then", "and",
 * "dash"); it counts when it has at least four digit words, which ordinary prose rarely strings
 * together. Digit words are read in sixteen languages written with spaces (digit-words), and
 * English pairs as people read them ("fifteen twelve", "thirty-four"); Chinese and Japanese
 * numerals are read digit by digit ("八二" for 82, the banking
 * forms "捌贰" too), which are written without spaces: there a numeral is a digit word, a few
 * filler words ("然后", "それから") keep the stretch going and any other ideograph ends it.
 * Korean numerals are read in words made only of them, two syllables or more ("팔이" for 82):
 * a numeral syllable alone is also an ordinary word or particle. Numbers written with place
 * units are read as the number (八十二 and 팔십이 for 82, 一千二百三十四 for 1234). Digits of
 * other scripts ("G B ٨٢") are read as ASCII digits. One linear pass, after a native test that
 * skips text with fewer than four digit words at all.
 */

import { withAsciiDigits } from './decimal-digits.js';
import { DIGIT_WORDS, FILLER_WORDS, TEENS, TENS } from './digit-words.js';
import { MAX_POSITIONAL_TOKENS, positionalValue } from './positional-numerals.js';

/** Digit words a stretch needs: fewer is ordinary prose ("one or two of them"). */
const MIN_DIGIT_WORDS = 4;
/** Filler words in a row that still keep a stretch going. */
const MAX_FILLERS = 2;
const DIGIT_OF = new Map<string, string>([
  ...DIGIT_WORDS.flatMap((words) => words.flatMap((w, d) => w.split('/').map((v) => [v, String(d)] as const))),
  ...TEENS.map((w, k) => [w, String(10 + k)] as const),
]);
// Letters of the words above (accents included), so \b does not cut "fünf" or "três".
const DIGIT_WORD = new RegExp(`(?<![\\p{L}\\p{N}])(?:${[...DIGIT_OF.keys(), ...TENS].sort((a, b) => b.length - a.length).join('|')})(?![\\p{L}\\p{N}])`, 'giu');

/** What a word means in a value read out: a digit, a letter, a repeat of the next part, or a filler. */
type Meaning =
  | { readonly digit: string } | { readonly tens: string } | { readonly letter: string; readonly orDigit?: string } | { readonly times: number } | { readonly filler: true };
// The spelling alphabet (ICAO/NATO), "Golf Bravo" for GB.
const SPELLING = ['alfa', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima', 'mike',
  'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu'];
const LETTERS: Record<string, Meaning> = Object.fromEntries([
  ...SPELLING.map((w) => [w, { letter: w.charAt(0) }] as const),
  ['alpha', { letter: 'a' }], ['juliet', { letter: 'j' }], ['whisky', { letter: 'w' }],
  // "Lima" spells L, and is 5 in Indonesian and Malay: the other reading of the stretch has the 5.
  ['lima', { letter: 'l', orDigit: '5' }],
]);
const MEANINGS: Readonly<Record<string, Meaning>> = {
  // Words between the parts of a value read out, dropped (a digit word of one language wins
  // over a filler of another: Czech "a" is "and", Swedish "tre" is 3).
  ...Object.fromEntries(FILLER_WORDS.map((w) => [w, { filler: true }])),
  ...Object.fromEntries([...DIGIT_OF].map(([w, d]) => [w, { digit: d }])),
  ...Object.fromEntries(TENS.map((w, k) => [w, { tens: String(2 + k) }])),
  // "double five" is 55.
  double: { times: 2 }, triple: { times: 3 },
  ...LETTERS,
};
// The ASCII words above by length and first letter, to compare code units in place: most words
// of a text are none of them, and a lower-cased copy of each cost more than the rest of the pass.
const keyOf = (length: number, first: number): number => length * 32 + ((first | 0x20) & 31);
const BY_KEY: ReadonlyMap<number, readonly [string, Meaning][]> = (() => {
  const table = new Map<number, [string, Meaning][]>();
  for (const [w, m] of Object.entries(MEANINGS)) {
    if (!/^[a-z]+$/.test(w)) continue;
    const k = keyOf(w.length, w.charCodeAt(0));
    table.set(k, [...(table.get(k) ?? []), [w, m]]);
  }
  return table;
})();

/** The meaning of the letters `text[s, e)`, any case, or undefined. */
function meaningAt(text: string, s: number, e: number, ascii: boolean): Meaning | undefined {
  if (!ascii) return e - s <= 10 ? MEANINGS[text.slice(s, e).toLowerCase()] : undefined;
  const candidates = BY_KEY.get(keyOf(e - s, text.charCodeAt(s)));
  if (candidates === undefined) return undefined;
  next: for (const [word, meaning] of candidates) {
    for (let k = 1; k < word.length; k++) if ((text.charCodeAt(s + k) | 0x20) !== word.charCodeAt(k)) continue next;
    return meaning;
  }
  return undefined;
}

// Chinese and Japanese numerals, digit by digit: the common forms, 〇 and 幺 (a spoken "one" in
// numbers), and the banking forms (simplified and traditional) written on cheques and invoices.
const CJK_NUMERALS = ['零〇', '一幺壹', '二两兩贰貳', '三叁參', '四肆', '五伍', '六陆陸', '七柒', '八捌', '九玖'];
// Korean numerals (Sino-Korean, as one reads digits), one syllable each. A syllable alone is an
// ordinary word (이 is also a particle, 오 an interjection), so only a word made of two numeral
// syllables or more counts: 팔이 (82), 일이삼사 (1234).
const HANGUL_NUMERALS = ['영공', '일', '이', '삼', '사', '오', '육륙', '칠', '팔', '구'];
// Place units (ten, hundred, thousand, ten thousand, hundred million), banking forms included.
const PLACE_UNITS = [10, 100, 1000, 10_000, 100_000_000];
/** Each numeral (the characters for 0, 1, … 9) → its digit, and each unit (for {@link PLACE_UNITS}) → the unit. */
const tokenOfChar = (numerals: readonly string[], units: readonly string[]): ReadonlyMap<number, number> => new Map([
  ...numerals.flatMap((chars, d) => [...chars].map((ch) => [ch.charCodeAt(0), d] as const)),
  ...units.flatMap((chars, k) => [...chars].map((ch) => [ch.charCodeAt(0), PLACE_UNITS[k] ?? 0] as const)),
]);
const CJK_TOKEN = tokenOfChar(CJK_NUMERALS, ['十拾', '百佰', '千仟', '万萬', '亿億']);
const HANGUL_TOKEN = tokenOfChar(HANGUL_NUMERALS, ['십', '백', '천', '만', '억']);
const CJK_NUMERAL = new RegExp(`[${CJK_NUMERALS.join('')}${HANGUL_NUMERALS.join('')}]`, 'g');
// Words between the parts of a number read out in Chinese or Japanese, dropped like "then".
const CJK_FILLERS = ['然后', '然後', '接着', '接著', '还有', '還有', '再', '和', 'それから', 'そして', '次に', 'と'];
/** An ideograph or kana: a character of Chinese or Japanese words (CJK punctuation is not). */
const isCjkWordUnit = (c: number): boolean => (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
const HANGUL_FILLERS = new Set(['그다음', '다음', '그리고', '그리고는', '이어서']);
const isHangul = (c: number): boolean => c >= 0xac00 && c <= 0xd7a3;

/** The length of the Chinese or Japanese filler word at `text[i]`, or 0. */
function cjkFillerAt(text: string, i: number): number {
  for (const f of CJK_FILLERS) if (text.startsWith(f, i)) return f.length;
  return 0;
}

const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** A Latin letter with a diacritic (Latin-1 and Latin Extended-A, "fünf", "três") or a Cyrillic one ("два"). */
const isAccented = (c: number): boolean =>
  (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) || (c >= 0x370 && c <= 0x3ff) || (c >= 0x400 && c <= 0x4ff) || (c >= 0x1e00 && c <= 0x1eff);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * The values `text` reads out in words, each as the characters it spells.
 * @example spokenValues('it is G B eight two, then W E S T, then one two three four.') // ['GB82WEST1234']
 */
export function spokenValues(input: string): string[] {
  if (!hasDigitWords(input)) return [];
  // Digit groups of other scripts ("G B ٨٢, then W E S T") read as the digits they are.
  const text = withAsciiDigits(input);
  // A Set: a text can hold many stretches, and a list scan per stretch would be quadratic.
  const out = new Set<string>();
  let value = '';
  // The same stretch read the other way where a word reads two ways: 四千五 as spoken Chinese
  // reads it (4,500, not 4,005), "lima" as Indonesian 5 rather than the spelling word for L.
  let alt = '';
  let digitWords = 0;
  let fillers = 0;
  let repeat = 1;
  const end = (): void => {
    if (digitWords >= MIN_DIGIT_WORDS) out.add(value).add(alt);
    value = '';
    alt = '';
    tensEnd = -1;
    digitWords = 0;
    fillers = 0;
    repeat = 1;
  };
  // Where English tens ("thirty", written 30) end in the value: a digit right after them is their ones.
  let tensEnd = -1;
  const put = (piece: string, altPiece = piece): void => {
    tensEnd = -1;
    value += piece.repeat(repeat);
    alt += altPiece.repeat(repeat);
    repeat = 1;
    fillers = 0;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isHangul(c)) {
      // A Korean word: digits when every syllable is a numeral, else a filler or the end.
      const s = i;
      while (i < text.length && isHangul(text.charCodeAt(i))) i++;
      // Korean writes 4,005 as 사천오: a digit after the last unit is the ones.
      const number = i - s >= 2 ? numberIn(text, s, i, HANGUL_TOKEN) : undefined;
      if (number !== undefined) { put(number.ones); digitWords += number.digits; continue; }
      if (value !== '' && fillers < MAX_FILLERS && HANGUL_FILLERS.has(text.slice(s, i))) { fillers++; continue; }
      if (value !== '' || repeat !== 1) end();
      continue;
    }
    if (c >= 0x3000) {
      if (CJK_TOKEN.has(c)) {
        const s = i;
        while (i < text.length && CJK_TOKEN.has(text.charCodeAt(i))) i++;
        // 四千五 is 4,005 in Japanese and 4,500 in spoken Chinese: both readings are kept.
        const number = numberIn(text, s, i, CJK_TOKEN);
        if (number !== undefined) { put(number.ones, number.placeBelow); digitWords += number.digits; continue; }
        // Not one number (二三十, "twenty or thirty"): a word like any other.
        if (value !== '' || repeat !== 1) end();
        continue;
      }
      if (isCjkWordUnit(c)) {
        const filler = value === '' ? 0 : cjkFillerAt(text, i);
        if (filler > 0 && fillers < MAX_FILLERS) { fillers++; i += filler; continue; }
        if (value !== '' || repeat !== 1) end();
        i++;
        continue;
      }
    }
    if (!isLetter(c) && !isDigit(c) && !isAccented(c)) { i++; continue; }
    const s = i;
    let letters = 0;
    let upper = 0;
    let accented = 0;
    for (let u = c; i < text.length; u = text.charCodeAt(++i)) {
      if (isLetter(u)) { letters++; if (u <= 0x5a) upper++; }
      else if (isAccented(u)) accented++;
      else if (!isDigit(u)) break;
    }
    const w = i - s;
    if (letters + accented === 0) { put(text.slice(s, i)); continue; } // a digit group
    if (accented === 0 && (w === 1 || (letters === w && upper === w && w <= 4))) { put(text.slice(s, i)); continue; } // a letter, "GB"
    const meaning = letters + accented === w ? meaningAt(text, s, i, accented === 0) : undefined;
    if (meaning !== undefined && 'digit' in meaning) {
      // "thirty four" and "thirty-four" are 34: the digit takes the place of the tens' zero.
      if (tensEnd === value.length && meaning.digit.length === 1 && meaning.digit !== '0') {
        value = value.slice(0, -1) + meaning.digit;
        alt = alt.slice(0, -1) + meaning.digit;
        tensEnd = -1;
        continue;
      }
      put(meaning.digit);
      digitWords += meaning.digit.length;
      continue;
    }
    if (meaning !== undefined && 'tens' in meaning) { put(`${meaning.tens}0`); digitWords += 2; tensEnd = value.length; continue; }
    if (meaning !== undefined && 'letter' in meaning) { put(meaning.letter, meaning.orDigit ?? meaning.letter); continue; }
    if (meaning !== undefined && 'times' in meaning) { repeat = meaning.times; continue; }
    if (meaning !== undefined && value !== '' && fillers < MAX_FILLERS) { fillers++; continue; }
    if (value !== '' || repeat !== 1) end();
  }
  end();
  return [...out];
}

/** A number read from numerals: in both readings of a digit after the last unit, and how many numerals it has. */
interface NumberRead {
  readonly ones: string;
  readonly placeBelow: string;
  readonly digits: number;
}

/**
 * The number `text[s, e)` writes in the numerals and units of `tokenOf`: digit by digit when it
 * has no unit, else by place ({@link positionalValue}); undefined when a character is neither,
 * or the units make no number.
 */
function numberIn(text: string, s: number, e: number, tokenOf: ReadonlyMap<number, number>): NumberRead | undefined {
  let numerals = '';
  let hasUnit = false;
  for (let k = s; k < e; k++) {
    const token = tokenOf.get(text.charCodeAt(k));
    if (token === undefined) return undefined;
    if (token < 10) numerals += String.fromCharCode(0x30 + token);
    else hasUnit = true;
  }
  if (!hasUnit) return { ones: numerals, placeBelow: numerals, digits: numerals.length };
  if (e - s > MAX_POSITIONAL_TOKENS) return undefined;
  const tokens: number[] = [];
  for (let k = s; k < e; k++) tokens.push(tokenOf.get(text.charCodeAt(k)) ?? -1);
  const ones = positionalValue(tokens, 'ones');
  // The readings differ only where a digit follows 百, 千, 万 or 億 directly.
  const placeBelow = ones !== null && tokens.some((t, k) => t >= 100 && (tokens[k + 1] ?? 0) > 0 && (tokens[k + 1] ?? 0) < 10) ? positionalValue(tokens, 'place_below') : ones;
  return ones === null || placeBelow === null ? undefined : { ones, placeBelow, digits: numerals.length };
}

/** At least {@link MIN_DIGIT_WORDS} digit words, or as many CJK numerals, anywhere in `text` (native scans). */
function hasDigitWords(text: string): boolean {
  return atLeast(DIGIT_WORD, text) || atLeast(CJK_NUMERAL, text);
}

function atLeast(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  for (let n = 0; n < MIN_DIGIT_WORDS; n++) if (pattern.exec(text) === null) return false;
  return true;
}
