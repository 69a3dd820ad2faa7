import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { openSqliteDatabase, openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-store-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('store options checked at open', () => {
  it.each([
    [{ busyTimeoutMs: '100' }, '/busyTimeoutMs'],
    [{ busyTimeoutMs: -1 }, '/busyTimeoutMs'],
    [{ staleWriterMs: 0 }, '/staleWriterMs'],
    [{ staleWriterMs: Number.NaN }, '/staleWriterMs'],
  ])('openSqliteStore refuses %j with STORE_BAD_OPTIONS and its pointer', async (bad, pointer) => {
    const error = await openSqliteStore({ path: join(dir, 'x.db'), ...(bad as object) }).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: STORE_ERROR_CODES.badOptions, data: { pointer } });
  });

  it('staleWriterMs cannot be set so low that opening deletes what a live process is still writing', async () => {
    const path = join(dir, 'live-writer.db');
    const writing = await openSqliteStore({ path });
    const writer = await writing.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: null });
    await writer.write(Buffer.from('half'));
    // The second opener's clock must be past the writer's last touch for "stale" to apply.
    const raw = openSqliteDatabase(path);
    raw.prepare('UPDATE resources SET touched_ms = touched_ms - 10 WHERE id = ?').run(writer.id);
    raw.close();
    await openSqliteStore({ path, staleWriterMs: 0 }).then((s) => s.close(), () => undefined);
    await writer.write(Buffer.from(' and the rest'));
    expect((await writer.commit()).bytes).toBe(17);
    await writing.close();
  });

  it.each([
    [{ chunkBytes: 0 }, '/chunkBytes'],
    [{ chunkBytes: 2.5 }, '/chunkBytes'],
    [{ max: 0 }, '/max'],
    [{ queryTimeoutMs: -5 }, '/queryTimeoutMs'],
    [{ schema: 'x"; DROP TABLE y; --' }, '/schema'],
  ])('openPostgresStore refuses %j with STORE_BAD_OPTIONS and its pointer, before connecting', async (bad, pointer) => {
    // Nothing listens on port 1: reaching the server would fail with STORE_BACKEND_ERROR instead.
    const error = await openPostgresStore({ connectionString: 'postgres://nobody@127.0.0.1:1/none', ...(bad as object) }).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: STORE_ERROR_CODES.badOptions, data: { pointer } });
  });
});
