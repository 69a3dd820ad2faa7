/**
 * Run one attempt of a tool under a deadline and the caller's AbortSignal. The deadline wins even
 * when the tool ignores its signal, so a hung downstream never hangs the executor.
 */
import type { Principal, ToolContext } from './types.js';
import type { ToolDefinition } from './define-tool.js';

/** How one attempt ended, before any classification. */
export type RunOutcome =
  | { readonly kind: 'returned'; readonly value: unknown; readonly sent: boolean; readonly ms: number }
  | { readonly kind: 'threw'; readonly error: unknown; readonly sent: boolean; readonly ms: number }
  | { readonly kind: 'timeout'; readonly error: unknown; readonly sent: boolean; readonly ms: number }
  | { readonly kind: 'cancelled'; readonly error: unknown; readonly sent: boolean; readonly ms: number };

/** Input of {@link runWithDeadline}. */
export interface RunInput {
  readonly tool: ToolDefinition<never, unknown>;
  readonly args: unknown;
  readonly callId: string;
  readonly principal: Principal;
  readonly attempt: number;
  readonly idempotencyKey: string | null;
  readonly signal?: AbortSignal | undefined;
  readonly now: () => number;
}

/**
 * Run `tool.run(args, ctx)` once, bounded by `tool.timeoutMs`.
 * @example const outcome = await runWithDeadline({ tool, args, callId: 'c1', principal, attempt: 1, idempotencyKey: null, now: Date.now });
 */
export async function runWithDeadline(input: RunInput): Promise<RunOutcome> {
  const started = input.now();
  const controller = new AbortController();
  let sent = !input.tool.reportsSend;
  let timedOut = false;
  const onParentAbort = () => controller.abort(input.signal?.reason ?? new DOMException('the call was cancelled', 'AbortError'));
  if (input.signal?.aborted === true) onParentAbort();
  else input.signal?.addEventListener('abort', onParentAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`the deadline of ${input.tool.timeoutMs} ms passed`, 'TimeoutError'));
  }, input.tool.timeoutMs);
  const ctx: ToolContext = {
    callId: input.callId,
    principal: input.principal,
    signal: controller.signal,
    deadline: started + input.tool.timeoutMs,
    attempt: input.attempt,
    idempotencyKey: input.idempotencyKey,
    markSent: () => {
      sent = true;
    },
  };
  const stopped = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  stopped.catch(() => undefined);
  try {
    const run = input.tool.run as (args: unknown, ctx: ToolContext) => unknown;
    const value = await Promise.race([Promise.resolve().then(() => run(input.args, ctx)), stopped]);
    return { kind: 'returned', value, sent, ms: input.now() - started };
  } catch (error) {
    const ms = input.now() - started;
    if (controller.signal.aborted && error === controller.signal.reason) {
      return timedOut ? { kind: 'timeout', error, sent, ms } : { kind: 'cancelled', error, sent, ms };
    }
    return { kind: 'threw', error, sent, ms };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onParentAbort);
  }
}
