/**
 * Flag parsing for every command: `node:util` parseArgs, with its errors rewritten as short
 * usage errors of our own (exit 2 with the command's help hint). Node's wording ("To specify a
 * positional argument starting with a '-', place it at the end of the command after '--'…")
 * never reaches the user.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.js';

/** The option a parseArgs message names: `'-s, --store <value>'` → `--store`. */
function optionIn(message: string): string {
  const quoted = /'([^']*)'/u.exec(message)?.[1] ?? '';
  const names = quoted.replace(/ <value>$/u, '').split(', ');
  return names[names.length - 1] ?? quoted;
}

/**
 * Our wording for a parseArgs error.
 * @example usageMessage(Object.assign(new TypeError("Unknown option '--nope'"), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })) // 'unknown option --nope'
 */
export function usageMessage(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const message = e.message ?? String(error);
  const option = optionIn(message);
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      // A short form is most often an argument that starts with "-" (an old handle, a number).
      return /^-[^-]/u.test(option) ? `unknown option ${option} (an argument that starts with "-" goes after "--")` : `unknown option ${option}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${option}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (message.includes('does not take an argument')) return `${option} takes no value`;
      if (message.includes('ambiguous')) return `${option} needs a value; to give one that starts with "-", write ${option}=VALUE`;
      return `${option} needs a value`;
    default:
      return message.split('\n')[0] ?? message;
  }
}

/** `parseArgs(config)`, throwing {@link UsageError} on an unknown flag or a bad value. */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (cause) {
    throw new UsageError(usageMessage(cause));
  }
}
