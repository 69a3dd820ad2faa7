import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTiktokenCounter, gptTokenizerO200kCounter, o200kCounter } from '../../src/budget/index.js';
import { isTrcError } from '../../src/contract/index.js';
import { HEAP_THRESHOLD } from '../../src/budget/bpe-merge.js';
import { o200kPieces } from '../../src/budget/o200k-split.js';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { LINEAR_BOUND_10X, cpuMs, growth } from '../helpers/cpu-time.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../..');
/** Text files of the repository: prose in several languages, JSON, code. */
const TEXT_FILES = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json')).map((f) => `examples/${f}`),
  'test/trust/fixtures/injections.jsonl',
  'test/trust/fixtures/benign.jsonl',
];
const reference = gptTokenizerO200kCounter;

/**
 * A second, deliberately naive reference: tiktoken's algorithm written plainly over a Map of
 * latin1 strings read from the same rank file. gpt-tokenizer decodes byte pairs with a default
 * TextDecoder, which drops a leading U+FEFF (BOM), so for text holding U+FEFF it is not o200k
 * (e.g. "\uFEFF" is token 5574, one token; gpt-tokenizer says two). Such text is checked here.
 */
const naive = (() => {
  let ranks: Map<string, number> | null = null;
  const rankOf = (bytes: Buffer): number | undefined => ranks?.get(bytes.toString('latin1'));
  return (text: string): number => {
    ranks ??= new Map(
      readFileSync(createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => {
          const [b64, rank] = l.split(' ');
          return [Buffer.from(b64 ?? '', 'base64').toString('latin1'), Number(rank)] as const;
        }),
    );
    let count = 0;
    for (const [piece] of text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))) {
      const bytes = Buffer.from(piece, 'utf8');
      if (rankOf(bytes) !== undefined) {
        count++;
        continue;
      }
      const parts = Array.from({ length: bytes.length + 1 }, (_, i) => i);
      for (;;) {
        let best = -1;
        let bestRank = Infinity;
        for (let i = 0; i + 2 < parts.length; i++) {
          const r = rankOf(bytes.subarray(parts[i], parts[i + 2]));
          if (r !== undefined && r < bestRank) {
            bestRank = r;
            best = i;
          }
        }
        if (best < 0) break;
        parts.splice(best + 1, 1);
      }
      count += parts.length - 1;
    }
    return count;
  };
})();

/** Assert the compact count equals gpt-tokenizer's (the naive reference's for U+FEFF), naming the text when it does not. */
function expectSameCount(text: string): void {
  const want = text.includes('\uFEFF') ? naive(text) : reference.count(text);
  const got = o200kCounter.count(text);
  if (got !== want) expect({ text: JSON.stringify(text).slice(0, 400), got }).toEqual({ text: JSON.stringify(text).slice(0, 400), got: want });
}

/** Deterministic pseudo-random generator (mulberry32) so long inputs are reproducible. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const randomOf = (alphabet: readonly string[], n: number, seed: number): string => {
  const next = prng(seed);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)] as string;
  return s;
};

const base64Of = (bytes: number, seed: number): string => {
  const next = prng(seed);
  return Buffer.from(Array.from({ length: bytes }, () => Math.floor(next() * 256))).toString('base64');
};

describe('compact o200k counter agrees with gpt-tokenizer', () => {
  it('counts every curated text (CJK, emoji, RTL, combining marks, whitespace and digit runs, special-token strings) like gpt-tokenizer', () => {
    const { texts } = JSON.parse(readFileSync(path.join(here, 'fixtures/tokenizer-texts.json'), 'utf8')) as { texts: string[] };
    expect(texts.length).toBeGreaterThan(20);
    for (const text of texts) expectSameCount(text);
  });

  it('counts U+FEFF as o200k does, where gpt-tokenizer drops it as a byte order mark', () => {
    expect(o200kCounter.count('\uFEFF')).toBe(1);
    expect(naive('\uFEFF')).toBe(1);
    for (const text of ['a\uFEFF', '\uFEFFusing System;', '\uFEFF\n\n', 'x \uFEFF y\uFEFF\uFEFF z', '58°48′N 08°45′W\uFEFF / \uFEFF58.800°N']) {
      expect(o200kCounter.count(text)).toBe(naive(text));
    }
  });

  it('has a naive reference that agrees with gpt-tokenizer on text without U+FEFF', () => {
    const { texts } = JSON.parse(readFileSync(path.join(here, 'fixtures/tokenizer-texts.json'), 'utf8')) as { texts: string[] };
    for (const text of texts.filter((t) => !t.includes('\uFEFF'))) expect(naive(text)).toBe(reference.count(text));
  });

  it('counts special-token strings as ordinary text and never throws on them', () => {
    for (const s of ['<|endoftext|>', '<|endofprompt|>', '<|im_start|>', '<|im_end|>', '<|im_sep|>', '<|fim_prefix|>', '<|fim_middle|>', '<|fim_suffix|>']) {
      // As text, `<|endoftext|>` is several tokens (`<|`, `endo`, …), never the one special token.
      expect(o200kCounter.count(s)).toBeGreaterThan(1);
      expect(o200kCounter.count(s)).toBe(reference.count(s));
      expect(o200kCounter.isWithinLimit(`x ${s} y`, 1)).toBe(false);
    }
  });

  it('counts random full-Unicode strings like gpt-tokenizer', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => expectSameCount(s)), { numRuns: 400 });
  });

  it('counts random grapheme and ASCII strings like gpt-tokenizer', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), fc.string({ maxLength: 200 }), (a, b) => {
      expectSameCount(a);
      expectSameCount(b);
      expectSameCount(a + b);
    }), { numRuns: 300 });
  });

  it('counts strings with lone surrogates and byte order marks like gpt-tokenizer', () => {
    const unit = fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0xffff }), fc.constant(0xfeff), fc.constant(0x20)).map((c) => String.fromCharCode(c));
    fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), (s) => expectSameCount(s)), { numRuns: 300 });
    for (const s of ['\ud800', ' \ud800', '\udc00x', 'a\ud83d', '\ufffd\ud800']) expectSameCount(s);
  });

  it('counts serialized random JSON values like gpt-tokenizer', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
      expectSameCount(JSON.stringify(v));
      expectSameCount(JSON.stringify(v, null, 2));
    }), { numRuns: 300 });
  });

  it('counts long single pieces around the heap threshold like gpt-tokenizer', () => {
    // Letters and marks only: the split regex leaves each string as one piece, so the
    // scan/heap switch at HEAP_THRESHOLD bytes is crossed by the same merge sequence.
    const unit = fc.constantFrom('a', 'b', 'e', 'r', 's', 't', 'in', 'ing', 'é', '東', 'ж', 'λ', '\u0301');
    fc.assert(fc.property(fc.string({ unit, minLength: HEAP_THRESHOLD / 4, maxLength: HEAP_THRESHOLD * 3 }), (s) => expectSameCount(s)), { numRuns: 200 });
  });

  it('counts every line of the repository\'s docs, examples and text fixtures like gpt-tokenizer', () => {
    let lines = 0;
    for (const file of TEXT_FILES) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expectSameCount(text);
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        lines++;
        expectSameCount(line);
        if (file.endsWith('.jsonl')) expectSameCount((JSON.parse(line) as { text: string }).text);
      }
    }
    expect(lines).toBeGreaterThan(2000);
  });

  it('counts 10–30 KB single pieces (letters, CJK, emoji, spaces) and 100 KB of base64 like gpt-tokenizer', () => {
    const cases = [
      'a'.repeat(10_000),
      'ab'.repeat(15_000),
      '東'.repeat(10_000),
      randomOf(['東', '京', '都', 'の', 'ア'], 10_000, 1),
      randomOf(['a', 'b', 'c', 'd', 'e', 'n', 'g', 'i', 'o', 't'], 30_000, 2),
      '🙂'.repeat(5_000),
      ' '.repeat(30_000),
      '\n'.repeat(10_000),
      '9'.repeat(30_000),
      '!'.repeat(10_000),
      base64Of(75_000, 3),
    ];
    for (const text of cases) expectSameCount(text);
  });
});

describe('o200k pre-tokenization fast path', () => {
  const sticky = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
  const expectRegexPieces = (text: string) => {
    const want = [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))].map((m) => m[0]);
    expect(o200kPieces(text, sticky)).toEqual(want);
  };
  // Every ASCII character, plus non-ASCII ones that continue or end each kind of run: letters
  // (upper, lower, other, marks), numbers, white space, punctuation, surrogates.
  const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
  const tricky = [...ascii, ...' aA1\'\n\r\t/', 'é', 'É', 'ǅ', 'ʰ', '東', '\u0301', '٣', '½', '\u00a0', '\u2028', '\u0085', '\ufeff', '—', '€', '🙂', '\ud800', '\udc00', "'s", "'LL", "'Ve", "'re"];

  it('cuts text into exactly the pieces of the o200k regex', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...tricky), maxLength: 60 }), (s) => expectRegexPieces(s)), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => expectRegexPieces(a + b)), { numRuns: 500 });
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => expectRegexPieces(JSON.stringify(v, null, 1))), { numRuns: 300 });
  });

  it('cuts contractions, digit runs, white-space runs and punctuation runs like the regex', () => {
    for (const text of [
      "don't I'LL we've THEY'RE she's it'd You'Re x' 's '", 'HTTPServerError ABC abcDEF aB Ab', '1 12 123 1234 1234567 ٣٤ 12٣',
      'a  b   c\t\td \n\n e \r\n\r\n f  ', ' \n', '\n ', '  ', ' ', '\t!x', ' !x', '!x', '"name":"v"', '}, {', '//\n/\r\n',
      '\u00a0x', ' \u00a0 ', 'ab\u00a0', 'a\u0301b', ' é', '!é', '1½', '.—', 'x\ud800', "it'\u0073",
    ]) expectRegexPieces(text);
  });
});

describe('compact o200k counter limits and speed', () => {
  it('says within limit exactly when count <= limit, at count - 1, count and count + 1', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 60 }), (v, s) => {
      const text = JSON.stringify(v) + s;
      const n = o200kCounter.count(text);
      for (const limit of [n - 1, n, n + 1]) expect(o200kCounter.isWithinLimit(text, limit)).toBe(n <= limit);
    }), { numRuns: 300 });
  });

  it('stops counting once the limit is passed', () => {
    // A few words, then a 2 MB single piece whose merge takes a good fraction of a second.
    const text = 'word '.repeat(20) + 'a'.repeat(2_000_000);
    o200kCounter.count('load the table first');
    expect(o200kCounter.isWithinLimit(text, 10)).toBe(false);
    expect(o200kCounter.count(text)).toBeGreaterThan(250_000); // "aaaaaaaa" is one token: the long piece is ≥ 2e6 / 8
    // CPU time, best of three: stopping early costs a sliver of counting it all.
    const early = cpuMs(() => o200kCounter.isWithinLimit(text, 10), 3);
    const full = cpuMs(() => o200kCounter.count(text), 3);
    expect(early * 20).toBeLessThan(full);
  }, 120_000);

  it('merges a single piece in time that grows linearly: 10x the piece costs well under the 100x of a quadratic merge', () => {
    // CPU time of a 1 MB piece against a 100 kB one, best of two each: a heap merge (n log n)
    // stays near 10x; a quadratic merge is near 100x. 40x leaves room for a busy machine.
    const cases: [string, (n: number) => string][] = [
      ['one letter', (n) => 'a'.repeat(n)],
      ['one CJK character', (n) => '東'.repeat(n)],
      ['rare letters', (n) => randomOf(['q', 'x', 'z', 'j', 'k', 'v'], n, 4)],
      ['base64', (n) => base64Of((n * 3) / 4, 5)],
    ];
    for (const [name, make] of cases) {
      expect(o200kCounter.count(make(1_000_000)), name).toBeGreaterThanOrEqual(1);
      expect(growth(make, (text) => o200kCounter.count(text), 100_000, 1_000_000, 2), name).toBeLessThan(LINEAR_BOUND_10X);
    }
    // Seconds of CPU on a busy machine: the timeout only guards against a hang.
  }, 180_000);
});

describe('tiktoken rank files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'trc-tiktoken-'));
  const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');
  const vocabulary = (tokens: string[], eol = '\n') => tokens.map((t, i) => `${b64(t)} ${i}`).join(eol);
  const bytes = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i));

  it('counts with a hand-made vocabulary, lowest rank first and leftmost on ties, with CRLF lines and no final newline', () => {
    const file = path.join(dir, 'tiny.tiktoken');
    // Ranks: 256 single bytes, then "ab" < "bc" < "abc": "abc" merges a+b first (rank 256),
    // then ab+c (258) into one token; "bcb" → "bc"+"b" (2 tokens).
    writeFileSync(file, vocabulary([...bytes, 'ab', 'bc', 'abc'], '\r\n'));
    const tiny = createTiktokenCounter({ name: 'tiny', file: () => file, splitPattern: /\S+|\s+/gu });
    expect(tiny.isLoaded()).toBe(false);
    expect(tiny.count('abc')).toBe(1);
    expect(tiny.isLoaded()).toBe(true);
    expect(tiny.count('bcb')).toBe(2);
    expect(tiny.count('abab')).toBe(2);
    expect(tiny.count('bcabc')).toBe(2); // "bc" + "abc"
    expect(tiny.count('abc abc')).toBe(3);
    // A long piece goes through the heap: "ab" pairs merge left to right.
    expect(tiny.count('ab'.repeat(HEAP_THRESHOLD))).toBe(HEAP_THRESHOLD);
  });

  it('refuses a missing rank file with TOKENIZER_DATA_UNREADABLE and can still load once it exists', () => {
    const file = path.join(dir, 'later.tiktoken');
    const counter = createTiktokenCounter({ name: 'later', file: () => file, splitPattern: /\S+/gu });
    expect(() => counter.count('ab')).toThrow(expect.objectContaining({ code: 'TOKENIZER_DATA_UNREADABLE', data: { file } }));
    expect(counter.isLoaded()).toBe(false);
    writeFileSync(file, vocabulary([...bytes, 'ab']));
    expect(counter.count('ab')).toBe(1);
  });

  it('refuses a malformed rank file with TOKENIZER_DATA_INVALID and the line number', () => {
    const cases: [string, string][] = [
      ['not-base64.tiktoken', `${vocabulary(bytes.slice(0, 3))}\n*** 3\n`],
      ['gap.tiktoken', `${vocabulary(bytes.slice(0, 3))}\n${b64('x')} 7\n`],
      ['no-rank.tiktoken', `${vocabulary(bytes.slice(0, 3))}\n${b64('x')}\n`],
      ['empty.tiktoken', ''],
    ];
    for (const [name, content] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      const counter = createTiktokenCounter({ name, file: () => file, splitPattern: /\S+/gu });
      let error: unknown;
      try {
        counter.count('x');
      } catch (e) {
        error = e;
      }
      expect(isTrcError(error, 'TOKENIZER_DATA_INVALID')).toBe(true);
      if (name !== 'empty.tiktoken') expect((error as { data: { line: number } }).data.line).toBe(4);
    }
  });
});


