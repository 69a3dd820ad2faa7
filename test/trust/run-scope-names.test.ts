import { describe, expect, it } from 'vitest';
import { createRunAuthority } from '../../src/trust/index.js';

describe('a run scope and tools named like members of every object', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('holds a call of a tool named %s outside the scope instead of throwing', (tool) => {
    const run = createRunAuthority({ scope: { tools: ['read_file'], resources: { read_file: [{ argument: '/path', allowed: ['docs/'], match: 'prefix' }] } } });
    expect(run.check({ tool, effect: 'write', risk: 'high', args: { to: 'me@home.test' }, principal: { id: 'alice' } })).toMatchObject({ effect: 'confirm', code: 'T4.outside-run-scope' });
  });

  it.each(['constructor', 'toString'])('lets an in-scope tool named %s run when the scope has resource rules only for other tools', (tool) => {
    const run = createRunAuthority({ scope: { tools: ['read_file', tool], resources: { read_file: [{ argument: '/path', allowed: ['docs/'] }] } } });
    expect(run.check({ tool, effect: 'read', risk: 'low', args: {}, principal: { id: 'alice' } }).effect).toBe('allow');
  });
});
