/**
 * A tool execution error (`isError: true`) → the envelope's `error` (X1: kind `execution`).
 * The server's structured payload is kept whole in `details`; its self-description (code,
 * category) is used, but a claim of retryability is believed only from a trusted server —
 * retryability is the executor's call (X3), not the tool's.
 */
import { CONTRACT_VERSION, ERROR_ACTIONS, ERROR_CATEGORIES, type ErrorAction, type ErrorCategory, type ErrorInfo } from '../contract/index.js';

const CODE = /^[A-Z][\w.:-]*$/i;
const MAX_MESSAGE = 500;

const DEFAULT_ACTION: Partial<Record<ErrorCategory, ErrorAction>> = {
  validation: 'fix_arguments',
  authorization: 'request_authorization',
  authentication: 'request_authorization',
  rate_limited: 'retry_later',
};

/**
 * Classify an MCP error result from its structured payload (if any) and its text.
 * @example classifyToolError({ code: 'OUT_OF_STOCK', message: 'no stock' }, [], false).code // 'OUT_OF_STOCK'
 */
export function classifyToolError(payload: Record<string, unknown> | undefined, texts: readonly string[], trusted: boolean): ErrorInfo {
  const p = payload ?? {};
  const nested = typeof p['error'] === 'object' && p['error'] !== null && !Array.isArray(p['error']) ? (p['error'] as Record<string, unknown>) : undefined;
  const read = (key: string): unknown => p[key] ?? nested?.[key];
  const code = read('code');
  const category = read('category');
  const message = read('message');
  const action = read('action');
  const retryable = read('retryable');
  const cat: ErrorCategory = isOneOf(ERROR_CATEGORIES, category) ? category : 'upstream';
  const text = texts.join('\n').trim();
  const info: ErrorInfo = {
    category: cat,
    code: typeof code === 'string' && CODE.test(code) ? code : 'MCP_TOOL_ERROR',
    message: clip(typeof message === 'string' && message !== '' ? message : text !== '' ? text : 'the tool reported an error without a message'),
    retryable: trusted && retryable === true,
    action: trusted && isOneOf(ERROR_ACTIONS, action) ? action : (DEFAULT_ACTION[cat] ?? 'explain_to_user'),
    kind: 'execution',
  };
  if (payload !== undefined) info.details = payload;
  else if (text !== '') info.details = { text };
  return info;
}

/**
 * The structured payload of an error result: `structuredContent`, or else a text block that is
 * a JSON object (many servers put their error object there).
 */
export function errorPayload(structured: Record<string, unknown> | undefined, texts: readonly string[]): Record<string, unknown> | undefined {
  if (structured !== undefined) return structured;
  for (const t of texts) {
    const trimmed = t.trim();
    if (!trimmed.startsWith('{')) continue;
    try {
      const v: unknown = JSON.parse(trimmed);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
      const rec = v as Record<string, unknown>;
      // The contract's own model view (from toMcpResult): its error block is the payload.
      if (rec['contract'] === CONTRACT_VERSION) {
        const err = rec['error'];
        if (typeof err === 'object' && err !== null && !Array.isArray(err)) return err as Record<string, unknown>;
        continue;
      }
      return rec;
    } catch {
      // Not JSON: the text stays a message.
    }
  }
  return undefined;
}

function isOneOf<T extends string>(list: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (list as readonly string[]).includes(v);
}

const clip = (s: string) => (s.length > MAX_MESSAGE ? s.slice(0, MAX_MESSAGE - 1) + '…' : s);
