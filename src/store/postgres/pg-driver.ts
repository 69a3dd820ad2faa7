/**
 * The part of `pg` the PostgreSQL store uses, as structural types (so the published `.d.ts`
 * needs neither `pg` nor `@types/pg`), and loading `pg` — an optional peer — on first use.
 */
import { STORE_ERROR_CODES, storeError } from '../errors.js';

/** A query result: only the rows are read. */
export interface PgResult<R> {
  readonly rows: R[];
}

/** A pooled connection (`pg.PoolClient`). */
export interface PgPoolClient {
  query<R = never>(text: string, values?: unknown[]): Promise<PgResult<R>>;
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

/** A connection pool (`pg.Pool`, or anything shaped like it). */
export interface PgPool {
  query<R = never>(text: string, values?: unknown[]): Promise<PgResult<R>>;
  connect(): Promise<PgPoolClient>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<void>;
}

interface PgModule {
  Pool: new (config: { connectionString: string; max: number; connectionTimeoutMillis: number; query_timeout: number }) => PgPool;
}

/** Load `pg`, or throw `STORE_DRIVER_MISSING` naming it. */
export async function loadPg(): Promise<PgModule> {
  try {
    const mod = (await import('pg')) as { default?: PgModule } & Partial<PgModule>;
    return (mod.default ?? mod) as PgModule;
  } catch (cause) {
    throw storeError(STORE_ERROR_CODES.driverMissing, `the PostgreSQL store needs the package pg (npm install pg): ${(cause as Error).message.split('\n')[0] ?? ''}`, { driver: 'pg' }, cause);
  }
}
