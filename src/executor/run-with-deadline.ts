/**
 * Run one attempt of an invoker under a deadline and the caller's AbortSignal. The deadline wins
 * even when the tool ignores its signal, so a hung downstream never hangs the executor.
 */
import type { Invoker, Outcome } from './invoker.js';
import type { Principal, ToolContext } from './types.js';
import { MAX_TIMEOUT_MS } from './tool-spec-check.js';

/** How one attempt ended, with whether the request may have left and how long it took. */
export interface RunOutcome {
  readonly outcome: Outcome;
  readonly sent: boolean;
  readonly ms: number;
}

/** Input of {@link runWithDeadline}. */
export interface RunInput {
  readonly invoker: Invoker;
  readonly args: unknown;
  readonly callId: string;
  readonly principal: Principal;
  readonly attempt: number;
  readonly idempotencyKey: string | null;
  readonly timeoutMs: number;
  /** The invoker reports the send (`markSent`); otherwise the request counts as sent from the start. */
  readonly reportsSend: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly now: () => number;
}

/** Marks the reason the attempt was stopped with, so it is told apart from a tool's own error. */
interface Stop {
  readonly reason: unknown;
  readonly timedOut: boolean;
}

const CANCEL_REASONS = new Set(['client_cancelled', 'client_disconnected']);

/**
 * Make one attempt, bounded by `timeoutMs`.
 * @example const r = await runWithDeadline({ invoker, args, callId: 'c1', principal, attempt: 1, idempotencyKey: null, timeoutMs: 1000, reportsSend: false, now: Date.now });
 */
export async function runWithDeadline(input: RunInput): Promise<RunOutcome> {
  const started = input.now();
  const parent = input.signal;
  let sent = !input.reportsSend;
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
  // A longer delay than a timer holds would fire at once (Node sets it to 1 ms): cap it there.
  const timer = setTimeout(() => halt({ reason: new DOMException(`the deadline of ${input.timeoutMs} ms passed`, 'TimeoutError'), timedOut: true }), Math.min(input.timeoutMs, MAX_TIMEOUT_MS));
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
    deadline: started + input.timeoutMs,
    attempt: input.attempt,
    idempotencyKey: input.idempotencyKey,
    markSent: () => {
      sent = true;
    },
  };
  try {
    // One promise settled by whichever comes first, the tool or a stop (cheaper than a race).
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      rejectRun = reject;
      // Already stopped (a parent signal aborted before the start): the tool never runs.
      if (stop !== undefined) return reject(stop);
      try {
        input.invoker.attempt(input.args, ctx).then(resolve, (error: unknown) => (stop !== undefined && error === stop ? reject(error) : resolve({ kind: 'threw', error })));
      } catch (error) {
        resolve({ kind: 'threw', error });
      }
    });
    return { outcome, sent: outcome.sent ?? sent, ms: input.now() - started };
  } catch (error) {
    const ms = input.now() - started;
    if (stop !== undefined && error === stop) {
      if (stop.timedOut) return { outcome: { kind: 'timeout', afterMs: input.timeoutMs }, sent, ms };
      const why = stop.reason;
      const reason = typeof why === 'string' && CANCEL_REASONS.has(why) ? (why as 'client_cancelled' | 'client_disconnected') : 'caller';
      return { outcome: reason === 'caller' ? { kind: 'cancelled', reason, cause: why } : { kind: 'cancelled', reason }, sent, ms };
    }
    return { outcome: { kind: 'threw', error }, sent, ms };
  } finally {
    clearTimeout(timer);
    if (onParentAbort !== undefined) parent?.removeEventListener('abort', onParentAbort);
  }
}
