/**
 * The one place where an upstream tool outcome becomes the envelope and the client's result,
 * composed from the library's stages: MCP in (`fromMcpResult`: output-schema check, E7,
 * isolation and instruction detection of server text, annotations as hints) → field
 * visibility (T6) → budget (`fit`: structural trimming, the raw result externalized behind a
 * handle bound to the session principal) → invariants → MCP out (`toMcpResult`).
 * Outcomes without a tool result (crash, deadline, cancellation) get gateway envelopes.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { digest, failed, parsePointer, resolvePointer, unknown, validate, escapePointerToken, type CallInfo, type Envelope, type UntrustedContent, type Warning } from '../contract/index.js';
import { fromMcpResult, toMcpResult } from '../adapters/mcp/index.js';
import { fit } from '../budget/index.js';
import { detectInstructions, DEFAULT_ALLOWED_USES, DEFAULT_FORBIDDEN_USES } from '../trust/index.js';
import type { Store } from '../store/index.js';
import { noResultEnvelope, type NoResult } from './failure-envelopes.js';
import type { EffectivePolicy } from './tool-policy.js';

/** Everything the pipeline needs to know about one call. */
export interface PipelineContext {
  readonly call: CallInfo;
  readonly upstream: string;
  readonly trusted: boolean;
  readonly upstreamTool: string;
  readonly tool: Tool | undefined;
  readonly policy: EffectivePolicy;
  readonly principal: string;
  readonly idempotencyKey: string | null;
  readonly store: Store;
  readonly handleTtlSeconds: number;
  readonly now: () => Date;
  /** Garbage lines the upstream wrote during the call (the SDK skipped them). */
  readonly noise: number;
}

/** What the pipeline hands back: the envelope and the rendered MCP result. */
export interface PipelineOutput {
  readonly envelope: Envelope;
  readonly result: CallToolResult;
}

/** An upstream answer or the reason there is none. */
export type ToolOutcome = { readonly kind: 'result'; readonly result: unknown } | NoResult;

/**
 * Turn an upstream outcome into an envelope and the client-facing result.
 * @example const { envelope, result } = await runResultPipeline({ kind: 'result', result: upstreamResult }, ctx);
 */
export async function runResultPipeline(outcome: ToolOutcome, ctx: PipelineContext): Promise<PipelineOutput> {
  try {
    return await pipeline(outcome, ctx);
  } catch (cause) {
    // A stage refused the result (e.g. a budget it cannot meet): say so, never crash the call.
    const code = (cause as { code?: unknown }).code;
    const error = {
      category: 'internal' as const,
      code: 'GATEWAY_PIPELINE_ERROR',
      message: `the gateway could not process this result: ${(cause as Error).message ?? String(cause)}`,
      retryable: false as const,
      action: 'explain_to_user' as const,
      details: { cause_code: typeof code === 'string' ? code : null },
    };
    if (ctx.policy.effect === 'write' && outcome.kind === 'result') {
      // The upstream answered a write, but its answer could not be read: the effect is open.
      const reconciliation = { required: true, state: 'pending' as const, ...(ctx.idempotencyKey === null ? {} : { idempotency_key: ctx.idempotencyKey }) };
      return finish(
        unknown({ call: ctx.call, error: { ...error, action: 'manual_reconciliation' }, side_effect: { operation: ctx.upstreamTool, possibly_occurred: true, idempotency_key: ctx.idempotencyKey }, reconciliation }),
      );
    }
    return finish(failed({ call: ctx.call, error, side_effect: { occurred: false, operation: 'read' } }));
  }
}

async function pipeline(outcome: ToolOutcome, ctx: PipelineContext): Promise<PipelineOutput> {
  if (outcome.kind !== 'result') return finish(noResultEnvelope(outcome, { ...ctx, sent: outcome.kind !== 'unavailable' }));
  const raw = outcome.result as Partial<CallToolResult> | null;
  const isError = raw?.isError === true;
  const configuredWrite = ctx.policy.effect === 'write' && ctx.policy.effectSource !== 'default';
  let env = fromMcpResult(outcome.result, { ...(ctx.tool ?? {}), name: ctx.upstreamTool }, {
    call_id: ctx.call.call_id,
    idempotency_key: ctx.idempotencyKey,
    server: { name: ctx.upstream, trusted: ctx.trusted },
    now: () => ctx.now().toISOString(),
    readOnly: ctx.policy.effect === 'read' && ctx.policy.effectSource !== 'default',
    ...(configuredWrite && !isError
      ? { side_effect: { occurred: true, operation: ctx.upstreamTool, external_id: externalId(raw?.structuredContent) ?? `idempotency:${ctx.idempotencyKey ?? ctx.call.call_id}`, idempotency_key: ctx.idempotencyKey } }
      : {}),
  });
  // The client named the tool (possibly namespaced); the envelope answers that name (P1).
  env = { ...env, call: { ...ctx.call, ...(env.call.idempotency_key === undefined ? {} : { idempotency_key: env.call.idempotency_key }) } };
  const warnings: Warning[] = [];
  if (ctx.noise > 0) warnings.push({ code: 'UPSTREAM_PROTOCOL_NOISE', message: `the upstream wrote ${ctx.noise} line(s) that were not MCP messages; they were ignored` });
  if (ctx.policy.effect === 'write' && ctx.policy.effectSource === 'default' && !isError) {
    warnings.push({ code: 'EFFECT_UNDECLARED', message: `the effect of ${ctx.upstreamTool} is not configured (annotations of an untrusted server are only hints); it is handled as a possible write` });
  }
  if (warnings.length > 0) env = { ...env, warnings: [...env.warnings, ...warnings] };
  // Z3: sensitive fields go first, before anything is isolated, trimmed or stored.
  env = hideInternal(env, ctx.policy.visibility);
  const fields = untrustedFields(env.data, ctx);
  if (fields.length > 0) env = { ...env, untrusted_content: [...(env.untrusted_content ?? []), ...fields] };

  if (env.status === 'succeeded' || env.status === 'partial') {
    const rawText = rawBody(raw);
    const beforeFit = env;
    env = await fit(
      env,
      { maxBytes: ctx.policy.maxBytes, ...(ctx.policy.maxTokens === null ? {} : { maxTokens: ctx.policy.maxTokens }) },
      {
        store: ctx.store,
        principal: ctx.principal,
        tool: ctx.call.tool_name,
        callId: ctx.call.call_id,
        now: ctx.now,
        ttlMs: ctx.handleTtlSeconds * 1000,
        // Only with internal fields: given a hook, the stored resource is the filtered result.
        ...(hasInternal(ctx.policy.visibility) ? { dropFields: (e: Envelope) => hideInternal(e, ctx.policy.visibility) } : {}),
        ...(rawText === undefined ? {} : { raw: rawText }),
      },
    );
    const capped = (env.untrusted_content ?? []).map((u) => capText(u, ctx.policy.maxBytes));
    if (capped.some((u, i) => u !== env.untrusted_content?.[i])) env = { ...env, untrusted_content: capped };
    // `fit` validates the envelope it is given; when it returned it unchanged (nothing cut) and
    // nothing was capped, validating again would only repeat that work.
    else if (env === beforeFit) return finish(env, { validated: true });
  }
  return finish(env);
}

/**
 * Check an envelope's invariants (an invalid one becomes `GATEWAY_ENVELOPE_INVALID`) and render
 * the client's `CallToolResult`.
 * @example const { result } = finish(confirmedEnvelope(ctx, lookup));
 */
export function finish(envelope: Envelope, options: { validated?: boolean } = {}): PipelineOutput {
  if (options.validated === true) return { envelope, result: toMcpResult(envelope) as CallToolResult };
  const verdict = validate(envelope);
  let env = envelope;
  if (!verdict.valid) {
    // Never emit a self-contradictory envelope (S12): report the gateway's own fault instead.
    env = failed({
      call: envelope.call,
      error: {
        category: 'contract',
        code: 'GATEWAY_ENVELOPE_INVALID',
        message: 'the gateway could not build a valid envelope for this result',
        retryable: false,
        action: 'explain_to_user',
        details: verdict.findings.filter((f) => f.severity === 'error').slice(0, 10),
      },
    });
  }
  return { envelope: env, result: toMcpResult(env) as CallToolResult };
}

/** The full raw result as stored: a single text block is stored as its text (e.g. a file). */
function rawBody(raw: Partial<CallToolResult> | null): string | undefined {
  const blocks = raw?.content;
  if (Array.isArray(blocks) && blocks.length === 1 && blocks[0]?.type === 'text') return blocks[0].text;
  return raw === null ? undefined : JSON.stringify(raw);
}

/** Server text can be as big as the result itself; the full text is in the stored resource. */
function capText(u: UntrustedContent, maxBytes: number): UntrustedContent {
  const limit = Math.max(256, Math.floor(maxBytes / 4));
  if (u.text.length <= limit) return u;
  let end = limit;
  const code = u.text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { ...u, text: u.text.slice(0, end), spans: (u.spans ?? []).filter((s) => s.end <= end) };
}

function untrustedFields(data: unknown, ctx: PipelineContext): UntrustedContent[] {
  const out: UntrustedContent[] = [];
  for (const pointer of ctx.policy.untrustedFields) {
    const value = at(data, pointer);
    if (typeof value !== 'string') continue;
    const d = detectInstructions(value);
    out.push({
      content_id: `field_${out.length + 1}`,
      mime_type: 'text/plain',
      text: value,
      trust: 'untrusted',
      source: { type: 'mcp', name: ctx.upstream, id: ctx.upstreamTool },
      instructional: d.instructional,
      families: [...d.families],
      spans: d.spans.map((s) => ({ family: s.family, start: s.start, end: s.end })),
      origin: `/data${pointer}`,
      allowed_uses: [...DEFAULT_ALLOWED_USES],
      forbidden_uses: [...DEFAULT_FORBIDDEN_USES],
    });
  }
  return out;
}

function at(data: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (tokens === null) return undefined;
  let cur: unknown = data;
  for (const t of tokens) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[t];
  }
  return cur;
}

function hasInternal(visibility: Readonly<Record<string, string>>): boolean {
  return Object.values(visibility).includes('internal');
}

function hideInternal(env: Envelope, visibility: Readonly<Record<string, string>>): Envelope {
  const internal = Object.entries(visibility).filter(([, v]) => v === 'internal').map(([p]) => parsePointer(p));
  if (internal.length === 0) return env;
  const data = structuredClone(env.data);
  let removed = 0;
  for (const tokens of internal) {
    if (tokens === null || tokens.length === 0) continue;
    const parent = at(data, tokens.slice(0, -1).map((t) => '/' + escapePointerToken(t)).join(''));
    const last = tokens[tokens.length - 1] as string;
    if (parent !== null && typeof parent === 'object' && Object.hasOwn(parent, last)) {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete (parent as Record<string, unknown>)[last];
      removed++;
    }
  }
  if (removed === 0) return env;
  // Server text mirrors the structured data, internal fields included: it is dropped too.
  const { extensions: _mirror, ...rest } = env;
  return {
    ...rest,
    data,
    result_digest: digest(data),
    untrusted_content: (env.untrusted_content ?? []).filter((u) => u.origin !== undefined && u.origin.startsWith('/data/')),
    evidence: (env.evidence ?? [])
      .map((e) => ({ ...e, supports: e.supports.filter((p) => !p.startsWith('/data') || resolvePointer({ data }, p).ok) }))
      .filter((e) => e.supports.length > 0),
    warnings: [...env.warnings, { code: 'FIELDS_WITHHELD', message: `${removed} internal field(s) were withheld by policy, with the server text that repeated them` }],
  };
}

function externalId(structured: unknown): string | null {
  if (structured === null || typeof structured !== 'object') return null;
  for (const key of ['id', 'external_id', 'uri', 'path']) {
    const v = (structured as Record<string, unknown>)[key];
    if (typeof v === 'string' && v.length > 0) return v;
    if (typeof v === 'number') return String(v);
  }
  return null;
}
