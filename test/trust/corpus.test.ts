import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, scoreCorpus } from './corpus.js';

describe('instruction detector on the development corpus', () => {
  it('finds the corpus beside the repository', () => {
    expect(existsSync(CORPUS_DIR)).toBe(true);
  });

  const score = scoreCorpus();

  it('catches at least 99% of templated injections', () => {
    expect(score.recall['templated']?.total).toBeGreaterThan(100);
    expect(score.recall['templated']?.rate).toBeGreaterThanOrEqual(0.99);
  });

  it('catches most third-party attack strings (mixed)', () => {
    // Many BIPIA rows are bare questions ("What is the capital of Brazil?") that no text rule
    // can tell from data; the floor guards against regressions, not a target.
    expect(score.recall['mixed']?.rate).toBeGreaterThanOrEqual(0.7);
  });

  it('flags at most 1% of benign text', () => {
    expect(score.benign.total).toBeGreaterThan(900);
    expect(score.benign.rate, score.benign.examples.join('\n')).toBeLessThanOrEqual(0.01);
  });
});
