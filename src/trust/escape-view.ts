/**
 * The escape view of a text: URL percent-escapes, HTML entities and `\u`/`\x` escapes decoded one
 * level (the detector's `unescaped` decoding, and a view of argument taint).
 */
import { Builder, isDigit, isHex, isLetter, unchanged, type TextView } from './view-builder.js';

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', sol: '/', colon: ':', lpar: '(', rpar: ')',
  lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', vert: '|', excl: '!', quest: '?',
  period: '.', comma: ',', semi: ';', equals: '=', num: '#', dollar: '$', percnt: '%', ast: '*', plus: '+',
  hyphen: '-', dash: '-', lowbar: '_', bsol: '\\', grave: '`', tab: '\t', newline: '\n',
};

function hexValue(text: string, from: number, len: number): number {
  let v = 0;
  for (let k = from; k < from + len; k++) {
    const c = text.charCodeAt(k);
    if (!isHex(c)) return -1;
    v = v * 16 + (isDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10);
  }
  return v;
}

const UTF8 = new TextDecoder('utf-8');
/** A character that may begin an escape this view decodes. */
const ESCAPE_SIGN = /[%&\\]/;

/**
 * URL percent-escapes (UTF-8), HTML numeric and common named entities, and `\uXXXX`, `\u{…}`,
 * `\xXX` escapes decoded one level; decode again for nested escapes.
 */
export function unescapedView(text: string): TextView {
  // Most text has no escape at all: one native scan instead of a builder's three buffers.
  if (!ESCAPE_SIGN.test(text)) return unchanged(text);
  const b = new Builder(text);
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x25 && hexValue(text, i + 1, 2) >= 0) {
      // A run of %XX bytes decodes as UTF-8 together.
      const bytes: number[] = [];
      const s = i;
      while (i < n && text.charCodeAt(i) === 0x25 && hexValue(text, i + 1, 2) >= 0) { bytes.push(hexValue(text, i + 1, 2)); i += 3; }
      b.push(UTF8.decode(Uint8Array.from(bytes)), s, i);
      continue;
    }
    if (c === 0x26) {
      let j = i + 1;
      const numeric = text.charCodeAt(j) === 0x23;
      if (numeric) j++;
      const hex = numeric && (text.charCodeAt(j) | 0x20) === 0x78;
      if (hex) j++;
      const s = j;
      while (j < n && j - s < 8 && (hex ? isHex(text.charCodeAt(j)) : numeric ? isDigit(text.charCodeAt(j)) : isLetter(text.charCodeAt(j)))) j++;
      if (j > s && (text.charCodeAt(j) === 0x3b || numeric)) {
        const body = text.slice(s, j);
        const cp = numeric ? Number.parseInt(body, hex ? 16 : 10) : -1;
        const decoded = numeric ? (cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined) : NAMED_ENTITIES[body.toLowerCase()];
        if (decoded !== undefined) {
          const end = text.charCodeAt(j) === 0x3b ? j + 1 : j;
          b.push(decoded, i, end);
          i = end;
          continue;
        }
      }
    }
    if (c === 0x5c) {
      const kind = text.charCodeAt(i + 1);
      let cp = -1;
      let end = i;
      if (kind === 0x75 && text.charCodeAt(i + 2) === 0x7b) {
        let j = i + 3;
        while (j < n && j - i < 10 && isHex(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) === 0x7d && j > i + 3) { cp = hexValue(text, i + 3, j - i - 3); end = j + 1; }
      } else if (kind === 0x75) { cp = hexValue(text, i + 2, 4); end = i + 6; }
      else if (kind === 0x78) { cp = hexValue(text, i + 2, 2); end = i + 4; }
      if (cp >= 0 && cp <= 0x10ffff) {
        b.push(String.fromCodePoint(cp), i, end);
        i = end;
        continue;
      }
    }
    b.same(i);
    i++;
  }
  return b.done();
}

