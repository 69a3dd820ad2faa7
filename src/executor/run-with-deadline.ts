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

/** Marks the reason the attempt was stopped with, so it is told apart from a tool's own error. */
interface Stop {
  readonly reason: unknown;
  readonly timedOut: boolean;
}

/**
 * Run `tool.run(args, ctx)` once, bounded by `tool.timeoutMs`.
 * @example const outcome = await runWithDeadline({ tool, args, callId: 'c1', principal, attempt: 1, idempotencyKey: null, now: Date.now });
 */
export async function runWithDeadline(input: RunInput): Promise<RunOutcome> {
  const started = input.now();
  const parent = input.signal;
  let sent = !input.tool.reportsSend;
  // Most tools never read ctx.signal: its AbortController is made on first access (one timer and
  // one promise per call otherwise). Once stopped, a late reader gets an already-aborted signal.
  let controller: AbortController | undefined;
  let stop: Stop | undefined;
  let rejectRun: (stop: Stop) => void = () => undefined;
  const halt = (s: Stop) => {
    if (stop !== undefined) return;
    stop = s;
    controller?.abort(s.reason);
    rejectRun(s);
  };
  const onParentAbort = parent === undefined ? undefined : () => halt({ reason: parent.reason ?? new DOMException('the call was cancelled', 'AbortError'), timedOut: false });
  if (parent !== undefined && onParentAbort !== undefined) {
    if (parent.aborted) onParentAbort();
    else parent.addEventListener('abort', onParentAbort, { once: true });
  }
  const timer = setTimeout(() => halt({ reason: new DOMException(`the deadline of ${input.tool.timeoutMs} ms passed`, 'TimeoutError'), timedOut: true }), input.tool.timeoutMs);
  const ctx: ToolContext = {
    callId: input.callId,
    principal: input.principal,
    get signal(): AbortSignal {
      if (controller === undefined) {
        controller = new AbortController();
        if (stop !== undefined) controller.abort(stop.reason);
      }
      return controller.signal;
    },
    deadline: started + input.tool.timeoutMs,
    attempt: input.attempt,
    idempotencyKey: input.idempotencyKey,
    markSent: () => {
      sent = true;
    },
  };
  try {
    const run = input.tool.run as (args: unknown, ctx: ToolContext) => unknown;
    // One promise settled by whichever comes first, the tool or a stop (cheaper than a race).
    const value = await new Promise<unknown>((resolve, reject) => {
      rejectRun = reject;
      // Already stopped (a parent signal aborted before the start): the tool never runs.
      if (stop !== undefined) return reject(stop);
      try {
        Promise.resolve(run(input.args, ctx)).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
    return { kind: 'returned', value, sent, ms: input.now() - started };
  } catch (error) {
    const ms = input.now() - started;
    if (stop !== undefined && error === stop) {
      return stop.timedOut ? { kind: 'timeout', error: stop.reason, sent, ms } : { kind: 'cancelled', error: stop.reason, sent, ms };
    }
    return { kind: 'threw', error, sent, ms };
  } finally {
    clearTimeout(timer);
    if (onParentAbort !== undefined) parent?.removeEventListener('abort', onParentAbort);
  }
}
