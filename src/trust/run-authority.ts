/**
 * Authority over one run (a task, an agent session, a gateway session) that does not depend on
 * detecting anything (SPEC T3, T4): the run remembers the untrusted content its calls returned
 * and the trusted text around them, holds any call outside the scope the application (or the
 * user, once) declared, and holds every write or high-risk call whose arguments carry text that
 * came from untrusted content until a human confirms *that* call — the request names each
 * tainted argument, the content id and the source it came from, and the approval is bound to
 * the principal, the tool and the digest of the arguments, used once.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { parsePointer, TrcError, type Envelope } from '../contract/index.js';
import { argsDigest, checkResourceScope, type Principal, type ScopeRule } from './authorize.js';
import { TaintIndex, type Taint, type TaintContent, type TaintIndexOptions } from './taint.js';
import { encodingWords } from './taint-encodings.js';
import { echoesArgument, taintedArgumentForms } from './run-echoes.js';
import { runOptionsProblem, runScopeProblem } from './run-options-check.js';

/** What a task may use. */
export interface RunScope {
  /** Tools the task may call, by the name the caller uses. Absent: any tool. */
  readonly tools?: readonly string[];
  /** Per tool: the arguments that name a resource, and the resources allowed. */
  readonly resources?: Readonly<Record<string, readonly ScopeRule[]>>;
}

/** Options of {@link createRunAuthority}. */
export interface RunAuthorityOptions extends TaintIndexOptions {
  /** The run's id (default: random). */
  readonly id?: string;
  /** Declared by the application up front; otherwise the user may declare it once later. */
  readonly scope?: RunScope;
  /** Trusted text of the run: the user's prompt and messages. */
  readonly trustedText?: readonly string[];
  /** Key of the confirmation tokens (default: 32 random bytes; a gateway shares one across restarts only if it wants tokens to survive them). */
  readonly secret?: Uint8Array;
  /** Told every change of the run as an event (a store keeps them: `executor.openRun()`). */
  readonly onEvent?: (event: RunEvent) => void;
}

/**
 * One change of a run: what its log records, and what {@link RunAuthority.replay} applies to
 * another copy of it (after a restart, in a second process).
 */
export type RunEvent =
  | { readonly type: 'scope'; readonly scope: RunScope }
  | { readonly type: 'trusted'; readonly text: string }
  | { readonly type: 'untrusted'; readonly content_id: string; readonly text: string; readonly source: TaintContent['source']; readonly call_id?: string }
  | { readonly type: 'held'; readonly request: ConfirmationRequest }
  | { readonly type: 'approved'; readonly request_id: string }
  | { readonly type: 'used'; readonly request_id: string; readonly token?: string };

/** The facts of a call the run decides on (from the tool's rules, never from a result). */
export interface RunCall {
  readonly tool: string;
  readonly effect: 'read' | 'write';
  readonly risk: 'low' | 'medium' | 'high' | 'critical';
  readonly args: unknown;
  readonly principal: Pick<Principal, 'id'> & Partial<Principal>;
  /** The tool's input schema: member names it treats as data (a map's keys) are checked for taint too. */
  readonly inputSchema?: unknown;
}

/** One reason a call is held. */
export interface RunHoldReason {
  readonly code: 'T4.outside-run-scope' | 'T4.resource-outside-run-scope' | 'T3.tainted-argument' | 'T3.run-saturated';
  readonly message: string;
  /** JSON Pointer into the arguments, for argument reasons. */
  readonly argument?: string;
  readonly content_id?: string;
  readonly source?: string;
  readonly call_id?: string;
}

/** What a human is asked to confirm: one exact call and why it was held. */
export interface ConfirmationRequest {
  /** Names the request (shown to the model too; it confirms nothing by itself). */
  readonly request_id: string;
  readonly run_id: string;
  readonly principal: string;
  readonly tool: string;
  /** RFC 8785 + SHA-256 digest of the arguments: the approval holds for these only. */
  readonly args_digest: string;
  readonly reasons: readonly RunHoldReason[];
  readonly tainted: readonly Taint[];
}

/** The run's verdict on one call. */
export type RunVerdict =
  | { readonly effect: 'allow'; readonly taint: readonly Taint[]; readonly confirmed: ConfirmationRequest | null }
  | { readonly effect: 'confirm'; readonly code: RunHoldReason['code']; readonly reason: string; readonly request: ConfirmationRequest };

/** The authority of one run. */
export interface RunAuthority {
  readonly id: string;
  /** The declared scope, if any. */
  readonly scope: RunScope | undefined;
  /** Declare the scope once (the user, when the application did not). A second declaration throws `RUN_SCOPE_ALREADY_DECLARED`. */
  declareScope(scope: RunScope): void;
  /** Add trusted text (a user message). */
  addTrusted(text: string): void;
  /**
   * Record what a call returned: its untrusted content as taint sources, its other data as
   * trusted text — except leaves that repeat an argument of the call (`args`) that carried
   * untrusted content: an echo vouches for nothing.
   */
  observe(envelope: Envelope, args?: unknown): void;
  /** Decide on a call; `token` is a confirmation token the edge received from the user. */
  check(call: RunCall, token?: string): RunVerdict;
  /** Requests held and not yet confirmed, oldest first. */
  pending(): readonly ConfirmationRequest[];
  /** The user agreed to the request: the same call (same principal, tool and arguments) may run once. */
  confirm(requestId: string): ConfirmationRequest;
  /** The token an edge hands to the user's side of a client for a request (never to the model). */
  tokenFor(requestId: string): string;
  /** Apply a change another copy of this run made (read from its log), without reporting it again. */
  replay(event: RunEvent): void;
  /**
   * Persisted runs only: write this copy's changes to the log and read the others' (the
   * pipeline awaits it before and after it asks the run about a call, and after it records a
   * result). Throws `RUN_CONFIRMATION_USED` when another process used the same approval first.
   */
  readonly sync?: () => Promise<void>;
}

/** Confirmation-free calls: what a run lets through without asking (reads at low or medium risk). */
export function needsCleanArguments(call: Pick<RunCall, 'effect' | 'risk'>): boolean {
  return call.effect === 'write' || call.risk === 'high' || call.risk === 'critical';
}

const MAX_PENDING = 256;

/** Leaves of `data` outside every untrusted region and not `skipped`, joined: the trusted text of a result. */
function trustedTextOf(envelope: Envelope, skipped: (leaf: string) => boolean): string {
  const regions = (envelope.untrusted_content ?? []).map((u) => (u.origin === undefined ? null : parsePointer(u.origin)));
  // A region without an origin covers everything: nothing of the result is vouched for.
  if (regions.includes(null)) return '';
  const roots = regions.filter((r): r is string[] => r !== null);
  const parts: string[] = [];
  const stack: { v: unknown; path: string[] }[] = [{ v: envelope.data, path: ['data'] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop() as { v: unknown; path: string[] };
    if (roots.some((r) => r.length <= path.length && r.every((t, i) => path[i] === t))) continue;
    if (typeof v === 'string' || typeof v === 'number') {
      if (!skipped(String(v))) parts.push(String(v));
    } else if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, path: [...path, String(i)] }));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: [...path, k] });
  }
  return parts.join('\n');
}

function describe(t: Taint): string {
  const from = t.call_id === undefined ? '' : ` returned by call ${t.call_id}`;
  const how = t.encoding === undefined ? '' : `; ${encodingWords(t.encoding)}`;
  return `argument ${t.argument || '(root)'} carries ${t.matched} characters of untrusted content ${t.content_id} (source ${t.source}${from}${how})`;
}

/**
 * Create the authority of one run.
 * @example
 * const run = createRunAuthority({ scope: { tools: ['read_file', 'send_money'] }, trustedText: ['Pay the bill in bill-dec.txt'] });
 * run.observe(readEnvelope);
 * run.check({ tool: 'send_money', effect: 'write', risk: 'high', args: { iban }, principal: { id: 'alice' } }).effect // 'confirm'
 */
export function createRunAuthority(options: RunAuthorityOptions = {}): RunAuthority {
  const problem = runOptionsProblem(options);
  if (problem !== null) throw new TrcError('RUN_OPTIONS_INVALID', `run options ${problem.pointer || '(root)'}: ${problem.message}`, { data: { pointer: problem.pointer } });
  const id = options.id ?? `run_${randomBytes(8).toString('hex')}`;
  const secret = options.secret ?? randomBytes(32);
  const index = new TaintIndex(options.maxGrams === undefined ? {} : { maxGrams: options.maxGrams });
  let scope: RunScope | undefined;
  const pendingById = new Map<string, ConfirmationRequest>();
  /** Approvals by request id (one use each). */
  const approved = new Set<string>();
  const usedTokens = new Set<string>();
  /** How many times an approval of each request was used: a token is for one use of one hold. */
  const uses = new Map<string, number>();

  // Every change goes through apply(), so a log of events rebuilds the same run elsewhere.
  const apply = (e: RunEvent): void => {
    switch (e.type) {
      case 'scope': scope = e.scope; break;
      case 'trusted': index.addTrusted(e.text); break;
      case 'untrusted': index.addUntrusted({ content_id: e.content_id, text: e.text, source: e.source, ...(e.call_id === undefined ? {} : { call_id: e.call_id }) }); break;
      case 'held':
        pendingById.delete(e.request.request_id);
        pendingById.set(e.request.request_id, e.request);
        if (pendingById.size > MAX_PENDING) pendingById.delete(pendingById.keys().next().value as string);
        break;
      case 'approved': approved.add(e.request_id); break;
      case 'used':
        if (e.token !== undefined) usedTokens.add(e.token);
        uses.set(e.request_id, (uses.get(e.request_id) ?? 0) + 1);
        approved.delete(e.request_id);
        pendingById.delete(e.request_id);
        break;
    }
  };
  const emit = (e: RunEvent): void => {
    apply(e);
    options.onEvent?.(e);
  };
  if (options.scope !== undefined) emit({ type: 'scope', scope: options.scope });
  for (const t of options.trustedText ?? []) emit({ type: 'trusted', text: t });

  const mac = (label: string, principal: string, tool: string, digest: string) =>
    createHmac('sha256', secret).update(`${label}\n${id}\n${principal}\n${tool}\n${digest}`).digest('hex').slice(0, 32);
  const requestIdOf = (principal: string, tool: string, digest: string) => `cfr_${mac('request', principal, tool, digest)}`;
  // The same call made again (a second installment of one bill) is held again under the same
  // request id; its token must be a new one, or the first, spent, token would be handed out again
  // and the call could never be confirmed. The first use keeps the token of the plain digest.
  const tokenOf = (r: Pick<ConfirmationRequest, 'request_id' | 'principal' | 'tool' | 'args_digest'>) => {
    const n = uses.get(r.request_id) ?? 0;
    return `cft_${mac('token', r.principal, r.tool, n === 0 ? r.args_digest : `${r.args_digest}\n${n}`)}`;
  };

  return {
    id,
    get scope() { return scope; },
    declareScope(next) {
      if (scope !== undefined) throw new TrcError('RUN_SCOPE_ALREADY_DECLARED', `the scope of run ${id} was already declared; start a new run for another task`);
      const bad = runScopeProblem(next);
      if (bad !== null) throw new TrcError('RUN_OPTIONS_INVALID', `run scope ${bad.pointer || '(root)'}: ${bad.message}`, { data: { pointer: bad.pointer } });
      emit({ type: 'scope', scope: next });
    },
    addTrusted: (text) => emit({ type: 'trusted', text }),
    observe(envelope, args) {
      // Which arguments carried untrusted content, against what the run had seen before this
      // result. Not asked when one untrusted region covers all the data (most results of an
      // untrusted source): no leaf is then read as trusted text.
      const wholly = (envelope.untrusted_content ?? []).some((u) => u.origin === undefined || u.origin === '/data');
      const echoed = args === undefined || wholly ? [] : taintedArgumentForms(index.taintOf(args), args);
      for (const u of envelope.untrusted_content ?? []) emit({ type: 'untrusted', content_id: u.content_id, text: u.text, source: u.source, call_id: envelope.call.call_id });
      const trusted = trustedTextOf(envelope, (leaf) => echoesArgument(leaf, echoed));
      if (trusted !== '') emit({ type: 'trusted', text: trusted });
    },
    check(call, token) {
      const reasons: RunHoldReason[] = [];
      if (scope?.tools !== undefined && !scope.tools.includes(call.tool)) {
        reasons.push({ code: 'T4.outside-run-scope', message: `tool "${call.tool}" is not in the scope declared for this run (${scope.tools.join(', ') || 'no tools'})` });
      }
      // Own members only: a tool named `constructor` or `toString` must not read Object.prototype's.
      const resources = scope?.resources !== undefined && Object.prototype.hasOwnProperty.call(scope.resources, call.tool) ? scope.resources[call.tool] : undefined;
      for (const rule of resources ?? []) {
        const r = checkResourceScope(rule, call.args, { id: call.principal.id, authenticated: true, ...(call.principal.roles === undefined ? {} : { roles: call.principal.roles }), ...(call.principal.scopes === undefined ? {} : { scopes: call.principal.scopes }) });
        if (r !== undefined) reasons.push({ code: 'T4.resource-outside-run-scope', message: `${r.message.replace("caller's resource scope", 'scope declared for this run')}`, ...(r.pointer === undefined ? {} : { argument: r.pointer }) });
      }
      const taint = index.taintOf(call.args, call.inputSchema);
      if (needsCleanArguments(call)) {
        for (const t of taint) reasons.push({ code: 'T3.tainted-argument', message: describe(t), argument: t.argument, content_id: t.content_id, source: t.source, ...(t.call_id === undefined ? {} : { call_id: t.call_id }) });
        if (index.saturated && taint.length === 0) reasons.push({ code: 'T3.run-saturated', message: `run ${id} has seen more untrusted text than its taint index keeps, so no argument can be vouched for; start a new run` });
      }
      // Digest and request id only for a held call: most calls are allowed, and both cost a hash.
      if (reasons.length === 0) return { effect: 'allow', taint, confirmed: null };
      const digest = argsDigest(call.args);
      const requestId = requestIdOf(call.principal.id, call.tool, digest);
      const request: ConfirmationRequest = { request_id: requestId, run_id: id, principal: call.principal.id, tool: call.tool, args_digest: digest, reasons, tainted: needsCleanArguments(call) ? taint : [] };
      // An approval counts once, for this very principal, tool and arguments.
      const viaToken = token !== undefined && token === tokenOf(request) && !usedTokens.has(token);
      if (viaToken || approved.has(requestId)) {
        emit({ type: 'used', request_id: requestId, ...(viaToken ? { token } : {}) });
        return { effect: 'allow', taint, confirmed: request };
      }
      emit({ type: 'held', request });
      const first = reasons[0] as RunHoldReason;
      const reason = `${reasons.map((r) => r.message).join('; ')}: a human must confirm this exact call (request ${requestId})`;
      return { effect: 'confirm', code: first.code, reason, request };
    },
    pending: () => [...pendingById.values()],
    confirm(requestId) {
      const request = pendingById.get(requestId);
      if (request === undefined) throw new TrcError('RUN_CONFIRMATION_UNKNOWN', `no pending confirmation ${requestId} in run ${id}`);
      emit({ type: 'approved', request_id: requestId });
      return request;
    },
    replay: apply,
    tokenFor(requestId) {
      const request = pendingById.get(requestId);
      if (request === undefined) throw new TrcError('RUN_CONFIRMATION_UNKNOWN', `no pending confirmation ${requestId} in run ${id}`);
      return tokenOf(request);
    },
  };
}
