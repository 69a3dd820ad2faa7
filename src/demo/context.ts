/**
 * What every demo step can use: the executor over the demo's tools, the stores, and the session
 * memory the call policy reads (untrusted content seen so far, for argument taint).
 */
import type { Envelope, UntrustedContent } from '../contract/index.js';
import { toModelContext, type Executor, type Principal, type ToolCall } from '../executor/index.js';
import type { Store } from '../store/types.js';
import { demoCall, type DemoCall } from './transcript.js';
import type { World } from './world.js';

/** Shared state of one demo run. */
export interface DemoContext {
  readonly runId: string;
  readonly executor: Executor;
  readonly store: Store;
  readonly world: World;
  readonly principal: Principal;
  /** External text isolated so far in this session; the policy checks arguments against it (T3). */
  readonly untrusted: UntrustedContent[];
  /** Every envelope of the session by call id (for conflicts and the answer check). */
  readonly envelopes: Map<string, Envelope>;
  /** Payments whose response the demo loses after the commit. */
  readonly loseResponses: Set<string>;
}

/** A call id unique to this run, readable in the audit (`r1a2b3c_order`). */
export function callId(ctx: DemoContext, name: string): string {
  return `call_${ctx.runId}_${name}`;
}

/** Remember what a call returned: envelopes for later steps, isolated text for the policy. */
export function remember(ctx: DemoContext, env: Envelope, args: unknown): DemoCall {
  ctx.envelopes.set(env.call.call_id, env);
  for (const u of env.untrusted_content ?? []) ctx.untrusted.push(u);
  return demoCall(env, args, toModelContext(env).content);
}

/** Run one call through the executor and remember it. */
export async function call(ctx: DemoContext, c: ToolCall, principal: Principal = ctx.principal): Promise<{ env: Envelope; view: DemoCall }> {
  const env = await ctx.executor.call(c, principal);
  return { env, view: remember(ctx, env, c.args) };
}
