/**
 * The ledger protocol of a side-effecting call (W1–W3), over the Store's atomic `ledgerBegin`.
 * Decides, before anything runs, whether this call may run, must be refused, replays a recorded
 * envelope, or must first be reconciled.
 */
import type { Envelope } from '../contract/index.js';
import type { LedgerEntry, LedgerLease, LedgerPatch, Store } from '../store/types.js';

/** Stable codes of a refused ledger begin. */
export const LEDGER_CODES = {
  /** The key was used before for other arguments, another tool or another principal. */
  KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** Another attempt with this key is still running (or died and awaits recovery). */
  IN_FLIGHT: 'IDEMPOTENCY_KEY_IN_FLIGHT',
} as const;

/** What to do with a call, decided from the ledger. */
export type LedgerDecision =
  | { readonly kind: 'run'; readonly entry: LedgerEntry; readonly attempt: number }
  | { readonly kind: 'replay'; readonly entry: LedgerEntry; readonly envelope: Envelope }
  | { readonly kind: 'refuse'; readonly entry: LedgerEntry; readonly code: (typeof LEDGER_CODES)[keyof typeof LEDGER_CODES]; readonly message: string }
  | { readonly kind: 'reconcile'; readonly entry: LedgerEntry };

/** Input of {@link beginWrite}. */
export interface BeginInput {
  readonly key: string;
  readonly tool: string;
  readonly principal: string;
  readonly argsDigest: string;
  readonly callId: string;
  readonly now: string;
  /**
   * An `in_flight` entry not touched for this long is taken as left behind by a process that
   * stopped mid-write (no attempt outlives its deadline), and is reconciled instead of refused.
   * Default: never (an in-flight entry is always refused).
   */
  readonly staleAfterMs?: number;
  /**
   * The caller's lease (many instances on one store): the new entry is held by it, and an
   * existing entry is run or reconciled only once this lease took it over atomically — an
   * in-flight entry whose lease expired, an `unknown` or retryable `failed` entry nobody holds.
   */
  readonly lease?: LedgerLease;
  /**
   * An in-flight entry whose live lease this accepts (an owner of this same instance id that
   * no running call holds: a predecessor that died) is taken over at once, not after it expires.
   */
  readonly takesOver?: (owner: string) => boolean;
}

/**
 * Register the start of a write under its key and decide what happens next.
 * A recorded retryable failure (nothing was sent) may run again; an `unknown` entry is never
 * re-run before reconciliation.
 * @example
 * const d = await beginWrite(store, { key, tool: 'pay', principal: 'u1', argsDigest: argsDigest(args), callId: 'c1', now });
 * if (d.kind === 'run') { ...call the tool with d.entry.key... }
 */
export async function beginWrite(store: Store, input: BeginInput): Promise<LedgerDecision> {
  const begun = await store.ledgerBegin({
    key: input.key,
    tool: input.tool,
    principal: input.principal,
    argsDigest: input.argsDigest,
    callId: input.callId,
    now: input.now,
    ...(input.lease === undefined ? {} : { lease: input.lease }),
  });
  const entry = begun.entry;
  if (begun.created) return { kind: 'run', entry, attempt: 1 };
  if (entry.argsDigest !== input.argsDigest || entry.tool !== input.tool || entry.principal !== input.principal) {
    // Other principal or tool: refusing also keeps one principal from reading another's recorded result.
    return {
      kind: 'refuse',
      entry,
      code: LEDGER_CODES.KEY_REUSED,
      message: `idempotency key ${input.key} was already used for a different ${entry.argsDigest !== input.argsDigest ? 'set of arguments' : entry.tool !== input.tool ? 'tool' : 'principal'}`,
    };
  }
  switch (entry.state) {
    case 'in_flight': {
      const inFlight = { kind: 'refuse', entry, code: LEDGER_CODES.IN_FLIGHT, message: `a call with idempotency key ${input.key} is in flight; wait for it or reconcile it` } as const;
      // A leased entry is taken over once its lease expired; one without a lease (written before
      // leases, or by a store user without one) once it sat idle past the deadline.
      const predecessor = entry.lease !== undefined && input.lease !== undefined && input.takesOver?.(entry.lease.owner) === true;
      const expired = entry.lease === undefined ? isIdle(entry, input) : Date.parse(entry.lease.until) < Date.parse(input.now);
      if (!expired && !predecessor) return inFlight;
      if (input.lease === undefined) return { kind: 'reconcile', entry };
      const taken = await store.ledgerClaim(input.key, { lease: input.lease, now: input.now, from: ['in_flight'], ...(predecessor && entry.lease !== undefined ? { over: entry.lease.owner } : {}) });
      return taken === null ? inFlight : { kind: 'reconcile', entry: taken };
    }
    case 'unknown': {
      if (input.lease === undefined) return { kind: 'reconcile', entry };
      const taken = await store.ledgerClaim(input.key, { lease: input.lease, now: input.now, from: ['unknown'] });
      if (taken !== null) return { kind: 'reconcile', entry: taken };
      return { kind: 'refuse', entry, code: LEDGER_CODES.IN_FLIGHT, message: `the write under idempotency key ${input.key} is being reconciled; wait for it` };
    }
    case 'succeeded':
      return { kind: 'replay', entry, envelope: entry.envelope as Envelope };
    case 'failed': {
      const recorded = entry.envelope as Envelope | null;
      if (recorded?.error?.retryable === true) {
        if (input.lease === undefined) {
          const updated = await store.ledgerUpdate(input.key, { state: 'in_flight', attempts: entry.attempts + 1, now: input.now });
          return { kind: 'run', entry: updated ?? entry, attempt: entry.attempts + 1 };
        }
        // Two instances retrying the same failed key: the claim lets exactly one run it.
        const taken = await store.ledgerClaim(input.key, { lease: input.lease, now: input.now, from: ['failed'], state: 'in_flight', attempts: entry.attempts + 1 });
        if (taken !== null) return { kind: 'run', entry: taken, attempt: taken.attempts };
        return { kind: 'refuse', entry, code: LEDGER_CODES.IN_FLIGHT, message: `a call with idempotency key ${input.key} is in flight; wait for it or reconcile it` };
      }
      return { kind: 'replay', entry, envelope: recorded as Envelope };
    }
  }
}

function isIdle(entry: LedgerEntry, input: BeginInput): boolean {
  const idle = Date.parse(input.now) - Date.parse(entry.updatedAt);
  return input.staleAfterMs !== undefined && Number.isFinite(idle) && idle > input.staleAfterMs;
}

/** How an attempt ended, as {@link settleWrite} records it. */
export interface WriteOutcome {
  readonly state: 'succeeded' | 'failed' | 'unknown' | 'in_flight';
  readonly envelope?: Envelope;
  readonly attempts: number;
  readonly now: string;
  readonly release?: boolean;
}

/**
 * The ledger patch that records `outcome` (for stores that settle in the same step as they
 * append the call's audit record).
 * @example await store.appendAuditAndSettle?.(record, undefined, key, settlePatch({ state: 'succeeded', envelope, attempts: 1, now, release: true }));
 */
export function settlePatch(outcome: WriteOutcome): LedgerPatch {
  return {
    state: outcome.state,
    attempts: outcome.attempts,
    // The final settle releases the lease: an `unknown` entry is then open to the next caller's reconciliation.
    ...(outcome.release === true ? { lease: null } : {}),
    ...(outcome.envelope === undefined ? {} : { envelope: outcome.envelope }),
    now: outcome.now,
  };
}

/**
 * Record how an attempt ended. `succeeded`/`failed` are final; `unknown` waits for reconciliation.
 * @example await settleWrite(store, key, { state: 'succeeded', envelope, attempts: 1, now });
 */
export async function settleWrite(store: Store, key: string, outcome: WriteOutcome): Promise<LedgerEntry | null> {
  return store.ledgerUpdate(key, settlePatch(outcome));
}
