import type { PgPool } from './pg-driver.js';

/** One audit row: call id, tool, started (ms), started (text), record (JSON text). */
export type AuditInsertRow = readonly [string, string, number, string, string];

// PostgreSQL takes at most 65,535 parameters per statement: 1,000 rows of 5.
const SLICE = 1000;

/**
 * Insert audit rows, skipping call ids already recorded or repeated, and return the skipped ids.
 * Up to 1,000 rows are one statement (atomic by itself); a longer batch runs its statements in
 * one transaction on one connection, so a batch that fails part-way (a row PostgreSQL refuses,
 * a dropped connection) leaves nothing, as the store promises, instead of its first slices.
 */
export async function insertAuditRows(pool: PgPool, s: string, rows: readonly AuditInsertRow[]): Promise<string[]> {
  const skipped: string[] = [];
  const insert = async (run: PgPool['query'], slice: readonly AuditInsertRow[]): Promise<void> => {
    const values = slice.map((_, k) => `($${5 * k + 1}, $${5 * k + 2}, $${5 * k + 3}, $${5 * k + 4}, $${5 * k + 5})`).join(', ');
    const inserted = new Set((await run<{ call_id: string }>(
      `INSERT INTO ${s}.audit (call_id, tool, started_ms, started_at, record) VALUES ${values} ON CONFLICT (call_id) DO NOTHING RETURNING call_id`,
      slice.flat(),
    )).rows.map((r) => r.call_id));
    // A call id repeated within the slice is inserted once: later copies count as skipped.
    for (const row of slice) {
      if (inserted.has(row[0])) inserted.delete(row[0]);
      else skipped.push(row[0]);
    }
  };
  if (rows.length === 0) return skipped;
  if (rows.length <= SLICE) {
    await insert((text, values) => pool.query(text, values), rows);
    return skipped;
  }
  const client = await pool.connect();
  const onClientError = (): void => undefined;
  client.on('error', onClientError);
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    for (let from = 0; from < rows.length; from += SLICE) await insert((text, values) => client.query(text, values), rows.slice(from, from + SLICE));
    await client.query('COMMIT');
    return skipped;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      // A connection that cannot roll back is destroyed; the server discards the transaction.
      failure = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.off('error', onClientError);
    client.release(failure);
  }
}
