/**
 * The readings of a text that taint compares (SPEC T3): what a model reading the text would take
 * from it besides its letters — decoded escapes, the text without its HTML tags, runs that
 * decode (base64, hex…), values read out in words, character codes, leetspeak and Morse code.
 */
import { charCodeTexts } from './char-codes.js';
import { leetWords } from './leet-tokens.js';
import { morseTexts } from './morse-code.js';
import { spokenValues } from './spoken-values.js';
import { decodedRunsByKind } from './taint-encodings.js';
import { unescapedTexts } from './taint-normalize.js';

/**
 * Every reading of trusted text that vouches for a value: the text, its decoded escapes, the text
 * without HTML tags, the runs that decode (base64, hex…), values read out in words, character
 * codes, leetspeak and Morse code.
 * @example trustedReadings('q=drop.box%40evil.test') // includes 'q=drop.box@evil.test'
 */
export function trustedReadings(text: string): string[] {
  const plain = [...unescapedTexts(text), ...untaggedTexts(text)];
  return [...plain, ...decodedRunsByKind(plain).flatMap((r) => unescapedTexts(r.text)), ...spokenValues(text), ...charCodeTexts(text), ...leetWords(text), ...morseTexts(text)];
}

/**
 * `text` without its HTML tags, and that text's decoded escapes, when it has tags: a page can
 * cut a value with them (`G<b>B3</b>3M<i>ID</i>L…`), which a model reading the page joins again.
 * Taint drops every whitespace anyway, so block tags need no space in their place.
 */
export function untaggedTexts(text: string): string[] {
  if (!text.includes('<')) return [];
  const untagged = text.replace(HTML_TAG, '');
  return untagged === text ? [] : unescapedTexts(untagged);
}

// An HTML tag, opening or closing, up to 256 characters: a bounded match that stops at the next
// `<`, so a page costs its length once (and no position map, unlike the detector's view).
const HTML_TAG = /<\/?[A-Za-z][^<>]{0,254}>/g;
