/**
 * A framework call explained after the fact: an AI SDK tool that returns a plain value (its
 * completeness unknown: the tool never said how much there is) run by `generateText` with a
 * scripted model, recorded in a real SQLite store. The diagnosis must name what the model could
 * misread as it is (it said "partial result", sending a reader to look for a cut that never
 * happened), and the inspector must show the JSON the model was given.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { envelopeTool } from '../../src/adapters/ai-sdk/index.js';
import { createExecutor, diagnose } from '../../src/executor/index.js';
import { viewCall } from '../../src/inspector/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

describe('a framework call, diagnosed from its record', () => {
  it('explains an AI SDK call whose completeness is unknown on all four layers, and shows what the model was given', async () => {
    const store = await openSqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'trc-fw-diag-')), 'trc.sqlite') });
    const prompts: LanguageModelV3CallOptions['prompt'][] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
        prompts.push(options.prompt);
        if (prompts.length > 1) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        return { content: [{ type: 'tool-call', toolCallId: 'call_fw_1', toolName: 'orders_search', input: '{"q":"late"}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      },
    });
    const search = tool({
      description: 'Search orders',
      inputSchema: jsonSchema<{ q: string }>({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false }),
      execute: async () => ({ orders: [{ id: 'o1' }, { id: 'o2' }] }),
    });
    await generateText({ model, tools: { orders_search: envelopeTool('orders_search', search, { executor: createExecutor({ store }) }) }, prompt: 'late orders?', stopWhen: stepCountIs(2) });

    const d = await diagnose('call_fw_1', store);
    expect(d?.layers.map((l) => `${l.layer}:${l.verdict}`)).toEqual(['call:ok', 'execution:ok', 'contract:ok', 'model:at_risk']);
    const model4 = d?.layers[3]?.findings.join('\n') ?? '';
    expect(model4).toContain('watch for: completeness unknown: the tool did not say whether this is all of it');
    expect(model4).not.toContain('partial result');

    const view = await viewCall(store, 'call_fw_1');
    expect(view?.edge).toBe('framework over ai-sdk');
    const given = (prompts[1]?.find((m) => m.role === 'tool')?.content as unknown as { output: { type: string; value: unknown } }[])[0]?.output;
    expect(given?.type).toBe('json');
    expect(view?.model_seen).toMatchObject({ wire: 'text' });
    // The boundary token was drawn for that rendering and is not recorded: shown as "(random)".
    const withoutToken = JSON.parse(JSON.stringify(given?.value).replace(/(EXTERNAL_CONTENT) [0-9a-f]{32}>>>/g, '$1 (random)>>>')) as unknown;
    expect(JSON.parse((view?.model_seen as { text: string }).text)).toEqual(withoutToken);
    await store.close();
  });
});
