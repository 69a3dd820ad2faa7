import { describe, expect, it } from 'vitest';
import { checkAnswer, extractTextValues, parseIsoWallTime, splitSentences, wallTimesAgree, readMarkers } from '../../src/evidence/index.js';
import { LINEAR_BOUND_10X, growth } from '../helpers/cpu-time.js';

const shipped = parseIsoWallTime('2026-08-31T10:20:00Z')!;
function time(text: string) {
  const v = extractTextValues(text).find((x) => x.kind === 'datetime');
  if (v?.kind !== 'datetime') throw new Error(`no date/time in ${text}`);
  return v.value;
}
const numbers = (text: string) => extractTextValues(text).filter((v) => v.kind === 'number').map((v) => (v.kind === 'number' ? v.value : null));

describe('reading values from text', () => {
  it.each([
    '2026-08-31 18:20 (UTC+8)',
    '2026-08-31 18:20（中国标准时间）',
    '北京时间 2026-08-31 18:20',
    '2026年8月31日 18点20分（北京时间）',
    '2026/08/31 18:20 GMT+08:00',
    'Aug 31, 2026 at 6:20 pm UTC+8',
    '2026-08-31T18:20:00+08:00',
    '2026-08-31 10:20 UTC',
    '2026-08-31T10:20Z',
    '2026-08-31 19:20 JST',
  ])('"%s" names the moment 2026-08-31T10:20:00Z', (text) => {
    expect(wallTimesAgree(time(text), shipped)).toBe(true);
  });

  it.each(['2026-08-31 18:20 UTC', '18:20 UTC', '2026-08-31 10:20 (UTC+8)', '2026-09-01 10:20 UTC', '2026-08-31 18:21 (UTC+8)', '2026-08-31 10:20:30Z'])(
    '"%s" does not name 2026-08-31T10:20:00Z',
    (text) => {
      expect(wallTimesAgree(time(text), shipped)).toBe(false);
    },
  );

  it('reads a date-only or zone-less time in the source\'s own zone', () => {
    expect(wallTimesAgree(time('on 2026-08-31'), shipped)).toBe(true);
    expect(wallTimesAgree(time('at 10:20'), shipped)).toBe(true);
    expect(wallTimesAgree(time('at 18:20'), shipped)).toBe(false);
    // 02:00 on 1 September in China is still 31 August in UTC.
    expect(wallTimesAgree(time('2026-09-01 (UTC+8)'), parseIsoWallTime('2026-08-31T18:00:00Z')!)).toBe(true);
  });

  it('reads numbers with grouping, decimals, percents and CJK counters', () => {
    expect(numbers('17 units, 1,000 dollars, 27.4% and -3 degrees')).toEqual([17, 1000, 27.4, -3]);
    expect(numbers('A 仓库有 10 件，B 仓库有 0 件')).toEqual([10, 0]);
    expect(numbers('共１７件')).toEqual([17]);
    expect(numbers('10，200 个')).toEqual([10, 200]);
  });

  it('does not read parts of ids, dates or times as numbers', () => {
    const v = extractTextValues('ord_1001 at 2026-08-31 18:20 (UTC+8), file report.v2.pdf, INV-2026-0042');
    expect(v.map((x) => [x.kind, x.raw])).toEqual([
      ['datetime', '2026-08-31 18:20 (UTC+8)'],
      ['id', 'ord_1001'],
      ['id', 'report.v2.pdf'],
      ['id', 'INV-2026-0042'],
    ]);
  });

  it('reads quoted strings in Latin and CJK quotes and ignores citation markers', () => {
    const v = extractTextValues('The note says "Fragile" and 「易碎」 [ev_001, ev_2]');
    expect(v.map((x) => [x.kind, x.raw])).toEqual([
      ['quote', '"Fragile"'],
      ['quote', '「易碎」'],
    ]);
  });
});

describe('splitting an answer into sentences', () => {
  const texts = (s: string) => splitSentences(s).map((x) => x.text);

  it('splits on CJK and Latin punctuation and line breaks', () => {
    expect(texts('订单已发货。库存为 10 件！真的吗？Yes. Next one!\nLast line')).toEqual(['订单已发货。', '库存为 10 件！', '真的吗？', 'Yes.', 'Next one!', 'Last line']);
  });

  it('does not split on decimals, abbreviations, initials, ids with dots or list numbers', () => {
    expect(texts('Revenue grew 27.4 percent, e.g. in Q3 vs. Q2. J. Smith signed report.v2 today. 1. First item.')).toEqual([
      'Revenue grew 27.4 percent, e.g. in Q3 vs. Q2.',
      'J. Smith signed report.v2 today.',
      '1. First item.',
    ]);
  });

  it('keeps quotes whole and attaches a trailing marker to the sentence before it', () => {
    expect(texts('The note reads "Handle with care. Fragile." [ev_1] 订单已发货。[ev_001] 下一句。')).toEqual([
      'The note reads "Handle with care. Fragile." [ev_1]',
      '订单已发货。[ev_001]',
      '下一句。',
    ]);
  });

  it('reports offsets into the original text', () => {
    const text = '  First 1. Second 2 [ev_1].';
    for (const s of splitSentences(text)) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('reads markers but not Markdown links', () => {
    expect(readMarkers('see [ev_1] and [ev_2](https://x) and [ev_3；ev_4]').map((m) => m.ids)).toEqual([['ev_1'], ['ev_3', 'ev_4']]);
  });
});

describe('hostile input', () => {
  // Each text at scale k and 10k, CPU time best of three: linear work stays near 10x, a
  // quadratic scan near 100x (these inputs once took tens of seconds).
  it.each<[string, (k: number) => string]>([
    ['long whitespace after a date', (k) => '2026-08-31' + ' '.repeat(6_000 * k) + 'x'],
    ['long whitespace inside a time zone', (k) => '18:20' + ' '.repeat(3_000 * k) + '(' + ' '.repeat(3_000 * k)],
    ['thousands of dates', (k) => '2026-08-31 18:20 UTC+8 '.repeat(400 * k)],
    ['unclosed markers', (k) => '[ev_1'.repeat(1_500 * k)],
    ['a run of separators', (k) => 'a1.'.repeat(3_000 * k)],
    ['tens of thousands of sentences', (k) => '. 1 '.repeat(2_000 * k)],
  ])('checks %s in linear time', (_name, make) => {
    const work = (text: string) => {
      checkAnswer(text, []);
      extractTextValues(text);
    };
    expect(growth(make, work, 1, 10)).toBeLessThan(LINEAR_BOUND_10X);
  });
});
