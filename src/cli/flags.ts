/**
 * Flag parsing for every command: `node:util` parseArgs, with its errors turned into usage
 * errors (exit 2 with the command's help hint).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.js';

/** `parseArgs(config)`, throwing {@link UsageError} on an unknown flag or a bad value. */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (cause) {
    throw new UsageError((cause as Error).message);
  }
}
