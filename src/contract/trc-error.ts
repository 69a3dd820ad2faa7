/**
 * The one thrown error type of the library. Thrown errors are for the caller of the library;
 * they are not the envelope's `error` field, which describes the tool call.
 */
export class TrcError extends Error {
  /** Stable machine code, e.g. `JCS_UNREPRESENTABLE`, `HANDLE_EXPIRED`. */
  readonly code: string;
  /** Structured context, e.g. the JSON Pointer of the offending value. */
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(code: string, message: string, options: { data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TrcError';
    this.code = code;
    this.data = options.data;
  }
}

/** True when `value` is a {@link TrcError}, optionally with the given code. */
export function isTrcError(value: unknown, code?: string): value is TrcError {
  return value instanceof TrcError && (code === undefined || value.code === code);
}
