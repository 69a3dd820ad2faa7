/**
 * The lease on a write's ledger entry (issue 17): many executors (gateway instances) share one
 * store, so the entry names who runs the write and until when. The holder renews it while the
 * write runs (attempts, lookups, up to the settle); another instance may take the entry over
 * only once the lease expired — its holder died — and then reconciles it. Each call holds its
 * own lease (`<instance>/<call id>`), so two calls of one instance never share one.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { LedgerLease, Store } from '../store/types.js';
import { isoAt } from './iso-time.js';

/** How an executor leases the ledger entries of its writes. */
export interface LeaseOptions {
  /** This process's id in lease owners (default `<host>/<pid>/<random>`). */
  readonly instanceId?: string;
  /** How long a lease lasts unrenewed; renewed every third of it (default: per write, twice its deadline plus 1 s, within 3–10 s). */
  readonly ttlMs?: number;
}

/** The lease settings an executor runs with. */
export interface LeaseConfig {
  readonly instanceId: string;
  readonly ttlMs: number;
  /** The duration was configured: every write leases for exactly that long. */
  readonly fixed?: boolean;
}

/** Shortest default lease (renewed every second). */
const MIN_DEFAULT_LEASE_MS = 3_000;

/**
 * The lease of one write of a tool with deadline `timeoutMs`. By default a write leases for no
 * longer than its attempt can run (twice the deadline plus a second, at least 3 s, at most
 * {@link DEFAULT_LEASE_MS}): after a crash, the process that is restarted at once (an MCP
 * host restarting its stdio gateway) takes a short tool's entry over in seconds, as it did
 * before leases. A configured duration is used as it is.
 * @example leaseFor(leaseConfig(), 1000).ttlMs // 3000
 */
export function leaseFor(config: LeaseConfig, timeoutMs: number): LeaseConfig {
  if (config.fixed === true) return config;
  const ttlMs = Math.min(config.ttlMs, Math.max(MIN_DEFAULT_LEASE_MS, 2 * timeoutMs + 1_000));
  return ttlMs === config.ttlMs ? config : { ...config, ttlMs };
}

/** Default lease duration: long enough for a busy event loop, short enough to recover a dead instance's writes quickly. */
export const DEFAULT_LEASE_MS = 10_000;

/**
 * Resolve lease options (a fresh instance id when none is given).
 * @example const lease = leaseConfig({ ttlMs: 5000 });
 */
export function leaseConfig(options: LeaseOptions = {}): LeaseConfig {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
  if (!Number.isFinite(ttlMs) || ttlMs < 100) throw new RangeError(`lease ttlMs must be a number ≥ 100, got ${String(ttlMs)}`);
  return { instanceId: options.instanceId ?? `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`, ttlMs, ...(options.ttlMs === undefined ? {} : { fixed: true }) };
}

/** A lease held for one call: the current lease, and whether renewal found it taken. */
export interface HeldLease {
  /** The lease to write with the entry (its expiry moves on at each renewal). */
  current(): LedgerLease;
  /** Start renewing the lease on `key` (after the entry was begun or claimed). */
  renew(key: string): void;
  /** True when a renewal found the entry held by another owner or settled. */
  readonly lost: boolean;
  /**
   * True when `owner` (of another entry's lease) is this instance's predecessor: the same
   * stable instance id, and no call of this process holds it — the process that did died.
   */
  predecessorOwns(owner: string): boolean;
  stop(): void;
}

// Lease owners held by calls of this process: an owner with this instance's id that is not
// among them was left by an earlier process of the same instance id.
const liveOwners = new Set<string>();

/**
 * Hold a lease for one call.
 * @example const held = holdLease(store, config, 'call_1', Date.now); held.renew(key); ... held.stop();
 */
export function holdLease(store: Store, config: LeaseConfig, callId: string, now: () => number): HeldLease {
  const owner = `${config.instanceId}/${callId}`;
  liveOwners.add(owner);
  let until = now() + config.ttlMs;
  let timer: ReturnType<typeof setInterval> | null = null;
  let lost = false;
  let renewing = false;
  return {
    current: () => ({ owner, until: isoAt(until) }),
    get lost() {
      return lost;
    },
    predecessorOwns: (other) => other.startsWith(`${config.instanceId}/`) && !liveOwners.has(other),
    renew(key) {
      if (timer !== null) return;
      timer = setInterval(() => {
        if (renewing) return;
        renewing = true;
        const next = now() + config.ttlMs;
        store
          .ledgerClaim(key, { lease: { owner, until: isoAt(next) }, now: isoAt(now()), from: ['in_flight', 'unknown'] })
          .then((entry) => {
            if (entry === null) lost = true;
            else until = next;
          })
          // A failed renewal is retried at the next tick; the lease stays valid until it expires.
          .catch(() => undefined)
          .finally(() => {
            renewing = false;
          });
      }, Math.max(50, Math.floor(config.ttlMs / 3)));
      timer.unref();
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      liveOwners.delete(owner);
    },
  };
}
