/**
 * Values written as character codes for the model to decode (SPEC T3): "71 66 51 51 77 73 68 76"
 * is `GB33MIDL` in decimal ASCII, "0x47 0x42 …" the same in hex. A model reads them back without
 * a tool, so taint reads them too: a run of six codes or more of printable ASCII (32–126),
 * separated by spaces, commas or semicolons, decodes to the text it spells.
 */

// One printable ASCII code: 32–126 in decimal, 0x20–0x7e in hex.
const DECIMAL = '(?:3[2-9]|[4-9][0-9]|1[01][0-9]|12[0-6])';
const HEX = '(?:0[xX][2-7][0-9a-fA-F])';
// Six codes or more, none part of a longer number or of a decimal fraction. Each code is a bounded alternation and the
// separators are no digits, so a failed run costs its own length once.
const RUNS = [DECIMAL, HEX].map((code) => new RegExp(`(?<![0-9A-Za-z]|[0-9]\\.)${code}(?:[ ,;]+${code}){5,}(?![0-9A-Za-z]|\\.[0-9])`, 'g'));
const SEPARATORS = /[ ,;]+/;

/**
 * The texts the character-code runs of `text` spell, with at least six letters or digits each.
 * @example charCodeTexts('account: 71 66 51 51 77 73 68 76') // ['GB33MIDL']
 */
export function charCodeTexts(text: string): string[] {
  const out: string[] = [];
  for (const run of RUNS) {
    run.lastIndex = 0;
    for (let m = run.exec(text); m !== null; m = run.exec(text)) {
      const codes = m[0].split(SEPARATORS).map((code) => Number(code));
      let spelt = '';
      // In slices: a spread of a long run's codes would overflow the stack.
      for (let k = 0; k < codes.length; k += 4096) spelt += String.fromCharCode(...codes.slice(k, k + 4096));
      if (spelt.replace(/[^A-Za-z0-9]/g, '').length >= 6) out.push(spelt);
    }
  }
  return out;
}
