/**
 * What a command gets from the outside world, so commands can be run in-process by tests.
 */
import type { Readable, Writable } from 'node:stream';

/** Streams and environment of one CLI invocation. */
export interface CliIO {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** True when stderr is a terminal (progress bars only then). */
  readonly isTTY: boolean;
}

/** One `trc` sub-command. `run` returns the exit code: 0 ok, 1 findings, 2 usage or I/O error. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  run(argv: readonly string[], io: CliIO): Promise<number>;
}

/** A usage error: printed with the command's help hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Write a line to a stream. */
export function println(stream: Writable, text = ''): void {
  stream.write(text + '\n');
}
