import { describe, expect, it } from 'vitest';
import { digest, type Envelope } from '../../src/contract/index.js';
import { REDACTED_ITEM, viewFor } from '../../src/trust/index.js';
import { fixture } from './helpers.js';

const env = (): Envelope => ({
  ...fixture('ticket-envelope.json'),
  data: {
    ticket_id: 'ticket_9001',
    status: 'open',
    customer: { name: 'Ann Lee', email: 'ann@example.com', ssn: '123-45-6789', internal_score: 0.82 },
    card_number: '4111111111111111',
    agent_notes: 'escalate if they call again',
    items: [{ sku: 'a', cost_price: 3 }, { sku: 'b', cost_price: 4 }],
    api_key: ['sk-', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join(''),
  },
  evidence: [{ evidence_id: 'ev_ssn', supports: ['/data/customer/ssn'], quote: '123-45-6789' }, { evidence_id: 'ev_status', supports: ['/data/status'], quote: 'open' }],
});

const rules = {
  fields: {
    '/data/customer/ssn': 'internal',
    '/data/customer/internal_score': 'internal',
    '/data/agent_notes': 'user',
    '/data/items/*/cost_price': 'internal',
  },
  mask: ['/data/card_number'],
} as const;

describe('field visibility', () => {
  it('never lets internal fields reach the model or the user', () => {
    for (const audience of ['model', 'user'] as const) {
      const view = viewFor(env(), rules, audience);
      const json = JSON.stringify(view.envelope);
      expect(json).not.toContain('123-45-6789');
      expect(json).not.toContain('0.82');
      expect(json).not.toContain('cost_price');
      expect(view.removed).toEqual(expect.arrayContaining(['/data/customer/ssn', '/data/customer/internal_score', '/data/items/0/cost_price']));
    }
  });

  it('shows user-only fields to the user and not to the model', () => {
    expect(JSON.stringify(viewFor(env(), rules, 'model').envelope)).not.toContain('escalate');
    expect((viewFor(env(), rules, 'user').envelope.data as Record<string, unknown>)['agent_notes']).toBe('escalate if they call again');
  });

  it('masks sensitive fields instead of removing them', () => {
    const view = viewFor(env(), rules, 'model');
    expect((view.envelope.data as Record<string, unknown>)['card_number']).toBe('••••1111');
    expect(view.masked).toEqual(['/data/card_number']);
  });

  it('masks secrets in every outgoing string', () => {
    const view = viewFor(env(), {}, 'model');
    expect((view.envelope.data as Record<string, unknown>)['api_key']).toBe('[redacted:openai_api_key]');
    expect(view.secrets).toEqual(['/data/api_key']);
  });

  it('drops evidence quotes of hidden fields', () => {
    const view = viewFor(env(), rules, 'model');
    expect(view.envelope.evidence?.map((e) => e.evidence_id)).toEqual(['ev_status']);
  });

  it('keeps array indexes stable with a placeholder for hidden items', () => {
    const e = { ...env(), data: { list: ['a', 'secret', 'c'] } };
    const view = viewFor(e, { fields: { '/data/list/1': 'internal' } }, 'model');
    expect((view.envelope.data as { list: unknown[] }).list).toEqual(['a', REDACTED_ITEM, 'c']);
  });

  it('lets the most specific rule win', () => {
    const e = { ...env(), data: { profile: { name: 'Ann', salary: 1 } } };
    const view = viewFor(e, { fields: { '/data/profile': 'internal', '/data/profile/name': 'model' } }, 'model');
    expect(view.envelope.data).toEqual({ profile: { name: 'Ann' } });
  });

  it('recomputes the digest of the view', () => {
    const input = { ...env(), result_digest: 'sha256:' + '0'.repeat(64) };
    const view = viewFor(input, rules, 'model');
    expect(view.envelope.result_digest).toBe(digest(view.envelope.data));
  });
});

describe('visibility on every path, masking in every text', () => {
  it('applies the data rules to a failure’s error.details, keeping array indexes', () => {
    const e: Envelope = { ...env(), status: 'failed', data: null, error: { category: 'upstream', code: 'X', message: 'failed', retryable: false, action: 'explain_to_user', details: { customer: { ssn: '123-45-6789' }, items: [{ sku: 'a', cost_price: 3 }] } } };
    delete (e as { completeness?: unknown }).completeness;
    const view = viewFor(e, rules, 'model');
    expect(JSON.stringify(view.envelope.error)).not.toContain('123-45-6789');
    expect(view.removed).toEqual(expect.arrayContaining(['/error/details/customer/ssn', '/error/details/items/0/cost_price']));
  });

  it('scrubs a hidden value from every other text: evidence quotes, warnings, summary, error message, presentation', () => {
    const e: Envelope = {
      ...env(),
      warnings: [{ code: 'W', message: 'ssn 123-45-6789 looked odd' }],
      summary: { label: 'summary', text: 'scores up to 0.82 were seen' },
      presentation: { model_content: 'Customer 123-45-6789', user_visible: true },
    };
    const view = viewFor(e, rules, 'model');
    const json = JSON.stringify(view.envelope);
    expect(json).not.toContain('123-45-6789');
    expect(json).not.toContain('0.82');
    expect(json).toContain('[hidden]');
  });

  it('masks secrets in keys, the summary, warnings and a cursor', () => {
    const token = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    const e: Envelope = {
      ...env(),
      status: 'partial',
      data: { [token]: 1 },
      summary: { label: 'summary', text: `see ${token}` },
      warnings: [{ code: 'W', message: `DB_PASSWORD=hunter22` }],
      completeness: { state: 'truncated', next: { type: 'cursor', value: token } },
    };
    const json = JSON.stringify(viewFor(e, {}, 'model').envelope);
    expect(json).not.toContain(token);
    expect(json).not.toContain('hunter22');
  });
});
