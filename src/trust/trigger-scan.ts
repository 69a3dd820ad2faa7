/**
 * The detector's fast path: one pass over the text as written, before any normalization, that
 * says which of the detector's scans could find anything. Each character is folded by table
 * lookup (fold-classes) the way the normalizer would fold it; words are hashed while read and
 * resolved with the detector's own lookup (word-lookup); the pass tracks
 *
 * - phrase rules: where each rule slot was last filled; a rule is a candidate when its last
 *   slot is filled and every other slot was filled within the rule's span (trigger-words,
 *   trigger-tables), and each candidate is kept for the phrase scan (phrase-candidates);
 * - marker positions (`<`, `[`, `{`, `(`, `##`, `label:`, `](`, `http://`, quoted keys), each
 *   probed by a bounded look-ahead (trigger-probes);
 * - hidden Unicode, CJK override anchors, tag characters;
 * - signs of each candidate decoding (ROT13/reversed/leet spellings, pig-latin words, spread
 *   letters, `$`/`@` inside words, HTML tags, escapes) and encoded chunks that decode.
 *
 * The answer is a bit set ({@link TRIGGER}); a clear bit guarantees that scan finds nothing, so
 * text with no bit set is not instructional and costs this pass only. Every condition is a
 * necessary one; property tests hold the pass to the full detector.
 */
import { chunkDecodes, spreadRunReaches } from './encoded-payloads.js';
import { astralEntry, foldEntry, K_CJK, K_HIDDEN, K_HIDDEN_IN_WORD, K_MULTI, K_SEP, K_SKIP, K_SPACE, K_WORD, kindOfFolded, multiFold } from './fold-classes.js';
import { pushEncodedAt, resetTokens, tokensUnusable } from './fast-tokens.js';
import { isLetterUnit } from './normalize-text.js';
import { isKnownWord } from './phrase-matcher.js';
import { anyPigWordDecodes, isEmailAt, isGluedTag } from './text-views.js';
import * as raw from './raw-classes.js';
import { upperAfterLower } from './raw-classes.js';
import * as bits from './trigger-bits.js';
import { hashProbe, jsonProbe, labelProbe, tagProbe, urlEnd, urlProbe } from './trigger-probes.js';
import type { TriggerTables } from './trigger-tables.js';
import { endWord, F_OTHER, MAX_WORD, startWords, units } from './trigger-words.js';
import { HASH_BASE } from './word-index.js';

export { ALL_TRIGGERS, TOKEN_TRIGGERS, TRIGGER } from './trigger-bits.js';

// Local copies: imported bindings, read in the per-character loop, cost it ~8 % (A/B).
const { CHUNK_AND, RAW, R_BASE64, R_BIN, R_CHUNK_SHIFT, R_DIGIT, R_GAP, R_HEX, R_LETTER, R_LOWER, R_SIGN, R_SPREAD, R_UPPER } = raw;
const { ALL_TRIGGERS, TRIGGER } = bits;

// The pass's state shared with its helpers (module scope: no closure per call).
let tables: TriggerTables;
let prevChunk = -1;
let prevEncoded = false;
let prevPadded = false;
let mdUntil = 0;
let httpUntil = 0;

/** Whether a chunk that ended needs {@link endChunk}: long, or looks encoded, or follows one that does. */
function chunkEnds(s: number, base: number, pad: number, f: number): boolean {
  if (base >= 16 || (f & 36) !== 0 || prevEncoded) return true;
  prevChunk = s;
  prevPadded = pad > 0;
  return false;
}

// Units where a structural marker (or one of its probes) starts.
const isMarkerUnit = (u: number): boolean => u === 0x3c || u === 0x5b || u === 0x7b || u === 0x28 || u === 0x23 || u === 0x3a || u === 0x5d || u === 0x22 || u === 0x27;

/** The last word (`len` units, ASCII from `asciiFrom`) reads as the end of a line label. */
function isLabelEnd(len: number, asciiFrom: number): boolean {
  if (len > MAX_WORD) return true;
  let h = 0;
  for (let k = asciiFrom; k < len; k++) h = (Math.imul(h, HASH_BASE) + (units[k] ?? 0)) | 0;
  return len > asciiFrom && tables.labelEnds.get(asciiFrom === 0 ? units : units.subarray(asciiFrom), len - asciiFrom, h, 0) === 1;
}

function endsWithHttp(len: number): boolean {
  if (len > MAX_WORD) return true;
  const k = len - (units[len - 1] === 0x73 ? 5 : 4);
  return k >= 0 && units[k] === 0x68 && units[k + 1] === 0x74 && units[k + 2] === 0x74 && units[k + 3] === 0x70;
}

/**
 * A folded unit that can start a marker (`u`, raw offset after it `next`). `lastLen` is the
 * length of the word just before it when only spaces came between (-1 otherwise); `glued`
 * says nothing came between.
 */
function markerAt(text: string, u: number, next: number, lastLen: number, asciiFrom: number, glued: boolean): boolean {
  const t = tables;
  if (u === 0x3a) {
    if (lastLen >= 0 && isLabelEnd(lastLen, asciiFrom) && labelProbe(text, next - 1)) return true;
    if (!glued || lastLen < 0 || !endsWithHttp(lastLen) || next < httpUntil) return false;
    const hit = urlProbe(text, next, true);
    httpUntil = urlEnd;
    return hit;
  }
  if (u === 0x5d) {
    if (next < mdUntil) return false;
    const hit = urlProbe(text, next, false);
    mdUntil = urlEnd;
    return hit;
  }
  if (u === 0x23) return hashProbe(text, next, t.hashWords);
  if (u === 0x22 || u === 0x27) return jsonProbe(text, next, u, t.jsonKeys);
  return tagProbe(text, next, u, t.tagWords);
}

/**
 * A chunk of base64-like characters ended: does it, or a spread-out run it joins, decode? Most
 * chunks are short plain words, which only become the previous chunk (see {@link chunkEnds}).
 */
function endChunk(text: string, s: number, base: number, pad: number, f: number, gapOk: boolean): number {
  // f: 1 upper, 2 lower, 4 digit, 8 hex only, 16 binary, 32 mixed case
  const w = base + pad;
  let bits = 0;
  const decodable = (f & 16 && base >= 32 && base % 8 === 0) || (f & 8 && base % 2 === 0) || (f & 1 && f & 6);
  if (base >= 16 && decodable && chunkDecodes(text, s)) { bits = TRIGGER.encoded; pushEncodedAt(s); }
  const enc = (f & 32) !== 0 || ((f & 4) !== 0 && (f & 3) !== 0) || ((f & 8) !== 0 && w <= 8 && (f & 4) !== 0) || ((f & 16) !== 0 && w === 8);
  if (bits === 0 && prevChunk >= 0 && !prevPadded && gapOk && (prevEncoded || enc) && spreadRunReaches(text, prevChunk)) { bits = TRIGGER.encoded; pushEncodedAt(prevChunk); }
  prevChunk = s;
  prevEncoded = enc;
  prevPadded = pad > 0;
  return bits;
}

/**
 * Which scans of the detector could fire on `text` (bits of {@link TRIGGER}); 0 when none can.
 * @example scanTriggers('The meeting moved to Tuesday.') // 0
 */
export function scanTriggers(text: string): number {
  tables = startWords();
  prevChunk = -1; mdUntil = 0; httpUntil = 0;
  resetTokens();
  const n = text.length;
  let mask = 0;
  // The word being read (folded units), and the last word while only spaces followed it.
  let wlen = 0;
  let wstart = 0;
  let wend = 0;
  let wh = 0;
  let wflags = 0;
  let asciiFrom = 0;
  let lastLen = -1;
  let lastAsciiFrom = 0;
  let lastUnit = 0x20;
  // The text as written: letters, spread letters, signs, the base64-like chunk being read.
  let spread = 0;
  let spreadGap = 0;
  let leetSigns = 0;
  let tags = 0;
  let escapes = 0;
  let cs = -1;
  let cBase = 0;
  let cPad = 0;
  let cf = 0; // 1 upper, 2 lower, 4 digit, 8 hex only, 16 binary only, 32 mixed case
  let gap = 0;
  let gapBroken = false;
  let i = 0;
  let prev = 0;
  let c = n > 0 ? text.charCodeAt(0) : 0;
  while (i < n) {
    const r = RAW[c] ?? 0;
    if ((r & (R_LETTER | R_DIGIT)) !== 0) {
      // A run of ASCII letters and digits, nearly all of any text: one tight loop for the chunk
      // (as written: case, digits, hex, bits) and the word (folded to lower case) it belongs to.
      if (cs < 0 || cPad > 0) {
        if (cs >= 0) { if (chunkEnds(cs, cBase, cPad, cf)) mask |= endChunk(text, cs, cBase, cPad, cf, !gapBroken && gap >= 1 && gap <= 2); gap = 0; gapBroken = false; }
        cs = i; cBase = 0; cPad = 0; cf = 8 | 16;
      }
      if (wlen === 0) { wflags = 0; asciiFrom = 0; wh = 0; wstart = i; }
      const runStart = i;
      const before = prev;
      let p = prev;
      let cc = c;
      let rr = r;
      let len = wlen;
      let h = wh;
      let all = 0xffff; // the classes every unit of the run has, and (below) any unit has
      let any = 0;
      let rest = 0; // the classes of the units after the first (and of the one ending the run)
      const us = units;
      for (;;) {
        all &= rr;
        any |= rr;
        const u = cc | (rr & R_LETTER) << 5;
        if (len < MAX_WORD) { us[len] = u; h = (Math.imul(h, HASH_BASE) + u) | 0; }
        len++;
        i++;
        p = cc;
        if (i >= n) { cc = 0; break; }
        cc = text.charCodeAt(i);
        rr = RAW[cc] ?? 0;
        rest |= rr;
        if ((rr & (R_LETTER | R_DIGIT)) === 0) break;
      }
      cBase += i - runStart;
      // The chunk's flags from the run's classes, as each unit would have set them.
      // R_HEX (16) and R_BIN (1024) of every unit keep flags 8 and 16.
      cf = (cf | ((any >> R_CHUNK_SHIFT) & 7)) & (39 | ((all & R_HEX) >> 1) | ((all & R_BIN) >> 6));
      // Mixed case needs an upper-case letter after the run's first: "The" is not read again.
      if ((cf & 32) === 0 && (rest & R_UPPER) !== 0 && (any & R_LOWER) !== 0 && upperAfterLower(text, runStart, i)) cf |= 32;
      wlen = len; wh = h; wflags |= any; wend = i; prev = p; c = cc;
      // Spread-out letters ("i g n o r e"): only the run's last letter can stand alone (never in
      // a run of two letters or more).
      if ((all & R_LETTER) !== 0 && i - runStart >= 2) spread = 0;
      else if (((RAW[p] ?? 0) & R_LETTER) !== 0 && ((RAW[i - 1 > runStart ? text.charCodeAt(i - 2) : before] ?? 0) & R_LETTER) === 0) {
        spread = i - 1 === runStart && spread > 0 && spreadGap >= 1 && spreadGap <= 3 ? spread + 1 : 1;
        spreadGap = 0;
        if (spread >= 4) mask |= TRIGGER.spread;
      } else spread = 0;
      // Seven runs in ten end at a space: it is read below, in this same turn of the loop.
      if (c !== 0x20) continue;
    }
    const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
    if (c === 0x20) {
      // A space, the next most common: ends the chunk and the word.
      if (cs >= 0) { if (chunkEnds(cs, cBase, cPad, cf)) mask |= endChunk(text, cs, cBase, cPad, cf, !gapBroken && gap >= 1 && gap <= 2); cs = -1; gap = 0; gapBroken = false; }
      gap++;
      if (spread > 0 && ++spreadGap > 3) spread = 0;
      if (wlen > 0) {
        mask |= endWord(wlen, wh, wflags & (R_LETTER | R_DIGIT | F_OTHER), wstart, wend);
        lastLen = wlen;
        lastAsciiFrom = asciiFrom;
        wlen = 0;
      }
      lastUnit = 0x20;
      prev = c;
      c = next;
      i++;
      continue;
    }
    // --- the text as written ---
    if ((r & R_BASE64) !== 0) {
      if (cs < 0 || cPad > 0) {
        if (cs >= 0) { if (chunkEnds(cs, cBase, cPad, cf)) mask |= endChunk(text, cs, cBase, cPad, cf, !gapBroken && gap >= 1 && gap <= 2); gap = 0; gapBroken = false; }
        cs = i; cBase = 0; cPad = 0; cf = 8 | 16;
      }
      cf &= CHUNK_AND[c] ?? 0;
      cBase++;
    } else if (c === 0x3d && cs >= 0 && cBase + cPad < 256) cPad++;
    else {
      if (cs >= 0) { if (chunkEnds(cs, cBase, cPad, cf)) mask |= endChunk(text, cs, cBase, cPad, cf, !gapBroken && gap >= 1 && gap <= 2); cs = -1; gap = 0; gapBroken = false; }
      if ((r & R_GAP) !== 0) gap++;
      else gapBroken = true;
    }
    if (spread > 0 && (r & R_SPREAD) !== 0) { if (++spreadGap > 3) spread = 0; } else spread = 0;
    if ((r & R_SIGN) !== 0) {
      if (c === 0x24 || c === 0x40) {
        if (((RAW[prev] ?? 0) & (RAW[next] ?? 0) & R_LETTER) !== 0 && (c === 0x24 || !isEmailAt(text, i)) && ++leetSigns >= 3) mask |= TRIGGER.leet;
      } else if (c === 0x3c) {
        if ((mask & TRIGGER.tags) === 0 && (((RAW[next] ?? 0) & R_LETTER) !== 0 || next === 0x2f)) {
          let j = i + 1;
          while (j < n && j - i < 256 && text.charCodeAt(j) !== 0x3e && text.charCodeAt(j) !== 0x3c) j++;
          if (j < n && text.charCodeAt(j) === 0x3e && isGluedTag(text, i, j) && ++tags >= 2) mask |= TRIGGER.tags;
        }
      } else if (c === 0x25) {
        if (((RAW[next] ?? 0) & R_HEX) !== 0 && i + 2 < n && ((RAW[text.charCodeAt(i + 2)] ?? 0) & R_HEX) !== 0 && ++escapes >= 2) mask |= TRIGGER.escapes;
      } else if (c === 0x26) {
        if ((next === 0x23 || ((RAW[next] ?? 0) & R_LETTER) !== 0) && ++escapes >= 2) mask |= TRIGGER.escapes;
      } else if (next === 0x75 || next === 0x78) { // backslash
        if (++escapes >= 2) mask |= TRIGGER.escapes;
      }
    }
    // --- the text as the normalizer folds it ---
    let e: number;
    let cp = c;
    let size = 1;
    if (c < 0x80) e = (r & R_GAP) !== 0 || c === 0x0b || c === 0x0c ? (K_SPACE << 16) | 0x20 : (K_SEP << 16) | c;
    else if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      cp = ((c - 0xd800) << 10) + (next - 0xdc00) + 0x10000;
      if (cp >= 0xe0000 && cp <= 0xe007f) { tokensUnusable(); return ALL_TRIGGERS; } // tag characters smuggle ASCII
      e = astralEntry(cp);
      size = 2;
    } else e = foldEntry(c);
    i += size;
    prev = size === 1 ? c : next;
    c = size === 1 ? next : i < n ? text.charCodeAt(i) : 0;
    let kind = e >>> 16;
    if (kind === K_SKIP) continue;
    if (kind === K_HIDDEN_IN_WORD) { if (isLetterUnit(wlen > 0 ? units[Math.min(wlen, MAX_WORD) - 1] ?? 0 : lastUnit)) mask |= TRIGGER.hidden; continue; }
    if (kind === K_HIDDEN) { mask |= TRIGGER.hidden; continue; }
    // Most characters fold to one unit; a few to several ("…" → "...", "ﬁ" → "fi").
    const folded = kind === K_MULTI ? multiFold(cp) : '';
    const count = folded === '' ? 1 : folded.length;
    for (let k = 0; k < count; k++) {
      let u = e & 0xffff;
      if (folded !== '') { u = folded.charCodeAt(k); kind = kindOfFolded(u); }
      if (kind === K_WORD) {
        if (wlen === 0) { wflags = 0; asciiFrom = 0; wh = 0; wstart = i - size; }
        if (wlen < MAX_WORD) { units[wlen] = u; wh = (Math.imul(wh, HASH_BASE) + u) | 0; }
        if (u < 0x80) wflags |= (RAW[u] ?? 0) & (R_LETTER | R_DIGIT);
        else { wflags |= F_OTHER; asciiFrom = wlen + 1; }
        wlen++;
        wend = i;
        continue;
      }
      const glued = wlen > 0;
      if (glued) {
        lastUnit = units[Math.min(wlen, MAX_WORD) - 1] ?? 0;
        mask |= endWord(wlen, wh, wflags & (R_LETTER | R_DIGIT | F_OTHER), wstart, wend);
        lastLen = wlen;
        lastAsciiFrom = asciiFrom;
        wlen = 0;
      }
      if (kind === K_SPACE || u === 0x20) { lastUnit = 0x20; continue; }
      if (kind === K_CJK) mask |= TRIGGER.cjk;
      if ((mask & TRIGGER.marker) === 0 && isMarkerUnit(u)) {
        // A marker unit inside a multi-unit fold is not probed: taken as a marker.
        if (folded !== '' || markerAt(text, u, i, lastLen, lastAsciiFrom, glued)) mask |= TRIGGER.marker;
      }
      lastLen = -1;
      lastUnit = u;
    }
  }
  if (wlen > 0) mask |= endWord(wlen, wh, wflags & (R_LETTER | R_DIGIT | F_OTHER), wstart, wend);
  if (cs >= 0 && chunkEnds(cs, cBase, cPad, cf)) mask |= endChunk(text, cs, cBase, cPad, cf, !gapBroken && gap >= 1 && gap <= 2);
  if ((mask & TRIGGER.pigLatin) !== 0 && !anyPigWordDecodes(text, (w) => isKnownWord(tables.matcher, w))) mask &= ~TRIGGER.pigLatin;
  return mask;
}
