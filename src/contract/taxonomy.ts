/**
 * Closed vocabularies of the contract. They live apart from the schema so that the error
 * classifier, the builders and the schema all read the same lists.
 */

/** Execution status of a call (SPEC S2). A business status belongs inside `data`. */
export const STATUSES = ['accepted', 'succeeded', 'failed', 'partial', 'needs_input', 'unknown'] as const;

/** Completeness states (SPEC S5). */
export const COMPLETENESS_STATES = ['complete', 'truncated', 'partial', 'unknown'] as const;

/** Error categories (SPEC X2). */
export const ERROR_CATEGORIES = [
  'validation',
  'authorization',
  'authentication',
  'not_found',
  'conflict',
  'rate_limited',
  'network',
  'transport_timeout',
  'upstream',
  'business',
  'internal',
  'protocol',
  'cancelled',
  'contract',
] as const;

/** What the orchestrator should do next (SPEC X2). */
export const ERROR_ACTIONS = [
  'fix_arguments',
  'ask_user',
  'request_authorization',
  'retry',
  'retry_later',
  'query_by_idempotency_key',
  'manual_reconciliation',
  'explain_to_user',
  'abort',
] as const;

/**
 * Where a result came from (SPEC S6). The list is open in practice, so the schema accepts any
 * string; these are the values the trust stage knows how to judge.
 */
export const KNOWN_SOURCE_TYPES = [
  'database',
  'api',
  'third_party_api',
  'file',
  'user',
  'web',
  'email',
  'ticket',
  'repository',
  'model',
  'tool',
  'agent',
  'mcp',
  'policy',
  'computed',
] as const;

/** Where a memory candidate's fact came from (SPEC W5). */
export const MEMORY_SOURCES = [
  'user_explicit_statement',
  'user_confirmed',
  'tool_observation',
  'model_inference',
  'external_content',
] as const;

export type Status = (typeof STATUSES)[number];
export type CompletenessState = (typeof COMPLETENESS_STATES)[number];
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];
export type ErrorAction = (typeof ERROR_ACTIONS)[number];
export type KnownSourceType = (typeof KNOWN_SOURCE_TYPES)[number];
export type MemorySource = (typeof MEMORY_SOURCES)[number];

/** The contract's version string, carried by every full envelope. */
export const CONTRACT_VERSION = 'agent.tool.result.v1' as const;
