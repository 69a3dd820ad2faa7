/**
 * The adapter tests again, against the other majors of the framework SDKs (npm aliases in
 * devDependencies): `TRC_MAJORS=newest` (ai 7, openai 7, @openai/agents 0.20 — Node 22+) or
 * `TRC_MAJORS=previous` (@langchain/core 0.3, @anthropic-ai/sdk 0.x). The default suite runs
 * the majors installed under their own names (ai 6, openai 6, @openai/agents 0.14,
 * @langchain/core 1, @anthropic-ai/sdk 1). The aliases apply to our sources and the tests;
 * each aliased package resolves its own dependencies.
 */
import { defineConfig } from 'vitest/config';

const SETS = {
  newest: { ai: 'ai-v7', openai: 'openai-v7', '@openai/agents': 'openai-agents-v0-20' },
  previous: { '@langchain/core': 'langchain-core-v0-3', '@anthropic-ai/sdk': 'anthropic-sdk-v0' },
} as const;

const name = (process.env['TRC_MAJORS'] ?? 'newest') as keyof typeof SETS;
const set = SETS[name];
if (set === undefined) throw new Error(`TRC_MAJORS must be one of ${Object.keys(SETS).join(', ')}`);

const escape = (s: string): string => s.replace(/[/.]/g, (c) => `\\${c}`);

export default defineConfig({
  resolve: {
    alias: Object.entries(set).map(([from, to]) => ({ find: new RegExp(`^${escape(from)}(/.*)?$`), replacement: `${to}$1` })),
  },
  test: {
    include: [
      'test/adapters/ai-sdk.test.ts',
      'test/adapters/openai-agents.test.ts',
      'test/adapters/openai.test.ts',
      'test/adapters/langchain.test.ts',
      'test/adapters/anthropic.test.ts',
      'test/adapters/framework-pipeline.test.ts',
      'test/adapters/majors.test.ts',
    ],
    testTimeout: 30_000,
    pool: 'forks',
    allowOnly: !process.env['CI'],
  },
});
