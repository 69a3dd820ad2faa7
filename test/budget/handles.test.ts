import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLE_ERROR_CODES, fit, mintHandle, newHandleId, page, readHandle } from '../../src/budget/index.js';
import { isTrcError, randomId, validate } from '../../src/contract/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { readStored } from './helpers.js';

const T0 = new Date('2026-09-01T00:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const code = (e: unknown) => (isTrcError(e) ? e.code : String(e));

let dir: string;
let path: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trc-handles-'));
  path = join(dir, 'trc.sqlite');
  store = await openSqliteStore({ path });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storedResult(principal = 'alice') {
  const rows = Array.from({ length: 45 }, (_, i) => ({ id: i }));
  const env = await fit(rows, { maxItems: 10 }, { store, principal, tool: 'list', now: () => T0, ttlMs: 60_000 });
  return { rows, env, uri: env.resources?.[0]?.uri ?? '', cursor: env.completeness?.next?.value ?? '' };
}

describe('handles', () => {
  it('mints 128-bit base64url handles that never repeat', () => {
    const ids = new Set(Array.from({ length: 2000 }, newHandleId));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(16);
  });

  it('never mints a handle or resource id (randomId) that starts with "-", which a command line reads as an option', () => {
    // Without the redraw, one id in 64 starts with "-": 10,000 draws all miss it with chance (63/64)^10000.
    const ids = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? newHandleId() : randomId()));
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[\w-]{22}$/u);
  });

  it('lets the minting principal read its resource before expiry', async () => {
    const { rows, uri } = await storedResult();
    const bytes = await readStored(store, uri, 'alice', later(1000));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(rows);
  });

  it('refuses a handle read by another principal', async () => {
    const { uri } = await storedResult();
    const err = await readStored(store, uri, 'bob', later(1000)).catch((e: unknown) => e);
    expect(code(err)).toBe(HANDLE_ERROR_CODES.wrongPrincipal);
  });

  it('refuses a handle after it expired', async () => {
    const { uri } = await storedResult();
    const err = await readStored(store, uri, 'alice', later(60_000)).catch((e: unknown) => e);
    expect(code(err)).toBe(HANDLE_ERROR_CODES.expired);
  });

  it('checks the principal before expiry, so a stranger learns nothing', async () => {
    const { uri } = await storedResult();
    const err = await readStored(store, uri, 'bob', later(120_000)).catch((e: unknown) => e);
    expect(code(err)).toBe(HANDLE_ERROR_CODES.wrongPrincipal);
  });

  it('refuses unknown and malformed handles with HANDLE_UNKNOWN', async () => {
    for (const id of [newHandleId(), 'not a handle', '', 'trc://resource/../../etc']) {
      const err = await readHandle(store, id, { principal: 'alice' }).catch((e: unknown) => e);
      expect(code(err)).toBe(HANDLE_ERROR_CODES.unknown);
    }
  });

  it('refuses a handle used for another tool or as the wrong kind', async () => {
    const { uri, cursor } = await storedResult();
    expect(code(await readHandle(store, uri, { principal: 'alice', tool: 'other', now: T0 }).catch((e: unknown) => e))).toBe(HANDLE_ERROR_CODES.wrongTool);
    expect(code(await readHandle(store, cursor, { principal: 'alice', kind: 'resource', now: T0 }).catch((e: unknown) => e))).toBe(HANDLE_ERROR_CODES.wrongKind);
  });

  it('needs no connection state: a handle works from a fresh connection to the same database', async () => {
    const { uri } = await storedResult();
    const other = await openSqliteStore({ path });
    try {
      expect((await readStored(other, uri, 'alice', later(1000))).length).toBeGreaterThan(0);
      expect(code(await readStored(other, uri, 'mallory', later(1000)).catch((e: unknown) => e))).toBe(HANDLE_ERROR_CODES.wrongPrincipal);
    } finally {
      await other.close();
    }
  });

  it('refuses to mint a handle for an empty principal', async () => {
    const err = await mintHandle(store, { kind: 'resource', principal: '', tool: 't', target: { resourceId: 'x' } }).catch((e: unknown) => e);
    expect(code(err)).toBe('HANDLE_PRINCIPAL_REQUIRED');
  });
});

describe('page', () => {
  it('walks the externalized list to its end with correct completeness and cursors', async () => {
    const { rows, env, cursor } = await storedResult();
    const seen = [...(env.data as unknown[])];
    let next: string | null = cursor;
    let pages = 0;
    while (next !== null) {
      const p = await page(next, 'alice', { store, pageSize: 15, now: () => later(1000) });
      expect(validate(p).findings).toEqual([]);
      // Available items are counted from this page on.
      expect(p.completeness?.available_items).toBe(45 - seen.length);
      seen.push(...(p.data as unknown[]));
      next = p.completeness?.next?.value ?? null;
      expect(p.status).toBe(next === null ? 'succeeded' : 'partial');
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(rows);
  });

  it('refuses a cursor paged by another principal or after expiry', async () => {
    const { cursor } = await storedResult();
    expect(code(await page(cursor, 'bob', { store, now: () => later(1000) }).catch((e: unknown) => e))).toBe(HANDLE_ERROR_CODES.wrongPrincipal);
    expect(code(await page(cursor, 'alice', { store, now: () => later(60_000) }).catch((e: unknown) => e))).toBe(HANDLE_ERROR_CODES.expired);
  });

  it('hands over the upstream cursor on the last page of an upstream-incomplete result', async () => {
    const input = {
      contract_version: 'agent.tool.result.v1',
      call: { tool_name: 'list', call_id: 'c1', attempt: 1 },
      status: 'partial',
      data: { items: Array.from({ length: 12 }, (_, i) => ({ id: i })) },
      completeness: { state: 'partial', next: { type: 'cursor', value: 'cursor_002' }, available_items: null },
      provenance: { source_type: 'api', source_id: 'items', retrieved_at: '2026-08-31T10:20:00Z' },
      side_effect: { occurred: false, operation: 'list' },
      warnings: [],
    };
    const env = await fit(input, { maxItems: 5 }, { store, principal: 'alice', now: () => T0 });
    const own = (env.extensions?.['trc_page_cursor'] as { value: string }).value;
    const p = await page(own, 'alice', { store, pageSize: 100, now: () => later(1) });
    expect(p.data).toEqual(input.data.items.slice(5));
    expect(p.completeness).toMatchObject({ state: 'partial', available_items: null, next: { value: 'cursor_002' } });
  });
});
