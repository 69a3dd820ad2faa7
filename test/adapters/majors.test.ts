/**
 * Which major of each framework SDK this run resolves: the default suite runs the majors
 * installed under their own names, `vitest.majors.config.ts` (TRC_MAJORS) the other ones,
 * through npm aliases. Proves the aliases really apply to the bare names our adapters import.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MAJORS = process.env['TRC_MAJORS'];
const version = (dir: string): string => (JSON.parse(readFileSync(new URL(`../../node_modules/${dir}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;
const major = (v: string): string => (v.startsWith('0.') ? v.split('.').slice(0, 2).join('.') : (v.split('.')[0] ?? ''));

describe('framework SDK majors', () => {
  if (MAJORS === 'newest') {
    it('resolves ai, openai and @openai/agents to ai 7, openai 7 and @openai/agents 0.20', async () => {
      expect(await import('ai')).toBe(await import('ai-v7'));
      expect(await import('openai')).toBe(await import('openai-v7'));
      expect(await import('@openai/agents')).toBe(await import('openai-agents-v0-20'));
      expect([major(version('ai-v7')), major(version('openai-v7')), major(version('openai-agents-v0-20'))]).toEqual(['7', '7', '0.20']);
    });
  } else if (MAJORS === 'previous') {
    it('resolves @langchain/core and @anthropic-ai/sdk to their previous majors', async () => {
      expect(await import('@langchain/core/tools')).toBe(await import('langchain-core-v0-3/tools'));
      expect(await import('@anthropic-ai/sdk')).toBe(await import('anthropic-sdk-v0'));
      expect([major(version('langchain-core-v0-3')), major(version('anthropic-sdk-v0'))]).toEqual(['0.3', '0.137']);
    });
  } else {
    it('resolves the majors installed under their own names', async () => {
      expect(await import('ai')).not.toBe(await import('ai-v7'));
      expect(['ai', 'openai', '@openai/agents', '@langchain/core', '@anthropic-ai/sdk'].map((p) => major(version(p)))).toEqual(['6', '6', '0.14', '1', '1']);
    });
  }
});
