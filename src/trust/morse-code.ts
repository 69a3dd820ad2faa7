/**
 * Values written in Morse code for the model to decode (SPEC T3): "--. -... ...-- ...-- / -- .. -.. .-.."
 * is `GB33 MIDL`. A run of six letters or more in Morse — dots and dashes, letters apart by a
 * space, words by ` / ` or several spaces — is read as the text it spells. Prose has dashes and
 * ellipses, but not six Morse letters in a row with nothing else between them.
 */

const MORSE: Readonly<Record<string, string>> = {
  '.-': 'a', '-...': 'b', '-.-.': 'c', '-..': 'd', '.': 'e', '..-.': 'f', '--.': 'g', '....': 'h', '..': 'i', '.---': 'j',
  '-.-': 'k', '.-..': 'l', '--': 'm', '-.': 'n', '---': 'o', '.--.': 'p', '--.-': 'q', '.-.': 'r', '...': 's', '-': 't',
  '..-': 'u', '...-': 'v', '.--': 'w', '-..-': 'x', '-.--': 'y', '--..': 'z',
  '-----': '0', '.----': '1', '..---': '2', '...--': '3', '....-': '4', '.....': '5', '-....': '6', '--...': '7', '---..': '8', '----.': '9',
  '.-.-.-': '.', '.--.-.': '@', '-....-': '-', '-..-.': '/', '---...': ':',
};

// Six Morse letters or more: groups of 1–6 dots and dashes apart by spaces, words by a slash or
// a run of spaces. Bounded groups with distinct separators: a failed run costs its length once.
const RUN = /(?<![.\w-])[.-]{1,6}(?:(?: +\/ +| {1,3})[.-]{1,6}){5,}(?![.\w-])/g;

/**
 * The texts the Morse runs of `text` spell, with at least six letters or digits each.
 * @example morseTexts('pay --. -... ...-- ...-- / -- .. -.. .-..') // ['gb33 midl']
 */
export function morseTexts(text: string): string[] {
  if (!text.includes('.-') && !text.includes('-.')) return [];
  const out: string[] = [];
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
    let spelt = '';
    let known = 0;
    for (const word of m[0].split(/ +\/ +| {2,}/)) {
      for (const letter of word.split(' ')) {
        const ch = MORSE[letter];
        if (ch !== undefined) { spelt += ch; known++; }
      }
      spelt += ' ';
    }
    if (known >= 6 && spelt.replace(/[^a-z0-9]/g, '').length >= 6) out.push(spelt.trim());
  }
  return out;
}
