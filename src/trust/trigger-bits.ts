/**
 * What the detector's fast path (trigger-scan) answers: one bit per scan of the detector, set
 * when that scan could find something in the text; a clear bit guarantees it finds nothing.
 */

/** One bit per scan the detector may skip. */
export const TRIGGER = {
  phrase: 1, marker: 2, hidden: 4, cjk: 8, encoded: 16,
  rot13: 32, reversed: 64, leet: 128, pigLatin: 256, spread: 512, tags: 1024, escapes: 2048,
} as const;
/** Every bit: the answer when the pass gives up on precision (tag characters). */
export const ALL_TRIGGERS = 4095;
/** Bits whose scan needs the word tokens. */
export const TOKEN_TRIGGERS = TRIGGER.phrase | TRIGGER.rot13 | TRIGGER.reversed | TRIGGER.leet | TRIGGER.pigLatin | TRIGGER.spread;
