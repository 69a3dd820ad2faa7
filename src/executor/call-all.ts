/**
 * `callAll` (P1, P2): many calls at once. Independent calls run concurrently, writes to the same
 * resource one after another, and a call whose args reference another call's result
 * (`{ "$ref": "call_1", "pointer": "/data/id" }`) waits for it. Every requested id gets exactly
 * one envelope — cancelled, denied and unresolvable calls included.
 */
import type { RunAuthority } from '../trust/index.js';
import { TrcError, resolvePointer, type Envelope, type ErrorInfo } from '../contract/index.js';
import { assertCallIds } from './call-ids.js';
import type { Principal, ToolCall } from './types.js';
import { callShapeProblem } from './call-shape.js';

/** Options of `executor.callAll`. */
export interface CallAllOptions {
  /** Cancels calls not yet started (they get a `cancelled` envelope) and those running. */
  readonly signal?: AbortSignal;
  /** Most calls running at once (default 16). */
  readonly concurrency?: number;
  /** The run every call belongs to (see `executor.startRun`). */
  readonly run?: RunAuthority;
}

/** Envelopes in request order, and by call id. */
export interface CallAllResult {
  readonly envelopes: readonly Envelope[];
  readonly byId: ReadonlyMap<string, Envelope>;
}

/** What `callAll` needs from the executor. */
export interface CallRunner {
  readonly tools: ReadonlyMap<string, { readonly effect: 'read' | 'write'; readonly resource?: ((args: never) => string) | undefined }>;
  call(call: ToolCall, principal: Principal, options?: { signal?: AbortSignal }): Promise<Envelope>;
  /** @internal Record an envelope for a call that could not run (audited like any call). */
  refuse(call: ToolCall, principal: Principal, error: ErrorInfo): Promise<Envelope>;
}

/** A reference to another call's result inside args. */
interface Ref {
  readonly $ref: string;
  readonly pointer?: string;
}

function isRef(v: unknown): v is Ref {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  const r = v as Record<string, unknown>;
  return typeof r['$ref'] === 'string' && keys.every((k) => k === '$ref' || (k === 'pointer' && typeof r['pointer'] === 'string'));
}

/** Every call id referenced inside `args`. */
export function referencedCalls(args: unknown, out: Set<string> = new Set()): Set<string> {
  if (isRef(args)) out.add(args.$ref);
  else if (Array.isArray(args)) for (const a of args) referencedCalls(a, out);
  else if (typeof args === 'object' && args !== null) for (const v of Object.values(args)) referencedCalls(v, out);
  return out;
}

/** Replace references with values from the results; the first unresolvable pointer is reported. */
function substitute(args: unknown, results: ReadonlyMap<string, Envelope>): { ok: true; value: unknown } | { ok: false; message: string } {
  if (isRef(args)) {
    const env = results.get(args.$ref);
    const pointer = args.pointer ?? '/data';
    if (env === undefined) return { ok: false, message: `call ${args.$ref} has no result` };
    const r = resolvePointer(env, pointer);
    if (!r.ok) return { ok: false, message: `pointer ${pointer} does not resolve in the result of ${args.$ref}` };
    return { ok: true, value: r.value };
  }
  if (Array.isArray(args)) {
    const out: unknown[] = [];
    for (const a of args) {
      const s = substitute(a, results);
      if (!s.ok) return s;
      out.push(s.value);
    }
    return { ok: true, value: out };
  }
  if (typeof args === 'object' && args !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      const s = substitute(v, results);
      if (!s.ok) return s;
      out[k] = s.value;
    }
    return { ok: true, value: out };
  }
  return { ok: true, value: args };
}

const refusal = (category: ErrorInfo['category'], code: string, message: string, action: ErrorInfo['action'] = 'abort'): ErrorInfo => ({ category, code, message, retryable: false, action, kind: 'execution' });

/** Call ids on a dependency cycle (including self-references). */
function cyclic(deps: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const state = new Map<string, 'visiting' | 'done'>();
  const onCycle = new Set<string>();
  const stack: string[] = [];
  const visit = (id: string) => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const d of deps.get(id) ?? []) {
      if (!deps.has(d)) continue;
      const s = state.get(d);
      if (s === 'visiting') for (const x of stack.slice(stack.indexOf(d))) onCycle.add(x);
      else if (s === undefined) visit(d);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of deps.keys()) if (!state.has(id)) visit(id);
  return onCycle;
}

/**
 * Run `calls` with dependency ordering and per-resource write serialization.
 * Throws `TrcError('DUPLICATE_CALL_ID')` when a call id is requested twice (results could not be
 * correlated), `CALL_ID_MISMATCH` if the returned ids ever differ from the requested ones, and
 * `CALL_ALL_OPTIONS_INVALID` (pointer `/concurrency`) for a concurrency that is not a whole number ≥ 1.
 */
export async function callAll(runner: CallRunner, calls: readonly ToolCall[], principal: Principal, options: CallAllOptions): Promise<CallAllResult> {
  const concurrency = options.concurrency;
  // NaN would never let a call start (running < NaN is false): refused, like 0 or 2.5.
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new TrcError('CALL_ALL_OPTIONS_INVALID', `concurrency must be a whole number of at least 1, got ${String(concurrency)}`, { data: { pointer: '/concurrency' } });
  }
  if (!Array.isArray(calls)) throw new TrcError('CALL_ALL_OPTIONS_INVALID', 'calls must be an array of calls', { data: { pointer: '' } });
  // Results are matched to calls by id, so a batch with a malformed call is refused whole.
  calls.forEach((c, i) => {
    const problem = callShapeProblem(c);
    if (problem !== null) throw new TrcError('INVALID_CALL', `call ${i} is malformed: ${problem.message}`, { data: { pointer: `/${i}${problem.pointer}` } });
  });
  const ids = calls.map((c) => c.call_id);
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (dup.length > 0) throw new TrcError('DUPLICATE_CALL_ID', `call ids must be unique: ${[...new Set(dup)].join(', ')}`, { data: { duplicated: [...new Set(dup)] } });
  const deps = new Map(calls.map((c) => [c.call_id, referencedCalls(c.args)]));
  const cycle = cyclic(deps);
  const results = new Map<string, Envelope>();
  const done = new Map<string, Promise<Envelope>>();
  const locks = new Map<string, Promise<unknown>>();
  let running = 0;
  const waiting: (() => void)[] = [];
  const limit = concurrency ?? 16;
  const acquire = async () => {
    if (running < limit) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  };
  const cancelled = () => options.signal?.aborted === true;

  const run = async (c: ToolCall): Promise<Envelope> => {
    const refs = deps.get(c.call_id) ?? new Set<string>();
    const unknownRefs = [...refs].filter((r) => !deps.has(r));
    if (unknownRefs.length > 0) return runner.refuse(c, principal, refusal('validation', 'UNKNOWN_CALL_REFERENCE', `args reference calls that were not requested: ${unknownRefs.join(', ')}`, 'fix_arguments'));
    if (cycle.has(c.call_id)) return runner.refuse(c, principal, refusal('validation', 'DEPENDENCY_CYCLE', `call ${c.call_id} depends on itself through its references`, 'fix_arguments'));
    const upstream = await Promise.all([...refs].map((r) => done.get(r) as Promise<Envelope>));
    const bad = upstream.find((e) => e.status !== 'succeeded' && e.status !== 'partial');
    if (bad !== undefined) return runner.refuse(c, principal, refusal('cancelled', 'DEPENDENCY_UNAVAILABLE', `call ${bad.call.call_id} this call depends on ended "${bad.status}", so it was not run`, 'explain_to_user'));
    const s = substitute(c.args, results);
    if (!s.ok) return runner.refuse(c, principal, refusal('validation', 'DEPENDENCY_UNAVAILABLE', s.message, 'fix_arguments'));
    const resolved: ToolCall = { ...c, args: s.value };
    const tool = runner.tools.get(c.tool_name);
    let resource: string | null = null;
    if (tool?.effect === 'write' && tool.resource !== undefined) {
      try {
        resource = (tool.resource as (a: unknown) => string)(s.value);
      } catch {
        resource = `tool:${c.tool_name}`;
      }
    } else if (tool?.effect === 'write') {
      // Without a declared resource, writes of one tool are assumed to touch the same resource.
      resource = `tool:${c.tool_name}`;
    }
    const exec = async () => {
      if (cancelled()) return runner.refuse(c, principal, refusal('cancelled', 'CANCELLED', 'the batch was cancelled before this call started'));
      await acquire();
      try {
        if (cancelled()) return await runner.refuse(c, principal, refusal('cancelled', 'CANCELLED', 'the batch was cancelled before this call started'));
        return await runner.call(resolved, principal, options.signal === undefined ? {} : { signal: options.signal });
      } finally {
        release();
      }
    };
    if (resource === null) return exec();
    const prev = locks.get(resource) ?? Promise.resolve();
    const mine = prev.then(exec, exec);
    locks.set(resource, mine.catch(() => undefined));
    return mine;
  };

  // Register every promise before any runs, so dependencies can await each other.
  let start!: () => void;
  const gate = new Promise<void>((resolve) => (start = resolve));
  for (const c of calls) {
    const p = gate.then(() => run(c)).then((env) => {
      results.set(c.call_id, env);
      return env;
    });
    done.set(c.call_id, p);
  }
  start();
  const envelopes = await Promise.all(calls.map((c) => done.get(c.call_id) as Promise<Envelope>));
  assertCallIds(ids, envelopes.map((e) => e.call.call_id));
  return { envelopes, byId: new Map(envelopes.map((e) => [e.call.call_id, e])) };
}
