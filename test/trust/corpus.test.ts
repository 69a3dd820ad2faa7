import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonl, trustFixtures } from '../../scripts/trust-fixtures.js';
import { FIXTURES, scoreFixtures } from './corpus.js';

describe('instruction detector on the labelled fixtures', () => {
  it('reads fixtures that scripts/trust-fixtures.ts generates (no drift, nothing from outside the repository)', () => {
    const { injections, benign } = trustFixtures();
    expect(readFileSync(new URL('injections.jsonl', FIXTURES), 'utf8')).toBe(jsonl(injections));
    expect(readFileSync(new URL('benign.jsonl', FIXTURES), 'utf8')).toBe(jsonl(benign));
  });

  const score = scoreFixtures();

  it.each(['override', 'role_marker', 'addressed_to_ai', 'tool_call', 'hidden_unicode', 'encoded_payload'])('flags at least 95%% of the %s injections', (form) => {
    expect(score.recall[form]?.total).toBe(40);
    expect(score.recall[form]?.rate).toBeGreaterThanOrEqual(0.95);
  });

  it('flags most exfiltration links and most injections overall', () => {
    // Floors that guard against regressions, not targets: image tags with placeholder
    // queries and task hijacks phrased as requests ("before you answer the user, …") are
    // weak signals on their own (see docs/trust.md).
    expect(score.recall['exfiltration']?.rate).toBeGreaterThanOrEqual(0.7);
    expect(score.overall.total).toBe(320);
    expect(score.overall.rate).toBeGreaterThanOrEqual(0.8);
  });

  it('flags at most 1% of benign tool output, near misses included', () => {
    expect(score.benign.total).toBe(1200);
    expect(score.benign.rate, score.benign.examples.join('\n')).toBeLessThanOrEqual(0.01);
  });
});
