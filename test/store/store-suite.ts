/**
 * The one behaviour suite every Store implementation must pass (memory, SQLite, PostgreSQL).
 */
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditRecord, HandleRecord, Store } from '../../src/store/index.js';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { collect, expectCode, ledgerInput, readFixture } from './store-helpers.js';

/** How the suite gets and disposes of stores for one implementation. */
export interface StoreSuiteOptions {
  /** A fresh, empty store. */
  newStore(): Promise<Store>;
  /** Release what `newStore` created (the suite closes the store first). */
  cleanup?(store: Store): Promise<void>;
  /** A second, independent connection to the same data as `store` (omit when there is none). */
  reopen?(store: Store): Promise<Store>;
  /** fast-check runs for property tests (fewer for slow backends). */
  propertyRuns?: number;
}

const RESOURCE_INPUT = { principal: 'alice', tool: 'search', mimeType: 'application/json', expiresAt: '2030-01-01T00:00:00.000Z' };

/** Register the shared behaviour tests for one Store implementation. */
export function runStoreSuite(name: string, options: StoreSuiteOptions): void {
  describe(`${name} store`, () => {
    const opened: Store[] = [];
    const fresh = async (): Promise<Store> => {
      const store = await options.newStore();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) {
        await store.close();
        await options.cleanup?.(store);
      }
    });

    describe('resources', () => {
      it('refuses an expiry that is not a date-time with STORE_BAD_TIMESTAMP, as no sweep could ever remove the result', async () => {
        const store = await fresh();
        const error = await store.createResource({ ...RESOURCE_INPUT, expiresAt: 'next tuesday' }).then(() => null, (e: unknown) => e);
        expect(error).toMatchObject({ code: STORE_ERROR_CODES.badTimestamp, data: { pointer: '/expiresAt' } });
        const kept = await store.createResource({ ...RESOURCE_INPUT, expiresAt: null });
        await kept.write(new Uint8Array([1]));
        expect((await kept.commit()).expiresAt).toBeNull();
      });

      it('round-trips a small resource byte for byte with its metadata', async () => {
        const store = await fresh();
        const bytes = new TextEncoder().encode('{"rows":[1,2,3],"text":"héllo ✓ 😀"}');
        const writer = await store.createResource(RESOURCE_INPUT);
        await writer.write(bytes);
        const meta = await writer.commit();
        expect(meta).toMatchObject({ ...RESOURCE_INPUT, id: writer.id, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') });
        expect(Number.isNaN(Date.parse(meta.createdAt))).toBe(false);
        expect(await store.getResourceMeta(writer.id)).toEqual(meta);
        expect(Buffer.from(await collect(store.readResource(writer.id))).equals(Buffer.from(bytes))).toBe(true);
      });

      it('stores an empty resource', async () => {
        const store = await fresh();
        const writer = await store.createResource({ ...RESOURCE_INPUT, expiresAt: null });
        const meta = await writer.commit();
        expect(meta).toMatchObject({ bytes: 0, expiresAt: null, sha256: createHash('sha256').digest('hex') });
        expect((await collect(store.readResource(meta.id))).byteLength).toBe(0);
      });

      it('round-trips a resource written in many odd-sized chunks, including empty ones', async () => {
        const store = await fresh();
        const source = randomBytes(3 * 1024 * 1024 + 17);
        const writer = await store.createResource(RESOURCE_INPUT);
        let at = 0;
        let step = 1;
        while (at < source.byteLength) {
          await writer.write(source.subarray(at, at + step));
          if (step % 7 === 0) await writer.write(new Uint8Array(0));
          at += step;
          step = (step * 31 + 7) % 200_003;
        }
        const meta = await writer.commit();
        expect(meta.bytes).toBe(source.byteLength);
        expect(Buffer.from(await collect(store.readResource(meta.id))).equals(source)).toBe(true);
      });

      it('reads from a byte offset exactly the bytes from there on, without the chunks before it', async () => {
        const store = await fresh();
        const source = randomBytes(3 * 1024 * 1024 + 17);
        const writer = await store.createResource(RESOURCE_INPUT);
        for (let at = 0; at < source.byteLength; at += 100_003) await writer.write(source.subarray(at, at + 100_003));
        const meta = await writer.commit();
        const last = source.byteLength - 1;
        for (const from of [0, 1, 4095, 4096, 1000, 1024 * 1024, 1024 * 1024 + 1, 2 * 1024 * 1024 - 1, last, source.byteLength, source.byteLength + 9]) {
          expect(Buffer.from(await collect(store.readResource(meta.id, from))).equals(source.subarray(from)), `from ${from}`).toBe(true);
        }
        // The last byte is one chunk away, however many chunks come before it.
        let chunks = 0;
        for await (const chunk of store.readResource(meta.id, last)) chunks += chunk.byteLength > 0 ? 1 : 0;
        expect(chunks).toBe(1);
      });

      it('streams back a resource larger than 10 MB in bounded chunks', async () => {
        const store = await fresh();
        const piece = 64 * 1024;
        const total = 12 * 1024 * 1024 + 5;
        const writeHash = createHash('sha256');
        const writer = await store.createResource({ ...RESOURCE_INPUT, mimeType: 'application/octet-stream' });
        for (let at = 0; at < total; at += piece) {
          const chunk = randomBytes(Math.min(piece, total - at));
          writeHash.update(chunk);
          await writer.write(chunk);
        }
        const meta = await writer.commit();
        const expected = writeHash.digest('hex');
        expect(meta).toMatchObject({ bytes: total, sha256: expected });
        const readHash = createHash('sha256');
        let read = 0;
        let chunks = 0;
        let largest = 0;
        for await (const chunk of store.readResource(meta.id)) {
          readHash.update(chunk);
          read += chunk.byteLength;
          chunks += 1;
          largest = Math.max(largest, chunk.byteLength);
        }
        expect(read).toBe(total);
        expect(readHash.digest('hex')).toBe(expected);
        expect(chunks).toBeGreaterThan(1);
        expect(largest).toBeLessThanOrEqual(4 * 1024 * 1024);
      });

      it('is not corrupted when the caller reuses its buffer between writes', async () => {
        const store = await fresh();
        const buffer = new Uint8Array(4);
        const writer = await store.createResource(RESOURCE_INPUT);
        for (const value of [1, 2, 3]) {
          buffer.fill(value);
          await writer.write(buffer);
        }
        const meta = await writer.commit();
        expect([...(await collect(store.readResource(meta.id)))]).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
      });

      it('shows nothing of a writer that has written but not committed', async () => {
        const store = await fresh();
        const writer = await store.createResource(RESOURCE_INPUT);
        await writer.write(randomBytes(2 * 1024 * 1024));
        expect(await store.getResourceMeta(writer.id)).toBeNull();
        await expectCode(collect(store.readResource(writer.id)), STORE_ERROR_CODES.resourceNotFound);
        await writer.abort();
      });

      it('leaves no resource after abort and refuses further use of the writer', async () => {
        const store = await fresh();
        const writer = await store.createResource(RESOURCE_INPUT);
        await writer.write(randomBytes(1500));
        await writer.abort();
        expect(await store.getResourceMeta(writer.id)).toBeNull();
        await expectCode(writer.write(new Uint8Array(1)), STORE_ERROR_CODES.writerClosed);
        await expectCode(writer.commit(), STORE_ERROR_CODES.writerClosed);
        await writer.abort();
      });

      it('refuses writes after commit, and a second commit', async () => {
        const store = await fresh();
        const writer = await store.createResource(RESOURCE_INPUT);
        await writer.write(new Uint8Array([1]));
        await writer.commit();
        await expectCode(writer.write(new Uint8Array([2])), STORE_ERROR_CODES.writerClosed);
        await expectCode(writer.commit(), STORE_ERROR_CODES.writerClosed);
        await expectCode(writer.abort(), STORE_ERROR_CODES.writerClosed);
        expect((await store.getResourceMeta(writer.id))?.bytes).toBe(1);
      });

      it('refuses a chunk that is not bytes', async () => {
        const store = await fresh();
        const writer = await store.createResource(RESOURCE_INPUT);
        await expectCode(writer.write('text' as unknown as Uint8Array), STORE_ERROR_CODES.badChunk);
        await writer.abort();
      });

      it('fails reading an unknown resource with a stable code', async () => {
        const store = await fresh();
        expect(await store.getResourceMeta('no-such-id')).toBeNull();
        await expectCode(collect(store.readResource('no-such-id')), STORE_ERROR_CODES.resourceNotFound);
      });

      it('reproduces any sequence of writes byte for byte (property)', async () => {
        const store = await fresh();
        await fc.assert(
          fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 3000 }), { maxLength: 12 }), async (parts) => {
            const writer = await store.createResource(RESOURCE_INPUT);
            for (const part of parts) await writer.write(part);
            const meta = await writer.commit();
            const expected = Buffer.concat(parts);
            expect(meta.bytes).toBe(expected.byteLength);
            expect(Buffer.from(await collect(store.readResource(meta.id))).equals(expected)).toBe(true);
          }),
          { numRuns: options.propertyRuns ?? 60 },
        );
      });
    });

    describe('handles', () => {
      const handle: HandleRecord = {
        id: 'h_Q2xhdWRlIHdhcyBoZXJl', kind: 'cursor', principal: 'alice', tool: 'list_orders',
        target: { resourceId: 'r1', offset: 20, pointer: '/data/items' },
        createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T01:00:00.000Z',
      };

      it('round-trips a cursor handle with its target', async () => {
        const store = await fresh();
        await store.putHandle(handle);
        expect(await store.getHandle(handle.id)).toEqual(handle);
        expect(await store.getHandle('other')).toBeNull();
      });

      it('sweeps expired handles and resources, keeping live ones, unexpiring ones and open writers', async () => {
        const store = await fresh();
        await store.putHandle(handle); // expires 01:00Z
        await store.putHandle({ ...handle, id: 'h_live', expiresAt: '2026-01-01T03:00:00.000+02:00' }); // 01:00Z too, as an instant
        await store.putHandle({ ...handle, id: 'h_later', expiresAt: '2026-01-02T00:00:00.000Z' });
        const write = async (expiresAt: string | null) => {
          const w = await store.createResource({ ...RESOURCE_INPUT, expiresAt });
          await w.write(new TextEncoder().encode('[1,2,3]'));
          return (await w.commit()).id;
        };
        const old = await write('2026-01-01T00:30:00.000Z');
        const later = await write('2026-01-02T00:00:00.000Z');
        const forever = await write(null);
        const open = await store.createResource({ ...RESOURCE_INPUT, expiresAt: '2026-01-01T00:00:00.000Z' });
        await open.write(new TextEncoder().encode('[4'));
        expect(await store.sweepExpired('2026-01-01T01:00:00.001Z')).toEqual({ handles: 2, resources: 1 });
        expect(await store.getHandle(handle.id)).toBeNull();
        expect(await store.getHandle('h_live')).toBeNull();
        expect((await store.getHandle('h_later'))?.id).toBe('h_later');
        expect(await store.getResourceMeta(old)).toBeNull();
        expect((await store.getResourceMeta(later))?.id).toBe(later);
        expect((await store.getResourceMeta(forever))?.id).toBe(forever);
        // The writer still open is not touched: it commits normally afterwards.
        await open.write(new TextEncoder().encode(']'));
        const late = await open.commit();
        expect(late.bytes).toBe(3);
        // Committed now, and already expired: the next sweep takes it, and only it.
        expect(await store.sweepExpired('2026-01-01T01:00:00.001Z')).toEqual({ handles: 0, resources: 1 });
        expect(await store.getResourceMeta(late.id)).toBeNull();
        expect(await store.sweepExpired('2026-01-01T01:00:00.001Z')).toEqual({ handles: 0, resources: 0 });
        await expectCode(store.sweepExpired('soon'), STORE_ERROR_CODES.badTimestamp);
      });

      it('refuses a second handle with the same id', async () => {
        const store = await fresh();
        await store.putHandle(handle);
        await expectCode(store.putHandle({ ...handle, principal: 'mallory' }), STORE_ERROR_CODES.handleExists);
        expect((await store.getHandle(handle.id))?.principal).toBe('alice');
      });

      it('refuses a handle whose expiry is not a date-time', async () => {
        const store = await fresh();
        await expectCode(store.putHandle({ ...handle, expiresAt: 'tomorrow' }), STORE_ERROR_CODES.badTimestamp);
      });
    });

    describe('ledger', () => {
      it('begins an entry in flight with no attempts and no envelope', async () => {
        const store = await fresh();
        const begun = await store.ledgerBegin(ledgerInput('k1'));
        expect(begun).toEqual({
          created: true,
          entry: { key: 'k1', tool: 'pay', principal: 'alice', argsDigest: 'sha256:aa', callId: 'call-k1', state: 'in_flight', attempts: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', envelope: null },
        });
      });

      it('returns the existing entry when the same key is begun twice', async () => {
        const store = await fresh();
        const first = await store.ledgerBegin(ledgerInput('k1'));
        const second = await store.ledgerBegin({ ...ledgerInput('k1'), callId: 'call-other', argsDigest: 'sha256:bb', now: '2026-01-02T00:00:00.000Z' });
        expect(second).toEqual({ created: false, entry: first.entry });
      });

      it('creates exactly one entry when 20 begins race on one key', async () => {
        const store = await fresh();
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.ledgerBegin({ ...ledgerInput('race'), callId: `call-${i}` })));
        const winners = results.filter((r) => r.created);
        expect(winners).toHaveLength(1);
        const winnerCall = winners[0]?.entry.callId;
        expect(results.every((r) => r.entry.callId === winnerCall)).toBe(true);
        expect(await store.ledgerList()).toHaveLength(1);
      });

      it('settles an entry with state, attempts and the recorded envelope', async () => {
        const store = await fresh();
        await store.ledgerBegin(ledgerInput('k1'));
        const envelope = readFixture('envelope-succeeded.json');
        const settled = await store.ledgerUpdate('k1', { state: 'succeeded', attempts: 1, envelope, now: '2026-01-01T00:00:05.000Z' });
        expect(settled).toMatchObject({ state: 'succeeded', attempts: 1, envelope, updatedAt: '2026-01-01T00:00:05.000Z', createdAt: '2026-01-01T00:00:00.000Z' });
        expect(await store.ledgerGet('k1')).toEqual(settled);
        const bumped = await store.ledgerUpdate('k1', { attempts: 2, now: '2026-01-01T00:00:06.000Z' });
        expect(bumped).toMatchObject({ state: 'succeeded', attempts: 2, envelope });
      });

      it('keeps non-ASCII keys, tools and principals exactly', async () => {
        const store = await fresh();
        const input = { ...ledgerInput('支付-ключ-😀'), tool: 'zahlung_ü', principal: 'usuário@例え.jp' };
        await store.ledgerBegin(input);
        expect(await store.ledgerGet('支付-ключ-😀')).toMatchObject({ key: input.key, tool: input.tool, principal: input.principal });
        expect(await store.ledgerGet('支付-ключ-😀 ')).toBeNull();
      });

      it('returns null when updating or getting an absent key', async () => {
        const store = await fresh();
        expect(await store.ledgerUpdate('missing', { state: 'failed', now: '2026-01-01T00:00:00.000Z' })).toBeNull();
        expect(await store.ledgerGet('missing')).toBeNull();
      });

      it('holds a new entry under the lease it was begun with', async () => {
        const store = await fresh();
        const begun = await store.ledgerBegin({ ...ledgerInput('k1'), lease: { owner: 'gw-1/call-k1', until: '2026-01-01T00:00:10Z' } });
        expect(begun.entry.lease).toEqual({ owner: 'gw-1/call-k1', until: '2026-01-01T00:00:10.000Z' });
        expect((await store.ledgerGet('k1'))?.lease).toEqual({ owner: 'gw-1/call-k1', until: '2026-01-01T00:00:10.000Z' });
      });

      it('refuses a claim on an entry another owner holds until that lease expires', async () => {
        const store = await fresh();
        await store.ledgerBegin({ ...ledgerInput('k1'), lease: { owner: 'gw-1/a', until: '2026-01-01T00:00:10.000Z' } });
        const claim = (now: string) => store.ledgerClaim('k1', { lease: { owner: 'gw-2/b', until: '2026-01-01T00:01:00.000Z' }, now, from: ['in_flight'] });
        expect(await claim('2026-01-01T00:00:09.999Z')).toBeNull();
        expect(await claim('2026-01-01T00:00:10.000Z')).toBeNull();
        const taken = await claim('2026-01-01T00:00:10.001Z');
        expect(taken).toMatchObject({ state: 'in_flight', updatedAt: '2026-01-01T00:00:10.001Z', lease: { owner: 'gw-2/b', until: '2026-01-01T00:01:00.000Z' } });
        // The dead owner's renewal now fails: it learns it lost the entry.
        expect(await store.ledgerClaim('k1', { lease: { owner: 'gw-1/a', until: '2026-01-01T00:02:00.000Z' }, now: '2026-01-01T00:00:11.000Z', from: ['in_flight'] })).toBeNull();
      });

      it('renews a lease for its own owner and takes a predecessor of the same instance at once', async () => {
        const store = await fresh();
        await store.ledgerBegin({ ...ledgerInput('k1'), lease: { owner: 'gw-1/a', until: '2026-01-01T00:00:10.000Z' } });
        const renewed = await store.ledgerClaim('k1', { lease: { owner: 'gw-1/a', until: '2026-01-01T00:00:20.000Z' }, now: '2026-01-01T00:00:05.000Z', from: ['in_flight', 'unknown'] });
        expect(renewed?.lease?.until).toBe('2026-01-01T00:00:20.000Z');
        const other = { lease: { owner: 'gw-10/r', until: '2026-01-01T00:01:00.000Z' }, now: '2026-01-01T00:00:06.000Z', from: ['in_flight'] as const };
        expect(await store.ledgerClaim('k1', { ...other, over: 'gw-10/' })).toBeNull();
        expect(await store.ledgerClaim('k1', { ...other, lease: { owner: 'gw-1/r', until: '2026-01-01T00:01:00.000Z' }, over: 'gw-1/' })).toMatchObject({ lease: { owner: 'gw-1/r' } });
      });

      it('claims only from the given states, and sets state and attempts in the same step', async () => {
        const store = await fresh();
        await store.ledgerBegin(ledgerInput('k1'));
        await store.ledgerUpdate('k1', { state: 'failed', attempts: 1, envelope: { retryable: true }, now: '2026-01-01T00:00:01.000Z' });
        const lease = { owner: 'gw-1/a', until: '2026-01-01T00:00:10.000Z' };
        expect(await store.ledgerClaim('k1', { lease, now: '2026-01-01T00:00:02.000Z', from: ['unknown', 'in_flight'] })).toBeNull();
        const taken = await store.ledgerClaim('k1', { lease, now: '2026-01-01T00:00:02.000Z', from: ['failed'], state: 'in_flight', attempts: 2 });
        expect(taken).toMatchObject({ state: 'in_flight', attempts: 2, envelope: { retryable: true }, lease });
        expect(await store.ledgerClaim('missing', { lease, now: '2026-01-01T00:00:02.000Z', from: ['failed'] })).toBeNull();
      });

      it('gives a dead owner\'s entry to exactly one of 20 racing claimants', async () => {
        const store = await fresh();
        await store.ledgerBegin({ ...ledgerInput('k1'), lease: { owner: 'dead/a', until: '2026-01-01T00:00:01.000Z' } });
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
          store.ledgerClaim('k1', { lease: { owner: `gw-${i}/c`, until: '2026-01-01T00:01:00.000Z' }, now: '2026-01-01T00:00:05.000Z', from: ['in_flight'] })));
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      it('releases the lease when an update says so, and keeps it otherwise', async () => {
        const store = await fresh();
        await store.ledgerBegin({ ...ledgerInput('k1'), lease: { owner: 'gw-1/a', until: '2026-01-01T00:00:10.000Z' } });
        expect((await store.ledgerUpdate('k1', { state: 'unknown', now: '2026-01-01T00:00:01.000Z' }))?.lease?.owner).toBe('gw-1/a');
        const released = await store.ledgerUpdate('k1', { state: 'unknown', lease: null, now: '2026-01-01T00:00:02.000Z' });
        expect(released).not.toHaveProperty('lease');
        expect(await store.ledgerClaim('k1', { lease: { owner: 'gw-2/b', until: '2026-01-01T00:01:00.000Z' }, now: '2026-01-01T00:00:03.000Z', from: ['unknown'] })).toMatchObject({ lease: { owner: 'gw-2/b' } });
      });

      it('lists entries by state in creation order', async () => {
        const store = await fresh();
        await store.ledgerBegin({ ...ledgerInput('b'), now: '2026-01-01T00:00:02.000Z' });
        await store.ledgerBegin({ ...ledgerInput('a'), now: '2026-01-01T00:00:01.000Z' });
        await store.ledgerBegin({ ...ledgerInput('c'), now: '2026-01-01T00:00:03.000Z' });
        await store.ledgerUpdate('c', { state: 'unknown', now: '2026-01-01T00:00:04.000Z' });
        expect((await store.ledgerList()).map((e) => e.key)).toEqual(['a', 'b', 'c']);
        expect((await store.ledgerList({ state: 'in_flight' })).map((e) => e.key)).toEqual(['a', 'b']);
        expect((await store.ledgerList({ state: 'unknown' })).map((e) => e.key)).toEqual(['c']);
        expect(await store.ledgerList({ state: 'succeeded' })).toEqual([]);
      });
    });

    describe('audit', () => {
      const record = (callId: string, tool: string, startedAt: string): AuditRecord => ({
        callId, tool, principal: 'alice', startedAt, finishedAt: startedAt, status: 'succeeded',
        argsDigest: 'sha256:aa', envelopeDigest: null, detail: { attempts: 1, layers: ['protocol', 'execution'] },
      });

      it('appends and gets a record unchanged', async () => {
        const store = await fresh();
        const r = record('c1', 'search', '2026-01-01T00:00:00.000Z');
        await store.appendAudit(r);
        expect(await store.getAudit('c1')).toEqual(r);
        expect(await store.getAudit('c2')).toBeNull();
      });

      it('prunes the records of calls started before a time, oldest first, a batch at a time', async () => {
        const store = await fresh();
        // Appended out of order; the time zone of a record's text does not change its instant.
        await store.appendAudit(record('c3', 'search', '2026-01-03T00:00:00.000Z'));
        await store.appendAudit(record('c1', 'search', '2026-01-01T00:00:00.000Z'));
        await store.appendAudit(record('c4', 'pay', '2026-01-04T00:00:00.000Z'));
        await store.appendAudit(record('c2', 'pay', '2026-01-02T01:00:00.000+01:00'));
        await store.ledgerBegin(ledgerInput('k1'));
        const prune = store.pruneAudit?.bind(store);
        expect(prune).toBeDefined();
        if (prune === undefined) return;
        expect(await prune('2026-01-03T12:00:00Z', 2)).toBe(2);
        expect(await store.getAudit('c1')).toBeNull();
        expect(await store.getAudit('c2')).toBeNull();
        expect(await prune('2026-01-03T12:00:00Z', 2)).toBe(1);
        expect(await prune('2026-01-03T12:00:00Z', 2)).toBe(0);
        expect((await store.listAudit()).map((r) => r.callId)).toEqual(['c4']);
        // Only the audit trail goes.
        expect((await store.ledgerGet('k1'))?.key).toBe('k1');
        await expectCode(prune('last week', 10), STORE_ERROR_CODES.badTimestamp);
        await expectCode(prune('2026-01-05T00:00:00Z', 0), STORE_ERROR_CODES.badFilter);
        expect((await store.listAudit()).map((r) => r.callId)).toEqual(['c4']);
      });

      it('refuses a second record for the same call', async () => {
        const store = await fresh();
        await store.appendAudit(record('c1', 'search', '2026-01-01T00:00:00.000Z'));
        await expectCode(store.appendAudit(record('c1', 'pay', '2026-01-01T00:00:01.000Z')), STORE_ERROR_CODES.auditExists);
        expect((await store.getAudit('c1'))?.tool).toBe('search');
      });

      it('appends a write\'s record and settles its ledger entry in one step', async () => {
        const store = await fresh();
        await store.ledgerBegin({ ...ledgerInput('k1'), lease: { owner: 'gw-1/call-k1', until: '2026-01-01T00:00:10Z' } });
        const envelope = readFixture('envelope-succeeded.json');
        const r = record('call-k1', 'pay', '2026-01-01T00:00:00.000Z');
        const settled = await store.appendAuditAndSettle?.(r, { detailJson: JSON.stringify(r.detail) }, 'k1', { state: 'succeeded', attempts: 1, envelope, lease: null, now: '2026-01-01T00:00:05.000Z' });
        expect(settled).toMatchObject({ key: 'k1', state: 'succeeded', attempts: 1, envelope, updatedAt: '2026-01-01T00:00:05.000Z' });
        expect(settled?.lease).toBeUndefined();
        expect(await store.ledgerGet('k1')).toEqual(settled);
        expect(await store.getAudit('call-k1')).toEqual(r);
      });

      it('settles nothing when the write\'s record is refused, and answers null for an absent key', async () => {
        const store = await fresh();
        await store.ledgerBegin(ledgerInput('k1'));
        await store.appendAudit(record('call-k1', 'search', '2026-01-01T00:00:00.000Z'));
        await expectCode(store.appendAuditAndSettle?.(record('call-k1', 'pay', '2026-01-01T00:00:01.000Z'), undefined, 'k1', { state: 'failed', attempts: 1, now: '2026-01-01T00:00:05.000Z' }) ?? Promise.resolve(), STORE_ERROR_CODES.auditExists);
        expect(await store.ledgerGet('k1')).toMatchObject({ state: 'in_flight', attempts: 0, updatedAt: '2026-01-01T00:00:00.000Z' });
        expect((await store.getAudit('call-k1'))?.tool).toBe('search');
        expect(await store.appendAuditAndSettle?.(record('c9', 'pay', '2026-01-01T00:00:02.000Z'), undefined, 'missing', { state: 'failed', now: '2026-01-01T00:00:05.000Z' })).toBeNull();
        expect((await store.getAudit('c9'))?.tool).toBe('pay');
      });

      it('appends a batch, skipping and naming call ids already recorded or repeated in the batch', async () => {
        const store = await fresh();
        await store.appendAudit(record('c1', 'search', '2026-01-01T00:00:00.000Z'));
        const batch = [record('c0', 'pay', '2026-01-01T00:00:01.000Z'), record('c1', 'pay', '2026-01-01T00:00:02.000Z'), record('c2', 'pay', '2026-01-01T00:00:03.000Z'), record('c2', 'search', '2026-01-01T00:00:04.000Z')];
        expect(await store.appendAuditBatch(batch)).toEqual(['c1', 'c2']);
        expect(await store.getAudit('c0')).toEqual(batch[0]);
        expect((await store.getAudit('c1'))?.tool).toBe('search');
        expect((await store.getAudit('c2'))?.tool).toBe('pay');
        expect(await store.appendAuditBatch([])).toEqual([]);
        expect(await store.listAudit()).toHaveLength(3);
      });

      it('stores the same record whether or not the caller hands over the detail as JSON text', async () => {
        const store = await fresh();
        const plain = record('p1', 'search', '2026-01-01T00:00:00.000Z');
        const withText = (id: string) => ({ ...record(id, 'search', '2026-01-01T00:00:00.000Z'), detail: { attempts: 2, quote: 'a "b" \u2028' } });
        const encoded = (r: AuditRecord) => ({ detailJson: JSON.stringify(r.detail) });
        const [a, b] = [withText('e1'), withText('e2')];
        await store.appendAudit(withText('e0'), encoded(withText('e0')));
        expect(await store.appendAuditBatch([plain, a, b], [undefined, encoded(a), encoded(b)])).toEqual([]);
        expect(await store.getAudit('p1')).toEqual(plain);
        for (const id of ['e0', 'e1', 'e2']) expect(await store.getAudit(id)).toEqual(withText(id));
        // The text is what the store keeps: a detail text that differs from the record shows up.
        await store.appendAuditBatch([withText('e3')], [{ detailJson: '{"attempts":3}' }]);
        expect((await store.getAudit('e3'))?.detail).toEqual({ attempts: 3 });
      });

      it('refuses a batch holding a bad timestamp, naming its index, and writes none of it', async () => {
        const store = await fresh();
        const err = await store.appendAuditBatch([record('a', 't', '2026-01-01T00:00:00.000Z'), record('b', 't', 'yesterday')]).then(() => null, (e: unknown) => e);
        expect(err).toMatchObject({ code: STORE_ERROR_CODES.badTimestamp, data: { pointer: '/1/startedAt' } });
        expect(await store.listAudit()).toEqual([]);
      });

      it('lists records ordered by start time, across time-zone offsets', async () => {
        const store = await fresh();
        await store.appendAudit(record('late', 'search', '2026-01-01T03:00:00.000Z'));
        await store.appendAudit(record('early', 'pay', '2026-01-01T01:00:00.000Z'));
        await store.appendAudit(record('middle', 'search', '2026-01-01T04:00:00.000+02:00'));
        expect((await store.listAudit()).map((r) => r.callId)).toEqual(['early', 'middle', 'late']);
      });

      it('lists newest first on request, the limit keeping the newest, ties in reverse call-id order', async () => {
        const store = await fresh();
        await store.appendAudit(record('late', 'search', '2026-01-01T03:00:00.000Z'));
        await store.appendAudit(record('early', 'pay', '2026-01-01T01:00:00.000Z'));
        await store.appendAudit(record('middle', 'search', '2026-01-01T04:00:00.000+02:00'));
        await store.appendAudit(record('tie_a', 'pay', '2026-01-01T05:00:00.000Z'));
        await store.appendAudit(record('tie_b', 'pay', '2026-01-01T05:00:00.000Z'));
        expect((await store.listAudit({ newest: true })).map((r) => r.callId)).toEqual(['tie_b', 'tie_a', 'late', 'middle', 'early']);
        expect((await store.listAudit({ newest: true, limit: 2, tool: 'search' })).map((r) => r.callId)).toEqual(['late', 'middle']);
        expect((await store.listAudit({ newest: true, since: '2026-01-01T02:30:00Z', limit: 10 })).map((r) => r.callId)).toEqual(['tie_b', 'tie_a', 'late']);
      });

      it('filters by tool, since and limit, alone and together', async () => {
        const store = await fresh();
        for (let i = 0; i < 6; i += 1) {
          await store.appendAudit(record(`c${i}`, i % 2 === 0 ? 'search' : 'pay', `2026-01-01T00:00:0${i}.000Z`));
        }
        expect((await store.listAudit({ tool: 'pay' })).map((r) => r.callId)).toEqual(['c1', 'c3', 'c5']);
        expect((await store.listAudit({ since: '2026-01-01T00:00:03.000Z' })).map((r) => r.callId)).toEqual(['c3', 'c4', 'c5']);
        expect((await store.listAudit({ limit: 2 })).map((r) => r.callId)).toEqual(['c0', 'c1']);
        expect((await store.listAudit({ tool: 'search', since: '2026-01-01T00:00:01.000Z', limit: 1 })).map((r) => r.callId)).toEqual(['c2']);
        // until is exclusive: a window [since, until) splits a history without overlap.
        expect((await store.listAudit({ until: '2026-01-01T00:00:03.000Z' })).map((r) => r.callId)).toEqual(['c0', 'c1', 'c2']);
        expect((await store.listAudit({ since: '2026-01-01T00:00:01.000Z', until: '2026-01-01T00:00:03.000Z', newest: true })).map((r) => r.callId)).toEqual(['c2', 'c1']);
        expect(await store.listAudit({ limit: 0 })).toEqual([]);
        expect(await store.listAudit({ tool: 'none' })).toEqual([]);
      });

      it('lists exactly what a reference model lists, for random records and filters (property)', async () => {
        const atOffset = (ms: number, plusOne: boolean): string =>
          plusOne ? new Date(ms + 3_600_000).toISOString().replace('Z', '+01:00') : new Date(ms).toISOString();
        await fc.assert(
          fc.asyncProperty(
            fc.uniqueArray(
              fc.record({ callId: fc.stringMatching(/^[a-z0-9]{1,4}$/), tool: fc.constantFrom('a', 'b', 'c'), ms: fc.integer({ min: 0, max: 20 }), plusOne: fc.boolean() }),
              { selector: (r) => r.callId, maxLength: 12 },
            ),
            fc.record({
              tool: fc.option(fc.constantFrom('a', 'b', 'x'), { nil: undefined }),
              since: fc.option(fc.integer({ min: 0, max: 21 }), { nil: undefined }),
              until: fc.option(fc.integer({ min: 0, max: 21 }), { nil: undefined }),
              limit: fc.option(fc.nat(14), { nil: undefined }),
            }),
            async (specs, f) => {
              const store = await fresh();
              const records = specs.map((r) => record(r.callId, r.tool, atOffset(1_767_225_600_000 + r.ms, r.plusOne)));
              for (const r of records) await store.appendAudit(r);
              const filter = {
                ...(f.tool === undefined ? {} : { tool: f.tool }),
                ...(f.since === undefined ? {} : { since: new Date(1_767_225_600_000 + f.since).toISOString() }),
                ...(f.until === undefined ? {} : { until: new Date(1_767_225_600_000 + f.until).toISOString() }),
                ...(f.limit === undefined ? {} : { limit: f.limit }),
              };
              const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
              const expected = records
                .filter((r) => (filter.tool === undefined || r.tool === filter.tool) && (filter.since === undefined || Date.parse(r.startedAt) >= Date.parse(filter.since)) && (filter.until === undefined || Date.parse(r.startedAt) < Date.parse(filter.until)))
                .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt) || cmp(a.startedAt, b.startedAt) || cmp(a.callId, b.callId))
                .slice(0, filter.limit ?? Infinity);
              expect(await store.listAudit(filter)).toEqual(expected);
            },
          ),
          { numRuns: options.propertyRuns ?? 60 },
        );
      });

      it('refuses a malformed since, limit or start time with stable codes', async () => {
        const store = await fresh();
        await expectCode(store.listAudit({ since: 'yesterday' }), STORE_ERROR_CODES.badTimestamp);
        await expectCode(store.listAudit({ until: 'tomorrow' }), STORE_ERROR_CODES.badTimestamp);
        await expectCode(store.listAudit({ limit: -1 }), STORE_ERROR_CODES.badFilter);
        await expectCode(store.listAudit({ limit: 1.5 }), STORE_ERROR_CODES.badFilter);
        await expectCode(store.appendAudit(record('c1', 'search', 'not a time')), STORE_ERROR_CODES.badTimestamp);
        expect(await store.getAudit('c1')).toBeNull();
      });
    });

    describe('workflow state', () => {
      const put = (store: Store, baseVersion: number | null, value: unknown) =>
        store.putState({ key: 'order-7', baseVersion, value, source: { callId: 'c1', tool: 'lookup' }, now: '2026-01-01T00:00:00.000Z' });

      it('creates version 1 from a null base and refuses a second create', async () => {
        const store = await fresh();
        const first = await put(store, null, { status: 'paid' });
        expect(first).toEqual({ key: 'order-7', version: 1, value: { status: 'paid' }, source: { callId: 'c1', tool: 'lookup' }, updatedAt: '2026-01-01T00:00:00.000Z' });
        expect(await put(store, null, { status: 'other' })).toEqual({ conflict: first });
        expect(await store.getState('order-7')).toEqual(first);
      });

      it('refuses a stale base version and accepts the current one', async () => {
        const store = await fresh();
        await put(store, null, { n: 1 });
        const v2 = await put(store, 1, { n: 2 });
        expect(v2).toMatchObject({ version: 2, value: { n: 2 } });
        expect(await put(store, 1, { n: 3 })).toEqual({ conflict: v2 });
        expect(await put(store, 5, { n: 3 })).toEqual({ conflict: v2 });
        expect(await put(store, 2, { n: 3 })).toMatchObject({ version: 3, value: { n: 3 } });
      });

      it('reports a conflict with null when updating a key that does not exist', async () => {
        const store = await fresh();
        expect(await put(store, 3, 'x')).toEqual({ conflict: null });
        expect(await store.getState('order-7')).toBeNull();
      });

      it('lets exactly one of 10 racing writers on the same base win', async () => {
        const store = await fresh();
        await put(store, null, 0);
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => put(store, 1, i + 1)));
        expect(results.filter((r) => !('conflict' in r))).toHaveLength(1);
        expect((await store.getState('order-7'))?.version).toBe(2);
      });
    });

    describe('run event logs', () => {
      const NOW = '2026-01-01T00:00:00.000Z';
      it('numbers appended events from 1 and lists those after a given entry, per run', async () => {
        const store = await fresh();
        expect(await store.appendRunEvents({ runId: 'r1', afterSeq: 0, events: [{ t: 'a' }, { t: 'b' }], now: NOW })).toEqual({ lastSeq: 2 });
        expect(await store.appendRunEvents({ runId: 'r2', afterSeq: 0, events: [{ t: 'other' }], now: NOW })).toEqual({ lastSeq: 1 });
        expect(await store.appendRunEvents({ runId: 'r1', afterSeq: 2, events: [{ t: 'c', n: [1, 'é'] }], now: NOW })).toEqual({ lastSeq: 3 });
        expect(await store.listRunEvents('r1')).toEqual([{ seq: 1, event: { t: 'a' }, at: NOW }, { seq: 2, event: { t: 'b' }, at: NOW }, { seq: 3, event: { t: 'c', n: [1, 'é'] }, at: NOW }]);
        expect((await store.listRunEvents('r1', 2)).map((e) => e.event)).toEqual([{ t: 'c', n: [1, 'é'] }]);
        expect(await store.listRunEvents('nobody')).toEqual([]);
      });

      it('refuses, writing nothing, an append after an entry that is no longer the last', async () => {
        const store = await fresh();
        await store.appendRunEvents({ runId: 'r1', afterSeq: 0, events: [{ t: 'a' }], now: NOW });
        expect(await store.appendRunEvents({ runId: 'r1', afterSeq: 0, events: [{ t: 'x' }, { t: 'y' }], now: NOW })).toEqual({ conflict: true });
        expect((await store.listRunEvents('r1')).map((e) => e.event)).toEqual([{ t: 'a' }]);
      });

      it('lets exactly one of 10 racing appenders after the same entry win', async () => {
        const store = await fresh();
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.appendRunEvents({ runId: 'r1', afterSeq: 0, events: [{ i }, { i }], now: NOW })));
        expect(results.filter((r) => !('conflict' in r))).toHaveLength(1);
        const log = await store.listRunEvents('r1');
        expect(log.map((e) => e.seq)).toEqual([1, 2]);
      });

      it('refuses an event JSON cannot carry, writing nothing', async () => {
        const store = await fresh();
        await expectCode(store.appendRunEvents({ runId: 'r1', afterSeq: 0, events: [{ ok: 1 }, { bad: 1n }], now: NOW }), STORE_ERROR_CODES.notJson);
        expect(await store.listRunEvents('r1')).toEqual([]);
      });
    });

    describe('values and lifecycle', () => {
      it('returns stored values as a JSON round trip and refuses values JSON cannot carry', async () => {
        const store = await fresh();
        const stored = await store.putState({ key: 'k', baseVersion: null, value: { a: undefined, b: [1, undefined], d: new Date(0) }, source: null, now: '2026-01-01T00:00:00.000Z' });
        expect(stored).toMatchObject({ value: { b: [1, null], d: '1970-01-01T00:00:00.000Z' } });
        expect(await store.getState('k')).toEqual(stored);
        await expectCode(store.putState({ key: 'k2', baseVersion: null, value: { n: 10n }, source: null, now: '2026-01-01T00:00:00.000Z' }), STORE_ERROR_CODES.notJson);
        expect(await store.getState('k2')).toBeNull();
      });

      it('refuses a lone surrogate in a key or call id with STORE_BAD_TEXT and its pointer, so two keys never become one entry', async () => {
        const store = await fresh();
        // Neither has a UTF-8 form: stored as text, both would have read back as U+FFFD.
        for (const key of ['k\ud800', 'k\udbff']) {
          const error = await store.ledgerBegin(ledgerInput(key)).then(() => null, (e: unknown) => e);
          expect(error).toMatchObject({ code: STORE_ERROR_CODES.badText, data: { pointer: '/key' } });
          expect(await store.ledgerGet(key)).toBeNull();
        }
        const at = '2026-01-01T00:00:00.000Z';
        const record = (callId: string): AuditRecord => ({
          callId, tool: 't', principal: 'alice', startedAt: at, finishedAt: at, status: 'succeeded', argsDigest: 'sha256:aa', envelopeDigest: null, detail: {},
        });
        const error = await store.appendAuditBatch([record('fine'), record('x\udc00')]).then(() => null, (e: unknown) => e);
        expect(error).toMatchObject({ code: STORE_ERROR_CODES.badText, data: { pointer: '/1/callId' } });
        expect(await store.getAudit('fine')).toBeNull();
        // A pair is text like any other, and JSON values keep a lone surrogate (JSON escapes it).
        expect((await store.ledgerBegin(ledgerInput('k\ud83d\ude00'))).entry.key).toBe('k\ud83d\ude00');
        expect((await store.putState({ key: 's', baseVersion: null, value: 'v\ud800', source: null, now: '2026-01-01T00:00:00.000Z' }))).toMatchObject({ value: 'v\ud800' });
      });

      it('refuses every call after close with a stable code', async () => {
        const store = await fresh();
        await store.close();
        await expectCode(store.getState('k'), STORE_ERROR_CODES.closed);
        await expectCode(store.ledgerBegin(ledgerInput('k')), STORE_ERROR_CODES.closed);
        await expectCode(store.createResource(RESOURCE_INPUT), STORE_ERROR_CODES.closed);
        await store.close();
      });
    });

    const reopen = options.reopen;
    if (reopen !== undefined) {
      describe('second connection', () => {
        it('sees what the first committed and nothing it left uncommitted', async () => {
          const store = await fresh();
          const writer = await store.createResource(RESOURCE_INPUT);
          await writer.write(new TextEncoder().encode('kept'));
          const meta = await writer.commit();
          const pending = await store.createResource(RESOURCE_INPUT);
          await pending.write(new TextEncoder().encode('not yet'));
          await store.ledgerBegin(ledgerInput('k1'));
          await store.ledgerUpdate('k1', { state: 'succeeded', attempts: 1, envelope: { ok: true }, now: '2026-01-01T00:00:01.000Z' });
          await store.appendAudit({ callId: 'c1', tool: 't', principal: 'p', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', status: 'succeeded', argsDigest: 'd', envelopeDigest: null, detail: null });
          await store.putState({ key: 's', baseVersion: null, value: 1, source: null, now: '2026-01-01T00:00:00.000Z' });

          const second = await reopen(store);
          try {
            expect(await second.getResourceMeta(meta.id)).toEqual(meta);
            expect(new TextDecoder().decode(await collect(second.readResource(meta.id)))).toBe('kept');
            expect(await second.getResourceMeta(pending.id)).toBeNull();
            expect(await second.ledgerGet('k1')).toMatchObject({ state: 'succeeded', envelope: { ok: true } });
            expect((await second.ledgerBegin(ledgerInput('k1'))).created).toBe(false);
            expect(await second.getAudit('c1')).toMatchObject({ tool: 't' });
            expect(await second.putState({ key: 's', baseVersion: null, value: 2, source: null, now: '2026-01-01T00:00:00.000Z' })).toMatchObject({ conflict: { version: 1 } });
            await store.appendRunEvents({ runId: 'r1', afterSeq: 0, events: [{ t: 'a' }], now: '2026-01-01T00:00:00.000Z' });
            expect((await second.listRunEvents('r1')).map((e) => e.event)).toEqual([{ t: 'a' }]);
            expect(await second.appendRunEvents({ runId: 'r1', afterSeq: 0, events: [{ t: 'b' }], now: '2026-01-01T00:00:00.000Z' })).toEqual({ conflict: true });
          } finally {
            await second.close();
            await pending.abort();
          }
        });
      });
    }
  });
}
