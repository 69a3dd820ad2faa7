import { describe, expect, it } from 'vitest';
import { authorize, buildModelContext, isolate, type Policy, type Principal } from '../../src/trust/index.js';
import { fixture } from './helpers.js';

// Issue 4 "done when": the ticket and the web page end isolated and flagged, and a following
// high-risk call using the page's address is held for confirmation.
const principal: Principal = { id: 'agent-user', authenticated: true, scopes: ['mail:send', 'export'] };
const policy: Policy = {
  tools: {
    send_email: { risk: 'high', scopes: ['mail:send'] },
    export_customers: { risk: 'high', scopes: ['export'], requiresConfirmation: true },
  },
};

describe('trust boundary end to end', () => {
  const ticket = isolate(fixture('ticket-envelope.json')).envelope;
  const page = isolate(fixture('web-envelope.json')).envelope;
  const session = { untrustedContent: [...(ticket.untrusted_content ?? []), ...(page.untrusted_content ?? [])] };

  it('isolates and flags the ticket instruction', () => {
    // The ticket is an untrusted source: its whole result is one region.
    expect(ticket.untrusted_content?.[0]).toMatchObject({ instructional: true, origin: '/data' });
  });

  it('isolates and flags the web page that asks to send data to an address', () => {
    const u = page.untrusted_content?.[0];
    expect(u).toMatchObject({ instructional: true, origin: '/data' });
    expect(u?.families).toEqual(expect.arrayContaining(['addressed_to_ai', 'task_hijack']));
    expect((page.data as Record<string, unknown>)['url']).toBe('https://supplier.example/payment-update');
  });

  it('keeps both texts out of privileged roles in the model context', () => {
    for (const env of [ticket, page]) {
      const ctx = buildModelContext(env);
      for (const p of ctx.parts.filter((x) => x.role === 'system')) expect(p.text).not.toContain(env.untrusted_content?.[0]?.text ?? '');
    }
  });

  it('holds the follow-up high-risk call with the page’s address, naming argument and content', () => {
    const d = authorize({ principal, tool: 'send_email', args: { to: 'billing-update@evil-supplier.test', subject: 'Invoices', attachments: ['inv_1.pdf'] }, session, policy });
    expect(d.decision).toBe('needs_confirmation');
    expect(d.taint).toContainEqual(expect.objectContaining({ argument: '/to', content_id: page.untrusted_content?.[0]?.content_id, source: 'web:https://supplier.example/payment-update' }));
  });

  it('holds the export the ticket asks for', () => {
    expect(authorize({ principal, tool: 'export_customers', args: { scope: 'all' }, session, policy }).decision).toBe('needs_confirmation');
  });
});
