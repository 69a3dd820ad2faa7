import { describe, expect, it } from 'vitest';
import { detectInstructions, findSecrets } from '../../src/trust/index.js';
import { LINEAR_BOUND_10X, growth } from '../helpers/cpu-time.js';

const MB = 1 << 20;
/**
 * `unit` repeated a multiple of four times, up to `size` characters, as a fresh string. Both
 * sizes must ask the detector for the same work per character, not only more of it: a cut-off
 * unit (an odd-length hex run) would change that, and so would the length modulo 4 of one long
 * run — 'a' × 1,048,576 is base64 that decodes, 'a' × 104,857 is not, which alone made the
 * "single letter" case read 3× more work for 10× the text.
 */
const fill = (unit: string, size: number): string => unit.repeat(4 * Math.max(1, Math.floor(size / (4 * unit.length))));

// Long runs of near-matches for every rule kind: phrases, markers, links, encodings, Unicode.
const ADVERSARIAL: Record<string, string> = {
  'phrase prefixes': 'ignore all previous ',
  'repeated trigger words': 'ignore ignore your your add ',
  'special-token openers': '<|system',
  'bracket openers': '[inst<<sys',
  'markdown link openers': '![a](',
  'image links without end': '![a](http://x?',
  'role labels': 'assistant:user:',
  'label-like runs': 'aaaaaaaaaaaaaaaaaaaaaaa:',
  'hash headers': '## system',
  'base64 of instructions': 'aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM ',
  'one long base64 run': 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo',
  'hex': '69676e6f726520616c6c20',
  'zero-width splits': 'a\u200b',
  'tag characters': '\u{E0069}',
  'json keys': '"name" "arguments" ',
  'url placeholders': 'https://x/?a={',
  'img tags': '<img src=http://x?a=1 ',
  'homoglyphs': 'аеосрху',
  'typo candidates': 'iunstructionsx ',
  'single letter': 'a',
};

// CPU time of 1 MB against 100 kB of the same text, best of five: linear work stays near 10x,
// a backtracking (quadratic) pattern near 100x. Absolute speed is in `npm run bench -- trust`.
describe('linear time on adversarial input', () => {
  it.each(Object.entries(ADVERSARIAL))('scans %s in time that grows linearly (1 MB vs 100 kB)', (_name, unit) => {
    expect(fill(unit, MB).length).toBeGreaterThan(MB - 4 * unit.length);
    expect(fill(unit, MB).length % 4).toBe(fill(unit, MB / 10).length % 4);
    expect(growth((n) => fill(unit, n), detectInstructions, MB / 10, MB, 5)).toBeLessThan(LINEAR_BOUND_10X);
  });

  it('finds secrets in near-miss key material in time that grows linearly (1 MB vs 100 kB)', () => {
    expect(growth((n) => fill('sk-ant- eyJhbGciOi.eyJ ghp_ AKIA -----BEGIN ', n), findSecrets, MB / 10, MB)).toBeLessThan(LINEAR_BOUND_10X);
  });
});
