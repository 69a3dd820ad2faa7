/**
 * OpenTelemetry for every call, from one place: the pipeline opens one span per call and
 * closes it when the call's envelope is final (GenAI semantic conventions for tool execution:
 * operation `execute_tool`, `gen_ai.tool.name`, `gen_ai.tool.call.id`), with the contract's
 * verdict as `trc.*` attributes and retries and reconciliation as span events.
 * `@opentelemetry/api` is an optional peer, loaded on the first call: without it (or without a
 * registered tracer provider) nothing is recorded and a call costs one cached lookup.
 */
import { createRequire } from 'node:module';
import type { Envelope } from '../contract/index.js';

/** The slice of `@opentelemetry/api` used here. */
interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
  isRecording(): boolean;
  end(): void;
}
interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): { startSpan(name: string, options?: { kind?: number; attributes?: Record<string, string | number | boolean>; links?: { context: unknown }[] }): OtelSpan };
  };
  SpanKind: { INTERNAL: number };
  SpanStatusCode: { ERROR: number };
}

let api: OtelApi | null | undefined;

function otel(): OtelApi | null {
  if (api === undefined) {
    try {
      api = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
    } catch {
      api = null;
    }
  }
  return api;
}

/**
 * A W3C `traceparent` (version 00) as a span context, or null. Parsed here rather than through
 * the global propagator, which is a no-op unless the application registered one.
 */
function parseTraceparent(value: unknown): { traceId: string; spanId: string; traceFlags: number; isRemote: true } | null {
  if (typeof value !== 'string') return null;
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/u.exec(value.trim());
  if (m === null || /^0+$/u.test(m[1] ?? '') || /^0+$/u.test(m[2] ?? '')) return null;
  return { traceId: m[1] ?? '', spanId: m[2] ?? '', traceFlags: parseInt(m[3] ?? '0', 16), isRemote: true };
}

/** Where a call came in, as far as its span says. */
export interface SpanEdge {
  readonly kind?: unknown;
  readonly upstream?: unknown;
  readonly transport?: unknown;
}

/** An open call span; null when nothing records. */
export interface CallSpan {
  readonly span: OtelSpan;
  /** This span as a W3C `traceparent`, to pass downstream. */
  readonly traceparent: string;
}

/**
 * Open the span of one call. `links`: W3C trace contexts (`{ traceparent }`) of related work
 * (the gateway's MCP client request) recorded as span links.
 */
export function startCallSpan(tool: string, callId: string, edge: SpanEdge | undefined, links: readonly Record<string, unknown>[] = []): CallSpan | null {
  const o = otel();
  if (o === null) return null;
  const linkContexts = links.flatMap((carrier) => {
    const context = parseTraceparent(carrier['traceparent']);
    return context === null ? [] : [{ context }];
  });
  const span = o.trace.getTracer('tool-result-contract').startSpan(`execute_tool ${tool}`, {
    kind: o.SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.type': 'function',
      ...(typeof edge?.kind === 'string' ? { 'trc.edge': edge.kind } : {}),
      ...(typeof edge?.upstream === 'string' ? { 'trc.gateway.upstream': edge.upstream } : {}),
      ...(typeof edge?.transport === 'string' ? { 'trc.gateway.transport': edge.transport } : {}),
    },
    ...(linkContexts.length > 0 ? { links: linkContexts } : {}),
  });
  if (!span.isRecording()) return null;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { span, traceparent: `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}` };
}

/** An attempt began; attempts after the first are retries (a span event each). */
export function spanAttempt(s: CallSpan | null, attempt: number): void {
  if (s !== null && attempt > 1) s.span.addEvent('trc.retry', { 'trc.attempt': attempt });
}

/** What the pipeline knew of the execution when the call ended. */
export interface SpanExecution {
  readonly attempts: number;
  readonly reconciliation_state: string | null;
  readonly idempotency_key: string | null;
}

/** Close the span with the final envelope's verdict. */
export function endCallSpan(s: CallSpan | null, env: Envelope, execution: SpanExecution): void {
  if (s === null) return;
  const { span } = s;
  const untrusted = env.untrusted_content ?? [];
  span.setAttribute('trc.status', env.status);
  span.setAttribute('trc.completeness', env.completeness?.state ?? 'unknown');
  span.setAttribute('trc.untrusted.count', untrusted.length);
  span.setAttribute('trc.untrusted.instructional.count', untrusted.filter((u) => u.instructional).length);
  span.setAttribute('trc.side_effect.occurred', env.side_effect.occurred);
  if (env.side_effect.possibly_occurred === true) span.setAttribute('trc.side_effect.possibly_occurred', true);
  span.setAttribute('trc.side_effect.operation', env.side_effect.operation);
  span.setAttribute('trc.attempts', execution.attempts);
  const reconciliation = env.reconciliation?.state ?? execution.reconciliation_state;
  if (reconciliation !== null && reconciliation !== undefined) {
    span.setAttribute('trc.reconciliation.state', reconciliation);
    span.addEvent('trc.reconciliation', { 'trc.reconciliation.state': reconciliation, ...(execution.idempotency_key === null ? {} : { 'trc.idempotency_key': execution.idempotency_key }) });
  }
  if (env.error !== undefined && env.error !== null) {
    span.setAttribute('error.type', env.error.code);
    if (env.status === 'failed' || env.status === 'unknown') span.setStatus({ code: otel()?.SpanStatusCode.ERROR ?? 2, message: env.error.message });
  }
  span.end();
}
