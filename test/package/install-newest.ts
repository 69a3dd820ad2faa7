/**
 * `npm install` of the newest releases, tolerant of a registry that is momentarily behind
 * itself: a `latest` dist-tag can name a version whose packument the install does not yet list
 * (ETARGET for @langchain/core@1.5.0 was seen in CI, the same version `npm view` listed minutes
 * later). On ETARGET the spec steps down to the newest earlier release of the same major, so the
 * test still runs against that major; a network error is retried as it is. Anything else throws.
 */
/** Runs npm with the flags every install here wants; throws with npm's stderr on failure. */
export type NpmRunner = (args: readonly string[], cwd: string) => string;

const NOTARGET = /No matching version found for (@?[^@\s]+)@(\d+)\.(\d+)\.(\d+)\b/u;
const TRANSIENT = /\b(?:ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|E5\d\d|socket hang up)\b/u;

const stderrOf = (e: unknown): string => {
  const err = e as { stderr?: unknown; message?: unknown };
  return `${typeof err.stderr === 'string' ? err.stderr : ''}\n${typeof err.message === 'string' ? err.message : ''}`;
};

/**
 * Installs `specs` in `cwd`, stepping a spec down within its major on ETARGET and retrying a
 * network error, at most `tries` times in all. Returns the specs that were installed.
 */
export function installNewest(npm: NpmRunner, specs: readonly string[], cwd: string, tries = 4): string[] {
  let current = [...specs];
  for (let attempt = 1; ; attempt += 1) {
    try {
      npm(['install', ...current], cwd);
      return current;
    } catch (e) {
      const text = stderrOf(e);
      if (attempt >= tries) throw e;
      const miss = NOTARGET.exec(text);
      if (miss !== null) {
        const [, name, major, minor, patch] = miss;
        const below = `${name}@>=${major}.0.0 <${major}.${minor}.${patch}`;
        const at = current.findIndex((s) => s === name || s.startsWith(`${name}@`));
        // A dependency of a package we named, not one of ours: nothing to step down; retry.
        if (at >= 0) current = current.map((s, i) => (i === at ? below : s));
        process.stderr.write(`npm install: ${name}@${major}.${minor}.${patch} not in the registry yet; trying ${at >= 0 ? below : 'again'}\n`);
        continue;
      }
      if (TRANSIENT.test(text)) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5_000 * attempt);
        continue;
      }
      throw e;
    }
  }
}
