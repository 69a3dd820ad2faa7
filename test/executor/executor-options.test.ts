import { describe, expect, it } from 'vitest';
import { TrcError } from '../../src/contract/index.js';
import { createExecutor, type ExecutorOptions } from '../../src/executor/index.js';
import { readTool } from './helpers/tools.js';

describe('createExecutor options', () => {
  it('refuses options without a store with a stable code and the pointer, not a TypeError', () => {
    for (const options of [{ tools: [readTool(() => ({ data: {} }))] }, { store: {} }, undefined]) {
      let thrown: unknown;
      try {
        createExecutor(options as unknown as ExecutorOptions);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TrcError);
      expect(thrown).toMatchObject({ code: 'EXECUTOR_OPTIONS_INVALID', data: { pointer: '/store' } });
      expect((thrown as Error).message).toContain('createMemoryStore()');
    }
  });
});
