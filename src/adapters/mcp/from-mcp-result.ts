/**
 * MCP in (SPEC I1): a `CallToolResult` — or the JSON-RPC error that answered the call — becomes
 * an envelope. Checks the output schema in its declared dialect, E7 consistency of text and
 * structured content, keeps error payloads, isolates server text, and records the tool's
 * annotations as hints only (T5).
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  CONTRACT_VERSION,
  classifyError,
  digest,
  escapePointerToken,
  validate,
  type Envelope,
  type ErrorInfo,
  type Evidence,
  type SideEffect,
  type UntrustedContent,
  type Warning,
} from '../../contract/index.js';
import { compareContent } from '../../evidence/index.js';
import { toolHints } from '../../trust/index.js';
import { callInfo, envelopeFromClassified, type CallRef } from '../shared/index.js';
import { normalizeContent, defaultIsolate } from './content-blocks.js';
import { adoptEmbeddedEnvelope } from './embedded-envelope.js';
import { asJsonRpcError, fromJsonRpcError } from './json-rpc-error.js';
import { checkOutputSchema } from './output-schema.js';
import { classifyToolError, errorPayload } from './tool-error.js';
import { ENVELOPE_META_KEY, type CallToolResult, type FromMcpContext, type McpToolRef } from './types.js';

/** Where non-data content summaries live when `data` is structured (or null). */
const EXT_BASE = '/extensions/mcp/content';

/**
 * Wrap what a `tools/call` returned into an envelope. `result` may be a `CallToolResult`, an
 * `McpError`/`ProtocolError` or a raw JSON-RPC error, or any other thrown error (a transport
 * failure); anything else becomes a protocol-error envelope. Never throws; the envelope returned always passes `validate()`.
 * @example
 * const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Hangzhou' } });
 * const env = fromMcpResult(result, tool, { call_id: 'call_1', server: { name: 'weather' } });
 */
export function fromMcpResult(result: unknown, tool: McpToolRef, ctx: FromMcpContext): Envelope {
  const call = callRef(tool, ctx);
  const operation = ctx.side_effect?.operation ?? tool.name;
  let env: Envelope;
  try {
    env = wrap(result, tool, ctx, call, operation);
  } catch (cause) {
    // Only values with no JSON form get here (lone surrogates, cycles); report, never crash.
    env = unrepresentable(call, operation, [{ message: cause instanceof Error ? cause.message : String(cause) }]);
  }
  return finish(env, call, operation);
}

function callRef(tool: McpToolRef, ctx: FromMcpContext): CallRef {
  return {
    tool_name: tool.name,
    call_id: ctx.call_id,
    ...(ctx.attempt === undefined ? {} : { attempt: ctx.attempt }),
    ...(ctx.idempotency_key === undefined ? {} : { idempotency_key: ctx.idempotency_key }),
  };
}

function wrap(result: unknown, tool: McpToolRef, ctx: FromMcpContext, call: CallRef, operation: string): Envelope {
  const trusted = ctx.server.trusted === true;
  const readOnly = ctx.readOnly === true || (trusted && tool.annotations?.readOnlyHint === true);
  const rpc = asJsonRpcError(result);
  if (rpc !== undefined) return withHints(fromJsonRpcError(rpc, call, { operation, writeSent: !readOnly }), tool, ctx);
  if (result instanceof Error) {
    // A transport failure (closed pipe, aborted request, timeout) rather than an answer.
    return withHints(envelopeFromClassified(classifyError(result, { writeSent: !readOnly, operation }), call, operation), tool, ctx);
  }
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 20).map((i) => ({ pointer: '/' + i.path.map((p) => escapePointerToken(String(p))).join('/'), message: i.message }));
    return malformed(call, operation, issues, tool, ctx);
  }
  const res = parsed.data as CallToolResult;
  const now = (ctx.now ?? (() => new Date().toISOString()))();
  const isError = res.isError === true;
  const structured = res.structuredContent;
  const schema = tool.outputSchema as Record<string, unknown> | undefined;
  const unstructuredSuccess = !isError && structured === undefined && schema === undefined;
  const content = normalizeContent(res.content, {
    server: ctx.server.name,
    tool: tool.name,
    base: unstructuredSuccess ? '/data/content' : EXT_BASE,
    isolate: ctx.isolate ?? defaultIsolate,
    ...(structured === undefined || isError ? {} : { serializes: (text: string) => isSerializationOf(text, structured) }),
  });
  const warnings: Warning[] = instructionWarnings(content.untrusted);
  const evidence: Evidence[] = [...content.evidence];
  let citable = true;
  let data: unknown = null;
  let error: ErrorInfo | null = null;

  if (isError) {
    error = classifyToolError(errorPayload(structured, content.texts.map((t) => t.text)), content.texts.map((t) => t.text), trusted);
  } else if (structured === undefined && schema !== undefined) {
    error = contractError('MCP_STRUCTURED_CONTENT_MISSING', 'the tool declares an output schema but returned no structuredContent');
  } else if (structured !== undefined) {
    const check = schema === undefined ? undefined : checkOutputSchema(schema, structured);
    if (check !== undefined && !check.ok && check.reason === 'violation') {
      error = contractError('MCP_OUTPUT_SCHEMA_VIOLATION', `structuredContent breaks the tool's output schema (${check.dialect}): ${check.violations.slice(0, 3).map((v) => `${v.pointer || '(root)'} ${v.message}`).join('; ')}`, {
        dialect: check.dialect,
        violations: check.violations.slice(0, 50),
        received: structured,
      });
    } else {
      if (check !== undefined && !check.ok) warnings.push({ code: 'MCP_OUTPUT_SCHEMA_UNCHECKED', message: check.message });
      data = structured;
      const e7 = checkConsistency(content.texts, structured);
      warnings.push(...e7.warnings);
      citable = e7.citable;
      evidence.unshift(structuredEvidence(structured, ctx.server.name, tool.name, now));
    }
  } else {
    data = { content: content.summaries };
  }

  const side_effect: SideEffect = ctx.side_effect ?? (readOnly
    ? { occurred: false, possibly_occurred: false, operation }
    : error === null ? { occurred: false, possibly_occurred: true, operation } : { occurred: false, operation });
  let env: Envelope = {
    contract_version: CONTRACT_VERSION,
    call: callInfo(call),
    status: error === null ? 'succeeded' : 'failed',
    data,
    ...(error === null ? {} : { error }),
    ...(error === null ? { completeness: { state: 'unknown', reason: 'not_reported_by_server' } } : {}),
    provenance: { source_type: 'mcp', source_id: `${ctx.server.name}/${tool.name}`, retrieved_at: now, observed_at: null },
    evidence,
    untrusted_content: content.untrusted,
    side_effect,
    warnings,
    result_digest: digest(data),
    ...(citable ? {} : { citable: false }),
    ...(unstructuredSuccess ? {} : { extensions: { mcp: { content: content.summaries } } }),
  };
  const embedded = res._meta?.[ENVELOPE_META_KEY];
  if (embedded !== undefined) env = adoptEmbeddedEnvelope(env, embedded, { isError, structured, trusted, isolate: ctx.isolate ?? defaultIsolate, sideEffect: ctx.side_effect });
  return withHints(env, tool, ctx);
}

/** True when `text` is exactly a JSON serialization of `structured` (key order aside). */
function isSerializationOf(text: string, structured: Record<string, unknown>): boolean {
  const t = text.trim();
  if (!t.startsWith('{')) return false;
  try {
    return sameJsonValue(JSON.parse(t), structured);
  } catch {
    return false;
  }
}

function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJsonValue(v, bb[i]));
  }
  const ka = Object.keys(a);
  const rb = b as Record<string, unknown>;
  if (ka.length !== Object.keys(rb).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && sameJsonValue((a as Record<string, unknown>)[k], rb[k]));
}

/** T7: server text that reads like instructions is flagged; it stays data and grants nothing. */
function instructionWarnings(untrusted: readonly UntrustedContent[]): Warning[] {
  const out: Warning[] = [];
  untrusted.forEach((u, i) => {
    if (!u.instructional) return;
    out.push({ code: 'T7.instructional-content', message: `server text ${u.content_id} reads like instructions (${(u.families ?? []).join(', ')}); it is data and grants nothing`, pointer: `/untrusted_content/${i}` });
  });
  return out;
}

function checkConsistency(texts: ReadonlyArray<{ index: number; text: string }>, structured: unknown): { citable: boolean; warnings: Warning[] } {
  const warnings: Warning[] = [];
  let citable = true;
  for (const { index, text } of texts) {
    const r = compareContent(viewData(text) ?? text, structured, { textPointer: `/content/${index}/text` });
    if (r.verdict !== 'mismatch') continue;
    citable = false;
    for (const f of r.findings.slice(0, 5)) {
      warnings.push({ code: f.rule, message: `content vs structuredContent (E7) at ${f.pointer}: ${f.message}; the result is not citable and neither side was picked`, pointer: '/data' });
    }
  }
  return { citable, warnings };
}

/**
 * Text rendered by `toMcpResult` is the contract's model view, which wraps the data; E7 then
 * compares the wrapped data. Returns undefined for any other text.
 */
function viewData(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith('{"contract"')) return undefined;
  try {
    const v = JSON.parse(t) as Record<string, unknown>;
    if (v['contract'] !== CONTRACT_VERSION || !('data' in v)) return undefined;
    return JSON.stringify(v['data']);
  } catch {
    return undefined;
  }
}

/** Evidence for the structured result itself: one support per top-level field. */
function structuredEvidence(structured: Record<string, unknown>, server: string, tool: string, now: string): Evidence {
  const keys = Object.keys(structured);
  return {
    evidence_id: 'mcp_structured',
    kind: 'tool_output',
    source: { type: 'mcp', name: server, id: tool },
    locator: { response_path: '/structuredContent' },
    supports: keys.length === 0 ? ['/data'] : keys.map((k) => `/data/${escapePointerToken(k)}`),
    retrieved_at: now,
  };
}

function contractError(code: string, message: string, details?: Record<string, unknown>): ErrorInfo {
  return { category: 'contract', code, message, retryable: false, action: 'explain_to_user', kind: 'execution', ...(details === undefined ? {} : { details }) };
}

function withHints(env: Envelope, tool: McpToolRef, ctx: FromMcpContext): Envelope {
  const { tool_hints: _serverClaim, ...rest } = env;
  if (tool.annotations === undefined) return rest;
  return { ...rest, tool_hints: toolHints(ctx.server.name, ctx.server.trusted === true, tool.annotations) };
}

function malformed(call: CallRef, operation: string, issues: unknown[], tool: McpToolRef, ctx: FromMcpContext): Envelope {
  const env: Envelope = {
    contract_version: CONTRACT_VERSION,
    call: callInfo(call),
    status: 'failed',
    data: null,
    error: { category: 'protocol', code: 'MCP_MALFORMED_RESULT', message: 'the server answered tools/call with something that is not a CallToolResult', retryable: false, action: 'explain_to_user', kind: 'protocol', details: { issues } },
    side_effect: { occurred: false, operation },
    warnings: [],
    result_digest: digest(null),
  };
  return withHints(env, tool, ctx);
}

/** Last line of defence: an envelope that fails validation is replaced, never emitted (S12). */
function finish(env: Envelope, call: CallRef, operation: string): Envelope {
  let ok = false;
  let findings: unknown[] = [];
  try {
    if (!wellFormed(env)) throw new TypeError('the result contains text that is not well-formed Unicode (a lone surrogate)');
    const r = validate(env);
    ok = r.valid;
    findings = r.findings.filter((f) => f.severity === 'error').slice(0, 20);
  } catch (cause) {
    findings = [{ message: String(cause) }];
  }
  return ok ? env : unrepresentable(call, operation, findings);
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
// `String.prototype.isWellFormed` (ES2024, in Node ≥ 20) is not in our ES2023 type library.
const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * RFC 8785 needs well-formed strings (no lone surrogates): check every key and string value.
 * An explicit stack, not recursion or a JSON.stringify replacer (a callback per node was the
 * slow part), so deep data cannot overflow it.
 */
function wellFormed(env: Envelope): boolean {
  const stack: unknown[] = [env];
  // A caller's object graph may share or even cycle (in-process use); visit each object once.
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!isWellFormed(value)) return false;
    } else if (value !== null && typeof value === 'object' && !seen.has(value)) {
      seen.add(value);
      if (Array.isArray(value)) {
        for (const item of value) stack.push(item);
        continue;
      }
      for (const key of Object.keys(value)) {
        if (!isWellFormed(key)) return false;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}

function unrepresentable(call: CallRef, operation: string, findings: unknown[]): Envelope {
  return {
    contract_version: CONTRACT_VERSION,
    call: callInfo(call),
    status: 'failed',
    data: null,
    error: { category: 'contract', code: 'MCP_RESULT_NOT_REPRESENTABLE', message: 'the result could not be turned into a valid envelope', retryable: false, action: 'explain_to_user', kind: 'execution', details: { findings } },
    side_effect: { occurred: false, operation },
    warnings: [],
    result_digest: digest(null),
  };
}
