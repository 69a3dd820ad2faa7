/**
 * Where a store lives when nobody says: the platform's per-user data directory, never the
 * working directory. An MCP host that starts the gateway with cwd `/` must not get `/.trc/`.
 */
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** The folder name under the platform's data directory. */
export const DATA_DIR_NAME = 'tool-result-contract';

/** What the location depends on; defaults to the running process. */
export interface DataDirContext {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  /** The home directory when the environment names none (default `os.homedir()`). */
  readonly home?: string;
}

const set = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * The per-user data directory of tool-result-contract:
 * Linux and other Unix `$XDG_DATA_HOME/tool-result-contract`, else
 * `~/.local/share/tool-result-contract`; macOS `~/Library/Application Support/tool-result-contract`;
 * Windows `%LOCALAPPDATA%\tool-result-contract`, else `~\AppData\Local\tool-result-contract`.
 * A relative `XDG_DATA_HOME` is ignored, as the XDG spec says.
 * @example userDataDir({ platform: 'linux', env: { HOME: '/home/ada' } }) // '/home/ada/.local/share/tool-result-contract'
 */
export function userDataDir(context: DataDirContext = {}): string {
  const env = context.env ?? process.env;
  const platform = context.platform ?? process.platform;
  if (platform === 'win32') {
    const local = env['LOCALAPPDATA'];
    if (set(local)) return win32.join(local, DATA_DIR_NAME);
    const home = set(env['USERPROFILE']) ? env['USERPROFILE'] : (context.home ?? homedir());
    return win32.join(home, 'AppData', 'Local', DATA_DIR_NAME);
  }
  const home = set(env['HOME']) ? env['HOME'] : (context.home ?? homedir());
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', DATA_DIR_NAME);
  const xdg = env['XDG_DATA_HOME'];
  if (set(xdg) && posix.isAbsolute(xdg)) return posix.join(xdg, DATA_DIR_NAME);
  return posix.join(home, '.local', 'share', DATA_DIR_NAME);
}

/**
 * The default SQLite store file: `trc.sqlite` (or `file`) in {@link userDataDir}.
 * @example defaultStorePath() // '/home/ada/.local/share/tool-result-contract/trc.sqlite'
 */
export function defaultStorePath(context: DataDirContext = {}, file = 'trc.sqlite'): string {
  const dir = userDataDir(context);
  return (context.platform ?? process.platform) === 'win32' ? win32.join(dir, file) : posix.join(dir, file);
}

/**
 * True when a store location is a PostgreSQL connection URL (`postgres://`, `postgresql://`)
 * rather than a SQLite file path.
 * @example isPostgresUrl('postgres://trc@db/trc') // true
 */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//iu.test(location);
}
