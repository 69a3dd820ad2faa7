/**
 * `trc` entry point: dispatch to a command, map thrown errors to exit codes.
 */
import { readFileSync } from 'node:fs';
import { TrcError } from '../contract/trc-error.js';
import { InputError } from './input.js';
import { cliDefaultStore } from './store.js';
import { type CliIO, UsageError, println } from './io.js';
import { COMMANDS } from './registry.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function topHelp(io: CliIO): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'trc — tool result contract: verifiable envelopes for AI agent tool results',
    '',
    'Usage: trc <command> [options]     trc <command> --help for details',
    '       (installed as both "tool-result-contract" and "trc";',
    '        without an install: npx -y tool-result-contract <command>)',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Store: --store PATH, else $TRC_STORE, else the user data directory, here',
    `  ${cliDefaultStore(io)}`,
    '  (XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application Support on macOS,',
    '  %LOCALAPPDATA% on Windows). A project-local store only when asked: --store .trc/trc.sqlite',
    '',
    'Exit codes: 0 ok, 1 the input broke the contract (findings), 2 usage or I/O error.',
  ].join('\n');
}

/** Run `trc` with `argv` (without node and script). Returns the exit code. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    println(io.stdout, topHelp(io));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    println(io.stdout, version());
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry === undefined) {
    println(io.stderr, `trc: unknown command "${name}". Run "trc --help" for the list.`);
    return 2;
  }
  let command;
  try {
    ({ command } = await entry.load());
  } catch (cause) {
    println(io.stderr, `trc ${name}: this command could not be loaded: ${(cause as Error).message}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    println(io.stdout, command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      println(io.stderr, `trc ${name}: ${error.message}\nRun "trc ${name} --help" for usage.`);
      return 2;
    }
    if (error instanceof InputError) {
      println(io.stderr, `trc ${name}: ${error.message}`);
      return 2;
    }
    if (error instanceof TrcError) {
      println(io.stderr, `trc ${name}: ${error.code}: ${error.message}`);
      return 2;
    }
    println(io.stderr, `trc ${name}: ${internalError(error)}`);
    if (io.env['TRC_DEBUG'] !== undefined && io.env['TRC_DEBUG'] !== '') println(io.stderr, (error as Error).stack ?? String(error));
    return 2;
  }
}

/** One line for an error no command expected; the stack only with TRC_DEBUG set. */
function internalError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // What V8 throws when input outgrows the stack or the heap's string limit.
  if (error instanceof RangeError && /call stack/u.test(message)) return 'the input is nested too deeply to process (the call stack ran out)';
  if (error instanceof RangeError && /string length/u.test(message)) return 'the input is too large to hold as one string (V8 allows ~512 MiB)';
  return `internal error: ${message.split('\n')[0] ?? ''} (set TRC_DEBUG=1 for the stack trace)`;
}
