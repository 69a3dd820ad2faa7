/**
 * The shape of a call as a JavaScript caller may hand it over: checked before anything runs, so
 * a call id of the wrong type can never send a write and then fail the envelope's own schema.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorInfo } from '../contract/index.js';
import { DEEP_RESULT_LEVELS, nestedDeeperThan } from './nesting.js';
import type { ToolCall } from './types.js';

/** What is wrong with a call's shape, at which pointer. */
export interface CallShapeProblem {
  readonly pointer: string;
  readonly message: string;
}

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';
// A lone UTF-16 surrogate has no UTF-8 form: a store cannot keep such an id or key as given
// (it refuses it, STORE_BAD_TEXT), so the call is refused here, before it could run.
const LONE_SURROGATE = /\p{Surrogate}/u;
const isText = (v: unknown): v is string => isNonEmptyString(v) && !LONE_SURROGATE.test(v);

/**
 * The first problem with the shape of `call`, or null when it is well formed.
 * @example callShapeProblem({ call_id: 7, tool_name: 'x', args: {} }) // { pointer: '/call_id', … }
 */
export function callShapeProblem(call: unknown): CallShapeProblem | null {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return { pointer: '', message: 'a call is an object { call_id, tool_name, args }' };
  const c = call as Record<string, unknown>;
  if (!isText(c['call_id'])) return { pointer: '/call_id', message: `call_id must be a non-empty string, got ${describe(c['call_id'])}` };
  if (!isText(c['tool_name'])) return { pointer: '/tool_name', message: `tool_name must be a non-empty string, got ${describe(c['tool_name'])}` };
  const key = c['idempotency_key'];
  if (key !== undefined && !isText(key)) return { pointer: '/idempotency_key', message: `idempotency_key must be a non-empty string when given, got ${describe(key)}` };
  const scope = c['scope'];
  if (scope !== undefined && typeof scope !== 'string') return { pointer: '/scope', message: `scope must be a string when given, got ${describe(scope)}` };
  // Deeper than the stages' walks and the transports' serializers go: it could be neither
  // checked nor sent, and is the caller's input, not the tool's failure.
  if (nestedDeeperThan(c['args'], DEEP_RESULT_LEVELS)) return { pointer: '/args', message: `args are nested more than ${DEEP_RESULT_LEVELS} levels deep, too deeply to be checked and sent` };
  return null;
}

function describe(value: unknown): string {
  if (value === '') return 'an empty string';
  if (typeof value === 'string' && LONE_SURROGATE.test(value)) return 'a string with a lone UTF-16 surrogate';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : typeof value === 'number' ? `the number ${String(value)}` : typeof value;
}

/**
 * A call that can be recorded in place of a malformed one: its own call id when that is a
 * non-empty string (with no lone surrogate) (else a fresh one), its tool name likewise, its arguments as given.
 */
export function recordableCall(call: unknown): ToolCall {
  const c = typeof call === 'object' && call !== null ? (call as Record<string, unknown>) : {};
  return {
    call_id: isText(c['call_id']) ? c['call_id'] : `invalid_${randomUUID()}`,
    tool_name: isText(c['tool_name']) ? c['tool_name'] : 'unknown',
    args: c['args'],
  };
}

/** The error of a malformed call: nothing ran. */
export function invalidCallError(problem: CallShapeProblem): ErrorInfo {
  return {
    category: 'validation',
    code: 'INVALID_CALL',
    message: `the call is malformed: ${problem.pointer || '(root)'}: ${problem.message}; nothing ran`,
    retryable: false,
    action: 'fix_arguments',
    kind: 'execution',
    details: { pointer: problem.pointer },
  };
}
