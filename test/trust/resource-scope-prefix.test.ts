import { describe, expect, it } from 'vitest';
import { checkResourceScope, createRunAuthority } from '../../src/trust/index.js';

const alice = { id: 'alice', authenticated: true };
const bills = { argument: '/path', allowed: ['bills/'], match: 'prefix' as const };

describe('a prefix resource scope', () => {
  it.each(['bills/dec.txt', 'bills/2026/dec.txt', 'bills/...', 'bills/..hidden', 'bills/a..b'])('keeps %s inside bills/', (path) => {
    expect(checkResourceScope(bills, { path }, alice)).toBeUndefined();
  });

  it.each([
    'bills/../.ssh/id_rsa',
    'bills/./../../etc/passwd',
    'bills/..',
    'bills/2026\\..\\..\\secrets',
    'bills/..\\secrets',
    'bills/%2e%2e/secrets',
    'bills/%2E%2E%2Fsecrets',
    'bills/%252e%252e/secrets',
    'bills/2026/../../x',
  ])('holds %s, which climbs out of bills/', (path) => {
    expect(checkResourceScope(bills, { path }, alice)).toMatchObject({ code: 'T4.out-of-scope', pointer: '/path' });
  });

  it('holds a run\'s call whose path climbs out of its declared prefix', () => {
    const run = createRunAuthority({ scope: { tools: ['read_file'], resources: { read_file: [bills] } } });
    const check = (path: string) => run.check({ tool: 'read_file', effect: 'read', risk: 'low', args: { path }, principal: { id: 'alice' } });
    expect(check('bills/dec.txt').effect).toBe('allow');
    expect(check('bills/../.ssh/id_rsa')).toMatchObject({ effect: 'confirm', code: 'T4.resource-outside-run-scope' });
  });
});
