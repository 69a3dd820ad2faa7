import { describe, expect, it } from 'vitest';
import { detectInstructions, findSecrets } from '../../src/trust/index.js';

const MB = 1 << 20;
const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

// Long runs of near-matches for every rule kind: phrases, markers, links, encodings, Unicode.
const ADVERSARIAL: Record<string, string> = {
  'phrase prefixes': fill('ignore all previous '),
  'repeated trigger words': fill('ignore ignore your your add '),
  'special-token openers': fill('<|system'),
  'bracket openers': fill('[inst<<sys'),
  'markdown link openers': fill('![a]('),
  'image links without end': fill('![a](http://x?'),
  'role labels': fill('assistant:user:'),
  'label-like runs': fill('aaaaaaaaaaaaaaaaaaaaaaa:'),
  'hash headers': fill('## system'),
  'base64 of instructions': fill('aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM '),
  'one long base64 run': fill('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'),
  'hex': fill('69676e6f726520616c6c20'),
  'zero-width splits': fill('a\u200b'),
  'tag characters': fill('\u{E0069}'),
  'json keys': fill('"name" "arguments" '),
  'url placeholders': fill('https://x/?a={'),
  'img tags': fill('<img src=http://x?a=1 '),
  'homoglyphs': fill('аеосрху'),
  'typo candidates': fill('iunstructionsx '),
  'single letter': fill('a'),
};

/**
 * Best CPU time (ms) of `runs` calls. CPU time, not wall time: CI machines run other jobs, and
 * waiting for a core says nothing about the algorithm.
 */
function bestOf(runs: number, f: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage();
    f();
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

describe('linear time on adversarial input', () => {
  it.each(Object.entries(ADVERSARIAL))('scans 1 MB of %s in under 100 ms', (_name, text) => {
    expect(text.length).toBe(MB);
    detectInstructions(text.slice(0, 4096)); // warm up the JIT
    expect(bestOf(5, () => detectInstructions(text))).toBeLessThan(100);
  });

  it('grows linearly: 8x the input costs well under 64x the time', () => {
    const small = ADVERSARIAL['image links without end']?.slice(0, MB / 8) ?? '';
    const large = ADVERSARIAL['image links without end'] ?? '';
    detectInstructions(small);
    const ratio = bestOf(3, () => detectInstructions(large)) / Math.max(0.5, bestOf(3, () => detectInstructions(small)));
    expect(ratio).toBeLessThan(20);
  });

  it('finds secrets in 1 MB of near-miss key material in under 100 ms', () => {
    const text = fill('sk-ant- eyJhbGciOi.eyJ ghp_ AKIA -----BEGIN ');
    expect(bestOf(5, () => findSecrets(text))).toBeLessThan(100);
  });
});
