import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { checkAnswer, type FreshnessPolicy, type Verdict } from '../../src/evidence/index.js';
import { envelope, readFixture } from './helpers/fixtures.js';

interface AnswerCase {
  name: string;
  lang: 'en' | 'zh';
  envelopes: string[];
  answer: string;
  verdicts: Verdict[];
  now?: string;
  freshness?: FreshnessPolicy;
}

const cases = readFixture<AnswerCase[]>('answers.json');

describe('checkAnswer on the fixture answers', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const options = { ...(c.now === undefined ? {} : { now: c.now }), ...(c.freshness === undefined ? {} : { freshness: c.freshness }) };
    const report = checkAnswer(c.answer, c.envelopes.map(envelope), options);
    expect(report.claims.map((claim) => claim.verdict), JSON.stringify(report.claims.map((x) => x.reasons))).toEqual(c.verdicts);
    expect(report.ok).toBe(c.verdicts.every((v) => v === 'supported'));
  });

  it('covers every verdict in both English and Chinese', () => {
    const seen = new Set(cases.flatMap((c) => c.verdicts.map((v) => `${c.lang}:${v}`)));
    for (const v of ['supported', 'unsupported', 'uncited', 'unknown_id', 'stale', 'overreach']) {
      expect(seen).toContain(`en:${v}`);
      expect(seen).toContain(`zh:${v}`);
    }
  });
});

describe('checkAnswer details', () => {
  const order = envelope('order-shipped');

  it('reports each value of a claim and whether it is supported', () => {
    const [claim] = checkAnswer('Order ord_1001 shipped 17 units at 18:20 UTC [ev_001].', [order]).claims;
    expect(claim?.values).toEqual([
      { kind: 'datetime', raw: '18:20 UTC', supported: false },
      { kind: 'id', raw: 'ord_1001', supported: true },
      { kind: 'number', raw: '17', supported: true },
    ]);
    expect(claim?.reasons.join(' ')).toContain('18:20 UTC');
  });

  it('reads markers in all three styles and after the sentence end', () => {
    const twice = { ...order, evidence: [...(order.evidence ?? []), { evidence_id: 'ev_002', supports: ['/data/quantity'] }] };
    const r = checkAnswer('A 17 [ev_001, ev_002]. B 17 [ev_001][ev_002]. C 17.[ev_002] 订单 ord_1001。【ev_001】', [twice]);
    expect(r.claims.map((c) => c.cited)).toEqual([['ev_001', 'ev_002'], ['ev_001', 'ev_002'], ['ev_002'], ['ev_001']]);
    expect(r.claims.every((c) => c.verdict === 'supported')).toBe(true);
  });

  it('tells large numbers one apart, yet forgives floating-point noise', () => {
    const big = { ...order, data: { ...(order.data as object), quantity: 999_999_999, total: 0.1 + 0.2 } };
    const verdict = (text: string) => checkAnswer(text, [{ ...big, evidence: [{ evidence_id: 'ev_1', supports: ['/data/quantity', '/data/total'] }] }]).claims[0]?.verdict;
    expect(verdict('It shipped 999,999,999 units [ev_1].')).toBe('supported');
    expect(verdict('It shipped 1,000,000,000 units [ev_1].')).toBe('unsupported');
    expect(verdict('The total was 0.3 [ev_1].')).toBe('supported');
    expect(verdict('The total was 0.30 [ev_1].')).toBe('supported');
  });

  it('does not let one evidence vouch for a value only another evidence supports', () => {
    const split = {
      ...order,
      evidence: [
        { evidence_id: 'ev_id', supports: ['/data/order_id'] },
        { evidence_id: 'ev_qty', supports: ['/data/quantity'] },
      ],
    };
    const r = checkAnswer('Order ord_1001 has 17 units [ev_id].', [split]);
    expect(r.claims[0]?.verdict).toBe('unsupported');
    expect(r.claims[0]?.values.find((v) => v.raw === '17')?.supported).toBe(false);
  });

  it('treats a result marked non-citable as not supporting anything', () => {
    const r = checkAnswer('Order ord_1001 has 17 units [ev_001].', [{ ...order, citable: false }]);
    expect(r.claims[0]?.verdict).toBe('unsupported');
  });

  it('keeps remarks without values out of the claims', () => {
    const r = checkAnswer('Here is what I found. Order ord_1001 has 17 units [ev_001]. Anything else?', [order]);
    expect(r.claims).toHaveLength(1);
    expect(r.remarks.map((s) => s.text)).toEqual(['Here is what I found.', 'Anything else?']);
  });

  it('lets the caller choose which verdicts fail the answer', () => {
    const options = { now: '2026-09-02T02:10:00Z', freshness: { default: 3_600_000 } };
    const answer = 'Order ord_1001 has 17 units [ev_001].';
    expect(checkAnswer(answer, [order], options).ok).toBe(false);
    expect(checkAnswer(answer, [order], { ...options, failOn: ['unsupported', 'uncited', 'unknown_id', 'overreach'] }).ok).toBe(true);
  });

  it('reads zone-less times in the source zone unless a zone is assumed', () => {
    const answer = '订单 ord_1001 于 2026年8月31日18:20 发货 [ev_001]。';
    const plain = checkAnswer(answer, [order]).claims[0];
    expect(plain?.verdict).toBe('unsupported');
    expect(plain?.reasons[0]).toContain("read in the source's zone");
    expect(checkAnswer(answer, [order], { assumeZone: '北京时间' }).claims[0]?.verdict).toBe('supported');
    expect(checkAnswer('Shipped at 10:20 [ev_001].', [order], { assumeZone: 'UTC+8' }).claims[0]?.verdict).toBe('unsupported');
  });

  it('skips malformed results from untyped callers instead of crashing', () => {
    const junk = [null, { evidence: 'x' }, { ...order, evidence: [null, { evidence_id: 'ev_001' }, { evidence_id: 'ev_ok', supports: ['/data/quantity'] }], conflicts: [null] }] as unknown as Envelope[];
    const r = checkAnswer('Order has 17 units [ev_ok]. Also 17 units [ev_001].', junk);
    expect(r.claims.map((c) => c.verdict)).toEqual(['supported', 'unknown_id']);
  });

  it('never throws on arbitrary text', () => {
    for (const text of ['', '[', '[]', '。。。', '"unterminated quote. [ev_001]', '\u200b'.repeat(50), '1.'.repeat(200), '【ev_001', 'x'.repeat(10_000)]) {
      expect(() => checkAnswer(text, [order])).not.toThrow();
    }
  });
});
