/**
 * Call policy (SPEC T3, T4): a tool call is allowed only if
 *   authenticated subject ∧ tool policy ∧ resource scope ∧ input constraints ∧ confirmation-if-required.
 *
 * The decision reads the principal (from the caller's authenticated context), the policy and the
 * session's untrusted content (for taint) — and nothing else. A tool result saying
 * `"authorized": true` or `"user_role": "admin"` has no input into it.
 */
import { canonicalJson, createAjv2020, formatPointer, parsePointer, resolvePointer, sha256Hex, TrcError, type UntrustedContent } from '../contract/index.js';
import type { ValidateFunction } from '../contract/ajv.js';
import { findTaint } from './find-taint.js';
import type { Taint } from './taint.js';
import { encodingWords } from './taint-encodings.js';
import { withinPrefix } from './scope-prefix.js';

/** The authenticated caller, as established by the host application — never by a tool result. */
export interface Principal {
  readonly id: string;
  readonly authenticated: boolean;
  readonly roles?: readonly string[];
  readonly scopes?: readonly string[];
}

/** Risk of a tool. High-risk calls need confirmation when their arguments are tainted. */
export type Risk = 'low' | 'medium' | 'high';

/**
 * A resource-scope rule: the argument at `argument` must be one of `allowed` (`exact`, the
 * default) or lie under one of them (`prefix`: it starts with it and climbs out with no `..`).
 */
export interface ScopeRule {
  readonly argument: string;
  readonly allowed: readonly string[] | ((principal: Principal) => readonly string[]);
  readonly match?: 'exact' | 'prefix';
}

/** The policy of one tool. */
export interface ToolPolicy {
  readonly risk: Risk;
  /** The caller needs one of these roles (none listed: any authenticated caller). */
  readonly roles?: readonly string[];
  /** The caller needs all of these scopes. */
  readonly scopes?: readonly string[];
  readonly resourceScope?: readonly ScopeRule[];
  /** JSON Schema (draft 2020-12) the arguments must satisfy. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Ask a human before every call (default: only when tainted and high risk). */
  readonly requiresConfirmation?: boolean;
}

/** Policies by tool name. Unknown tools are denied. */
export interface Policy {
  readonly tools: Readonly<Record<string, ToolPolicy>>;
}

/** A human confirmation recorded by the host for one exact call. */
export interface Confirmation {
  readonly principal: string;
  readonly tool: string;
  /** {@link argsDigest} of the confirmed arguments. */
  readonly args_digest: string;
}

/** What the session knows: untrusted content seen so far, trusted text, confirmations. */
export interface Session {
  readonly untrustedContent?: readonly UntrustedContent[];
  /** Text from trusted parties (the user's own messages): a value found here is not tainted. */
  readonly trustedText?: readonly string[];
  readonly confirmations?: readonly Confirmation[];
}

/** Input of {@link authorize}. */
export interface AuthorizeRequest {
  readonly principal: Principal;
  readonly tool: string;
  readonly args: unknown;
  readonly session?: Session;
  readonly policy: Policy;
}

/** One reason behind a decision, with a stable code and, where it applies, the argument. */
export interface DecisionReason {
  readonly code: string;
  readonly message: string;
  readonly pointer?: string;
  readonly content_id?: string;
}

/** The five conjuncts; `pending` means "holds once a human confirms". */
export interface DecisionChecks {
  readonly subject: boolean;
  readonly tool_policy: boolean;
  readonly resource_scope: boolean;
  readonly input_constraints: boolean;
  readonly confirmation: boolean | 'pending';
}

/** The decision: data, never an exception. */
export interface Decision {
  readonly decision: 'allowed' | 'needs_confirmation' | 'denied';
  readonly reasons: readonly DecisionReason[];
  readonly checks: DecisionChecks;
  readonly taint: readonly Taint[];
  /** Digest of the arguments; a confirmation must carry it. */
  readonly args_digest: string;
}

const schemaCache = new WeakMap<object, ValidateFunction>();
let ajv: ReturnType<typeof createAjv2020> | undefined;

/**
 * Digest of call arguments (RFC 8785 canonical JSON, SHA-256), binding a confirmation to them.
 * @example argsDigest({ to: 'a@b.c' }) // 'sha256:…'
 */
export function argsDigest(args: unknown): string {
  let canonical: string;
  try { canonical = canonicalJson(args ?? null); } catch { canonical = String(args); }
  return 'sha256:' + sha256Hex(canonical);
}

/**
 * Check one resource-scope rule against call arguments; the reason when it fails.
 * @example checkResourceScope({ argument: '/account_id', allowed: ['acct_1'] }, { account_id: 'acct_9' }, principal)?.code // 'T4.out-of-scope'
 */
export function checkResourceScope(rule: ScopeRule, args: unknown, principal: Principal): DecisionReason | undefined {
  const tokens = parsePointer(rule.argument);
  const pointer = tokens === null ? rule.argument : formatPointer(tokens);
  const r = resolvePointer(args, rule.argument);
  if (!r.ok) return { code: 'T4.scope-argument-missing', message: `argument ${pointer} required by the resource scope is missing`, pointer };
  const allowed = typeof rule.allowed === 'function' ? rule.allowed(principal) : rule.allowed;
  const values = Array.isArray(r.value) ? r.value : [r.value];
  for (const v of values) {
    const s = typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);
    const ok = rule.match === 'prefix' ? allowed.some((a) => withinPrefix(s, a)) : allowed.includes(s);
    if (!ok) return { code: 'T4.out-of-scope', message: `${pointer} = ${JSON.stringify(s).slice(0, 80)} is outside the caller's resource scope`, pointer };
  }
  return undefined;
}

/**
 * Decide whether `principal` may call `tool` with `args` now.
 * @example
 * authorize({ principal, tool: 'send_email', args: { to: 'x@evil.test' }, session, policy }).decision
 * // 'needs_confirmation' when x@evil.test was only seen in untrusted content
 */
export function authorize(request: AuthorizeRequest): Decision {
  const { principal, tool, args, policy } = request;
  const session = request.session ?? {};
  const reasons: DecisionReason[] = [];
  const digest = argsDigest(args);

  const subject = principal.authenticated === true && typeof principal.id === 'string' && principal.id !== '';
  if (!subject) reasons.push({ code: 'T4.unauthenticated', message: 'the caller is not an authenticated subject' });

  const tp = Object.prototype.hasOwnProperty.call(policy.tools, tool) ? policy.tools[tool] : undefined;
  let toolOk = tp !== undefined;
  if (tp === undefined) reasons.push({ code: 'T4.unknown-tool', message: `no policy for tool "${tool}": denied by default` });
  if (tp?.roles !== undefined && tp.roles.length > 0 && !tp.roles.some((r) => principal.roles?.includes(r))) {
    toolOk = false;
    reasons.push({ code: 'T4.role-missing', message: `tool "${tool}" needs one of the roles ${tp.roles.join(', ')}` });
  }
  for (const s of tp?.scopes ?? []) {
    if (!principal.scopes?.includes(s)) {
      toolOk = false;
      reasons.push({ code: 'T4.scope-missing', message: `tool "${tool}" needs scope ${s}` });
    }
  }

  let scopeOk = true;
  for (const rule of tp?.resourceScope ?? []) {
    const r = checkResourceScope(rule, args, principal);
    if (r !== undefined) { scopeOk = false; reasons.push(r); }
  }

  let inputOk = true;
  if (tp?.inputSchema !== undefined) {
    let validateFn = schemaCache.get(tp.inputSchema);
    if (validateFn === undefined) {
      ajv ??= createAjv2020();
      try {
        validateFn = ajv.compile(tp.inputSchema);
      } catch (cause) {
        throw new TrcError('TRUST_BAD_POLICY', `input schema of tool "${tool}" does not compile: ${(cause as Error).message}`, { data: { tool }, cause });
      }
      schemaCache.set(tp.inputSchema, validateFn);
    }
    if (!validateFn(args)) {
      inputOk = false;
      for (const e of validateFn.errors ?? []) {
        reasons.push({ code: 'T4.input-constraint', message: `argument ${e.instancePath || '/'} ${e.message ?? 'is invalid'}`, pointer: e.instancePath });
      }
    }
  }

  const taint = tp?.risk === 'high' ? findTaint(args, session.untrustedContent ?? [], session.trustedText ?? []) : [];
  const confirmed = (session.confirmations ?? []).some((c) => c.principal === principal.id && c.tool === tool && c.args_digest === digest);
  const needsConfirmation = tp?.requiresConfirmation === true || taint.length > 0;
  for (const t of taint) {
    reasons.push({
      code: 'T3.tainted-argument',
      message: `argument ${t.argument} (${t.kind} ${JSON.stringify(t.value).slice(0, 80)}) carries ${t.matched} characters of untrusted content ${t.content_id} (source ${t.source}${t.encoding === undefined ? '' : `; ${encodingWords(t.encoding)}`})`,
      pointer: t.argument,
      content_id: t.content_id,
    });
  }
  if (tp?.requiresConfirmation === true) reasons.push({ code: 'T4.confirmation-required', message: `tool "${tool}" always needs a human confirmation` });

  const confirmation: boolean | 'pending' = !needsConfirmation || confirmed ? true : 'pending';
  const checks: DecisionChecks = { subject, tool_policy: toolOk, resource_scope: scopeOk, input_constraints: inputOk, confirmation };
  const denied = !subject || !toolOk || !scopeOk || !inputOk;
  const decision = denied ? 'denied' : confirmation === 'pending' ? 'needs_confirmation' : 'allowed';
  if (decision === 'allowed' && needsConfirmation) reasons.push({ code: 'T4.confirmed', message: 'a human confirmed this exact call' });
  return { decision, reasons, checks, taint, args_digest: digest };
}
