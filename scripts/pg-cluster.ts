/**
 * A throwaway PostgreSQL cluster for tests and local development (no Docker, no system service):
 * finds `/usr/lib/postgresql/<v>/bin` (installing the Debian `postgresql` package with apt when
 * absent and running as root), runs `initdb` in a temp dir — as the `postgres` OS user when root,
 * because initdb refuses root — starts it on a free 127.0.0.1 port and creates a database.
 * Used by `test/store/pg-global-setup.ts` and `scripts/pg-test-server.ts`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A running throwaway cluster. */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` (trust auth, local only). */
  readonly url: string;
  /** Stop the server and delete its data directory. */
  stop(): Promise<void>;
}

const log = (message: string): void => {
  process.stderr.write(`[pg-cluster] ${message}\n`);
};

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], 'bin');
}

function installPostgres(): void {
  if (!isRoot()) {
    throw new Error('PostgreSQL binaries not found in /usr/lib/postgresql/*/bin and not running as root to install them: install PostgreSQL or set TRC_PG_URL');
  }
  log('PostgreSQL not found; running apt-get update && apt-get install -y postgresql (about a minute)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'postgresql']]) {
    // apt's output goes to stderr so a reporter reading stdout is not disturbed.
    const result = spawnSync('apt-get', args, { stdio: ['ignore', process.stderr, process.stderr], env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${String(result.status ?? result.error)})`);
  }
  log('PostgreSQL installed.');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** Run a PostgreSQL binary, as the `postgres` OS user when we are root. */
function runPg(bin: string, args: readonly string[], cwd: string): void {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, [...args]];
  try {
    // cwd: a directory the postgres user can enter (the repo may not be readable to it).
    execFileSync(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], cwd });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`${bin} failed: ${stderr.trim() || String(error)}`, { cause: error });
  }
}

function postgresUserIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('cannot find the postgres OS user');
  return { uid, gid };
}

/** Start a throwaway cluster with one database (`trc_test` unless named). */
export async function startThrowawayPostgres(options: { database?: string } = {}): Promise<ThrowawayPostgres> {
  const database = options.database ?? 'trc_test';
  let bin = findBinDir();
  if (bin === null) {
    installPostgres();
    bin = findBinDir();
    if (bin === null) throw new Error('apt-get installed postgresql but no /usr/lib/postgresql/*/bin/initdb was found');
  }
  const binDir = bin;
  const dir = mkdtempSync(join(tmpdir(), 'trc-pg-'));
  const data = join(dir, 'data');
  if (isRoot()) {
    const { uid, gid } = postgresUserIds();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  log(`initdb + start in ${dir} on 127.0.0.1:${port}`);
  let started = false;
  const stop = async (): Promise<void> => {
    if (started) {
      started = false;
      try {
        runPg(join(binDir, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], dir);
      } catch (error) {
        log(`pg_ctl stop failed: ${String(error)}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    runPg(join(binDir, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync', '--no-instructions'], dir);
    // Durability is pointless for a throwaway test cluster; these make it much faster.
    const serverOptions = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    runPg(join(binDir, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start'], dir);
    started = true;
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`, stop };
}
