/**
 * Syncing a call's run with the store around the pipeline's run step and after it records a
 * result: a run kept in memory has nothing to sync; a stored one that cannot be synced is
 * reported as an error the pipeline turns into a refusal or a warning, never a thrown call.
 */
import { isTrcError } from '../contract/index.js';
import type { RunAuthority } from '../trust/index.js';

/**
 * Sync a run kept in the store (nothing to do for one in memory): the error when it could not.
 * @example const problem = await runSynced(run); // null when synced
 */
export async function runSynced(run: RunAuthority): Promise<{ code: string; message: string } | null> {
  if (run.sync === undefined) return null;
  try {
    await run.sync();
    return null;
  } catch (error) {
    return { code: isTrcError(error) ? error.code : 'RUN_NOT_STORED', message: error instanceof Error ? error.message : String(error) };
  }
}
