import { STORE_ERROR_CODES, storeError } from './errors.js';

/** An option a store opener cannot take: its JSON Pointer and what is wrong with it. */
export interface OptionProblem {
  readonly pointer: string;
  readonly message: string;
}

/** `value` as a problem unless it is absent or a whole number of at least `min`. */
function wholeNumber(value: unknown, pointer: string, what: string, min: number): OptionProblem | null {
  if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= min)) return null;
  return { pointer, message: `must be a whole number of ${what} of at least ${min}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}` };
}

/**
 * The first option of an SQLite store with a value it cannot have. Checked at open: a typo there
 * changes durability silently (`synchronous`), makes every open fail with a driver message
 * (`busyTimeoutMs: '5000'`), or (`staleWriterMs: 0`) deletes the uncommitted results other live
 * processes are still writing.
 */
export function sqliteOptionProblem(options: Readonly<Record<string, unknown>>): OptionProblem | null {
  const { synchronous, driver } = options;
  if (synchronous !== undefined && synchronous !== 'FULL' && synchronous !== 'NORMAL') return { pointer: '/synchronous', message: `must be "FULL" or "NORMAL", got ${JSON.stringify(synchronous)}` };
  if (driver !== undefined && driver !== 'auto' && driver !== 'better-sqlite3' && driver !== 'node:sqlite') return { pointer: '/driver', message: `must be "auto", "better-sqlite3" or "node:sqlite", got ${JSON.stringify(driver)}` };
  return wholeNumber(options['chunkBytes'], '/chunkBytes', 'bytes', 1)
    ?? wholeNumber(options['busyTimeoutMs'], '/busyTimeoutMs', 'milliseconds', 0)
    ?? wholeNumber(options['staleWriterMs'], '/staleWriterMs', 'milliseconds', 1000);
}

/**
 * The first option of a PostgreSQL store with a value it cannot have. A bad `chunkBytes` used to
 * surface only in `createResource`, after the writer had taken a pooled connection it then never
 * gave back; `max: 0` makes a pool that never hands out a connection.
 */
export function postgresOptionProblem(options: Readonly<Record<string, unknown>>): OptionProblem | null {
  const schema = options['schema'];
  if (schema !== undefined && (typeof schema !== 'string' || !/^[a-z_]\w{0,62}$/iu.test(schema))) {
    return { pointer: '/schema', message: `must be a plain SQL identifier (letters, digits, _), got ${JSON.stringify(schema)}` };
  }
  return wholeNumber(options['chunkBytes'], '/chunkBytes', 'bytes', 1) ?? wholeNumber(options['max'], '/max', 'connections', 1)
    ?? wholeNumber(options['queryTimeoutMs'], '/queryTimeoutMs', 'milliseconds', 1);
}

/** Throw `STORE_BAD_OPTIONS` for `problem`, naming the opener and the option's pointer. */
export function refuseOptions(opener: string, problem: OptionProblem | null): void {
  if (problem !== null) throw storeError(STORE_ERROR_CODES.badOptions, `${opener}: ${problem.pointer.slice(1)} ${problem.message}`, { pointer: problem.pointer });
}
