/**
 * E-mail addresses as they occur in free text, found in one linear pass, and the key argument
 * taint compares them by. Taint traces runs of six significant characters; an address such as
 * `z@qz.io` has five, so it is traced as a whole address instead (an address is never a common
 * word, so a whole-address match is a flow, not a coincidence).
 */
import { foldCodePoint, INVISIBLE } from './normalize-text.js';
import { taintForm } from './taint-normalize.js';

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

// ASCII only: the structure of an address is ASCII (a quote mark or an ideographic full stop
// beside an address must end it, not join it). Local part: RFC 5322 atext and the dot.
const LOCAL = (() => {
  const t = new Uint8Array(128);
  for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~.-") t[c.charCodeAt(0)] = 1;
  return t;
})();
const isLocal = (c: number): boolean => c < 128 && LOCAL[c] === 1;
const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isDomain = (c: number): boolean => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;

/** Letters and digits of `text` in [start, end). */
function significantIn(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isLetter(c) || (c >= 0x30 && c <= 0x39)) n++;
  }
  return n;
}

/**
 * The addresses in `text`, as written, with fewer than `shorterThan` significant characters
 * (letters and digits; any number by default). Each `@` reads back over the local part and on
 * over the domain; neither crosses another `@`, so every character is read a bounded number of
 * times.
 * @example emailAddresses('write to Z@QZ.io, or ops@qz.io.') // ['Z@QZ.io', 'ops@qz.io']
 */
export function emailAddresses(text: string, shorterThan = Infinity): string[] {
  const out: string[] = [];
  const n = text.length;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < MAX_LOCAL && isLocal(text.charCodeAt(start - 1))) start--;
    while (start < at && text.charCodeAt(start) === 0x2e) start++;
    let end = at + 1;
    while (end < n && end - at <= MAX_DOMAIN && isDomain(text.charCodeAt(end))) end++;
    // A sentence's full stop or a dash after the address is not part of it.
    while (end > at + 1 && (text.charCodeAt(end - 1) === 0x2e || text.charCodeAt(end - 1) === 0x2d)) end--;
    if (start === at) continue;
    // The last label must be letters only (a top-level domain), two at least, after a dot.
    let dot = end - 1;
    while (dot > at && isLetter(text.charCodeAt(dot))) dot--;
    if (dot <= at + 1 || end - dot - 1 < 2 || text.charCodeAt(dot) !== 0x2e) continue;
    if (shorterThan !== Infinity && significantIn(text, start, end) >= shorterThan) continue;
    out.push(text.slice(start, end));
  }
  return out;
}

/**
 * `text` with every non-ASCII character folded as the detector folds it (full-width and
 * look-alike characters to ASCII, invisible ones dropped), so `ｚ＠ｑｚ．ｉｏ` and an address
 * with zero-width spaces inside read as addresses. ASCII text comes back as it is.
 */
function asciiFolded(text: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    const cp = text.codePointAt(i) ?? c;
    const folded = foldCodePoint(cp);
    parts.push(text.slice(from, i), folded === INVISIBLE ? '' : folded);
    if (cp > 0xffff) i++;
    from = i + 1;
  }
  if (from === 0) return text;
  parts.push(text.slice(from));
  return parts.join('');
}

/** An `@`, or a character that folds to one (full-width, small). */
const AT_SIGN = /[@\uff20\ufe6b]/;

/**
 * The key of each address in `text` with fewer than `shorterThan` significant characters
 * (letters and digits): each part in taint form (case and look-alikes folded, punctuation
 * dropped) with the `@` and the dots between domain labels kept, so `ab@c.de` and `a@bc.de`
 * stay apart.
 * @example addressKeys('Write to Z@QZ.io.') // ['z@qz.io']
 */
export function addressKeys(text: string, shorterThan = Infinity): string[] {
  const keys: string[] = [];
  if (!AT_SIGN.test(text)) return keys;
  for (const address of emailAddresses(asciiFolded(text), shorterThan)) {
    const at = address.indexOf('@');
    keys.push(`${taintForm(address.slice(0, at))}@${address.slice(at + 1).split('.').map(taintForm).join('.')}`);
  }
  return keys;
}

/**
 * The significant characters of an address key or a host name (all but `@`, `.` and `-`).
 * @example significantLength('z@qz.io') // 5
 */
export function significantLength(key: string): number {
  let n = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c !== 0x40 && c !== 0x2e && c !== 0x2d) n++;
  }
  return n;
}
