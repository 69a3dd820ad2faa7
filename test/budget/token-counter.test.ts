import { describe, expect, it } from 'vitest';
import { fit, isO200kLoaded, o200kCounter } from '../../src/budget/index.js';

const NOW = () => new Date('2026-01-01T00:00:00Z');

// One file, one worker: the module state starts with the tables not loaded.
describe('o200k token counter loading', () => {
  it('does not load the o200k tables on import or for a result that surely fits by its byte size', async () => {
    expect(isO200kLoaded()).toBe(false);
    const out = await fit({ rows: [1, 2, 3], name: 'small' }, { maxTokens: 8000 }, { now: NOW });
    expect(out.status).toBe('succeeded');
    expect(isO200kLoaded()).toBe(false);
  });

  it('loads the tables on the first exact count and counts o200k tokens', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: i, text: `row number ${i} of the result` }));
    const out = await fit(rows, { maxTokens: 500 }, { now: NOW });
    expect(isO200kLoaded()).toBe(true);
    expect(out.status).toBe('partial');
    expect(o200kCounter.count(JSON.stringify(out.data))).toBeLessThanOrEqual(500);
    expect(o200kCounter.count('hello world')).toBe(2);
  });
});
