/**
 * How a tool reports a failure it understands (a business rule, a missing record): a
 * `ToolFailure` carries the envelope's error fields, so nothing has to be guessed from a message.
 */
import { TrcError, type ErrorAction, type ErrorCategory, type ErrorInfo } from '../contract/index.js';

/** Fields of a failure the tool itself classified. */
export interface ToolFailureInput {
  readonly category: ErrorCategory;
  /** Stable machine code, e.g. `ORDER_NOT_REFUNDABLE`. */
  readonly code: string;
  readonly message: string;
  readonly retryable?: boolean;
  readonly action?: ErrorAction;
  readonly http_status?: number;
  readonly details?: unknown;
  /**
   * For writes: false when the tool knows nothing was applied downstream (e.g. a declined card).
   * Left out, a business/validation/authorization failure counts as not applied.
   */
  readonly applied?: false | 'maybe';
}

const DEFAULT_ACTION: Partial<Record<ErrorCategory, ErrorAction>> = {
  validation: 'fix_arguments',
  authorization: 'request_authorization',
  authentication: 'request_authorization',
  rate_limited: 'retry_later',
  network: 'retry',
  transport_timeout: 'retry',
};

/**
 * A failure a tool throws on purpose. The executor copies its fields into the envelope's `error`.
 * @example throw new ToolFailure({ category: 'business', code: 'ORDER_NOT_REFUNDABLE', message: 'refund window closed' });
 */
export class ToolFailure extends TrcError {
  readonly failure: ToolFailureInput;

  constructor(input: ToolFailureInput) {
    super(input.code, input.message, { data: { category: input.category } });
    this.name = 'ToolFailure';
    this.failure = input;
  }

  /** The envelope's error block for this failure. */
  toErrorInfo(): ErrorInfo {
    const f = this.failure;
    const info: ErrorInfo = {
      category: f.category,
      code: f.code,
      message: f.message,
      retryable: f.retryable ?? false,
      action: f.action ?? DEFAULT_ACTION[f.category] ?? 'explain_to_user',
      kind: 'execution',
    };
    if (f.http_status !== undefined) info.http_status = f.http_status;
    if (f.details !== undefined) info.details = f.details;
    return info;
  }
}

/** True when `value` is a {@link ToolFailure}. */
export function isToolFailure(value: unknown): value is ToolFailure {
  return value instanceof ToolFailure;
}
