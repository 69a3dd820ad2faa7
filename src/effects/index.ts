/**
 * `tool-result-contract/effects` — side effects and write-back: idempotency keys, the ledger
 * protocol, reconciliation decisions, workflow-state patches and memory write rules.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { idempotencyKey, argsDigest } from './idempotency-key.js';
export type { KeyInput } from './idempotency-key.js';
export { beginWrite, settleWrite, settlePatch, LEDGER_CODES } from './ledger.js';
export type { LedgerDecision, BeginInput, WriteOutcome } from './ledger.js';
export { decideAfterLookup, confirmedEnvelope, unknownEnvelope } from './reconcile.js';
export type { ReconcileLookup, ReconcileAction, RetryTraits, ReconcileContext } from './reconcile.js';
export { statePatch, applyStatePatch, STATE_CODES } from './state-patch.js';
export type { StatePatchResult } from './state-patch.js';
export { decideMemoryWrite, withMemoryDecision } from './memory-write.js';
export type { MemoryPolicy, MemoryDecision } from './memory-write.js';
