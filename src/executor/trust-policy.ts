/**
 * Call policy from the trust module (T4): `authorize` decides subject ∧ tool policy ∧ resource
 * scope ∧ input constraints ∧ confirmation; this adapter maps its decision onto the executor's.
 */
import { authorize, type Policy as TrustPolicy, type Session } from '../trust/index.js';
import type { Policy } from './stages.js';

/**
 * Use a trust-module policy table as the executor's policy. `session` supplies the untrusted
 * content seen so far (for argument taint) and recorded confirmations.
 * @example
 * createExecutor({ tools, store, policy: trustPolicy({ tools: { refund_create: { risk: 'high', roles: ['agent'] } } }) });
 */
export function trustPolicy(policy: TrustPolicy, session: () => Session = () => ({})): Policy {
  return ({ tool, args, principal }) => {
    const d = authorize({
      principal: { id: principal.id, authenticated: principal.authenticated ?? true, ...(principal.roles === undefined ? {} : { roles: principal.roles }), ...(principal.scopes === undefined ? {} : { scopes: principal.scopes }) },
      tool: tool.name,
      args,
      session: session(),
      policy,
    });
    const first = d.reasons[0];
    const reason = d.reasons.map((r) => r.message).join('; ') || d.decision;
    if (d.decision === 'allowed') return { effect: 'allow' };
    if (d.decision === 'needs_confirmation') return { effect: 'confirm', code: first?.code ?? 'CONFIRMATION_REQUIRED', reason };
    return { effect: 'deny', code: first?.code ?? 'POLICY_DENIED', reason };
  };
}
