/**
 * The run stage of the pipeline (T3, T4), before the call policy: the run's scope and its
 * record of untrusted content decide whether a call may go on, whatever any text said. A held
 * call answers `needs_input` (category `authorization`) whose `error.details.confirmation` is
 * the request a human must confirm: the tainted arguments, the content ids and sources they
 * came from, and the digest of the arguments the approval will be bound to.
 */
import { needsInput, type CallInput, type Envelope } from '../contract/index.js';
import type { ConfirmationRequest, RunAuthority } from '../trust/index.js';
import type { LayerNotes } from './audit.js';
import type { ToolRules } from './rules.js';
import type { Principal, ToolCall } from './types.js';

/** A held call: why, and the envelope that says so. */
export interface RunHold {
  readonly message: string;
  readonly request: ConfirmationRequest;
  envelope(call: CallInput, sideEffect: { occurred: false; operation: string }): Envelope;
}

/** The request as the envelope carries it (the approval token never: it is the user's). */
function requestDetails(request: ConfirmationRequest): Record<string, unknown> {
  return {
    request_id: request.request_id,
    run_id: request.run_id,
    tool: request.tool,
    args_digest: request.args_digest,
    reasons: request.reasons,
    tainted: request.tainted,
  };
}

/**
 * Ask the run about one call: `confirmed` when it may go on to the call policy (true when the
 * user confirmed this very call, which then counts as the policy's confirmation too), or the hold.
 * @example const held = runHold(run, rules, call, principal, undefined, notes);
 */
export function runHold(run: RunAuthority, rules: ToolRules, c: ToolCall, principal: Principal, token: string | undefined, notes: LayerNotes): RunHold | { readonly confirmed: boolean } {
  const v = run.check({ tool: rules.name, effect: rules.effect, risk: rules.risk, args: c.args, principal, ...(rules.inputSchema === null ? {} : { inputSchema: rules.inputSchema }) }, token);
  if (v.effect === 'allow') {
    for (const t of v.taint) notes.call.push(`run ${run.id}: argument ${t.argument} carries untrusted content ${t.content_id} (${t.source}); allowed: a ${rules.risk}-risk ${rules.effect}`);
    if (v.confirmed !== null) notes.call.push(`run ${run.id}: confirmed by the user (request ${v.confirmed.request_id}, arguments ${v.confirmed.args_digest})`);
    return { confirmed: v.confirmed !== null };
  }
  notes.call.push(`run ${run.id}: held (${v.code}): ${v.reason}`);
  return {
    message: v.reason,
    request: v.request,
    envelope: (call, sideEffect) => {
      const env = needsInput({ call, code: v.code, message: v.reason, category: 'authorization', side_effect: sideEffect });
      return { ...env, error: { ...(env.error as NonNullable<Envelope['error']>), details: { confirmation: requestDetails(v.request) } } };
    },
  };
}
