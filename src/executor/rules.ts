/**
 * `ToolRules`: everything the pipeline enforces for one tool, in one shape, whichever way the
 * call comes in. `defineTool` compiles a declaration into it, the gateway compiles its
 * per-upstream/per-tool configuration (plus a trusted server's annotations) into it, and the
 * framework wrappers compile their options into it. Stages read rules and the clock from their
 * context, never from a tool definition.
 */
import type { Budget } from '../budget/index.js';
import type { Visibility } from '../trust/index.js';

/** How bad a mistaken call would be (T4). */
export type Risk = 'low' | 'medium' | 'high' | 'critical';

/** Where the effect class came from: the host declared it, a trusted server annotated it, or neither (a possible write). */
/**
 * Where a tool's effect came from: the host declared it, a trusted server's annotation (policy),
 * an untrusted server's `readOnlyHint` taken as a hint (`hint`: handled as a read, and the
 * envelope's `tool_hints` says whose claim it was), or nothing said (`default`: a possible write).
 */
export type EffectSource = 'declared' | 'annotation' | 'hint' | 'default';

/** One place where a value breaks a schema, pointer rooted at the envelope (`/data/...`). */
export interface SchemaFinding {
  readonly pointer: string;
  readonly message: string;
}

/** A compiled schema check: findings (empty when valid), or why it could not check. */
export type SchemaCheck = (value: unknown) => { readonly ok: true } | { readonly ok: false; readonly findings: readonly SchemaFinding[] } | { readonly ok: 'unchecked'; readonly message: string };

/** How to find out what a write did, when its answer was lost (W2). */
export interface ReconcileRule {
  /** True when the invoker can look a key up. */
  readonly available: boolean;
  /** Named in the `reconciliation` block of an unknown outcome. */
  readonly queryTool: string;
  /** Arguments for the query, as shown to the caller (`$key` already substituted by the edge). */
  readonly queryArgs?: Readonly<Record<string, unknown>>;
}

/** The rules of one tool. */
export interface ToolRules {
  /** The tool name as the caller uses it. */
  readonly name: string;
  readonly effect: 'read' | 'write';
  readonly effectSource: EffectSource;
  /** Name of the side effect (e.g. `charge`). */
  readonly operation: string;
  readonly risk: Risk;
  /** Whether a human must confirm each call first, and how a caller confirms (edge-specific words). */
  readonly confirmation: { readonly required: boolean; readonly how?: string };
  /** Running twice has the effect of running once. */
  readonly idempotent: boolean;
  /** The downstream deduplicates on the idempotency key it is given. */
  readonly honoursKey: boolean;
  /** The invoker says when the request leaves (`ctx.markSent()`); before that a failure is known unsent. */
  readonly reportsSend: boolean;
  readonly reconcile: ReconcileRule;
  /** Globs rooted at the envelope (`/data/body`) of external text. */
  readonly untrusted: readonly string[];
  /** Globs of fields that stay facts even when the source is untrusted. */
  readonly trusted: readonly string[];
  /** Every value and key of the result is external text (web, mail, MCP servers, framework tools…). */
  readonly sourceUntrusted: boolean;
  /**
   * Instruction-detector rule ids, or prefixes ending in `.`, not applied to this tool's external
   * text: a helpdesk tool that returns chat transcripts by design (`role.turn`, `role.turns`)
   * would otherwise have every line withheld from the model. The text stays isolated and taint
   * still traces it; only the flag and the withholding are left out.
   */
  readonly ignoreDetectorRules?: readonly string[];
  /**
   * Calls are refused while set (e.g. an upstream tool whose definition changed since it was
   * pinned, T5): a failed envelope with this code, before any policy or attempt.
   */
  readonly hold?: { readonly code: string; readonly reason: string };
  /** Glob (rooted at the envelope) → who may see the field. */
  readonly visibility: Readonly<Record<string, Visibility>>;
  /** Size budget of the model-visible result; unset limits come from the executor. */
  readonly budget: Budget;
  readonly validateInput: SchemaCheck | null;
  /**
   * The tool's input schema as declared (JSON Schema), or null: a run's taint check reads from it
   * which member names of the arguments are data (a map's keys) and checks those too (T3).
   */
  readonly inputSchema: unknown;
  /** Check of `data` against the tool's output schema (S12). */
  readonly validateOutput: SchemaCheck | null;
  /** Where results come from (S6). */
  readonly source: { readonly type: string; readonly id: string };
  /** Deadline of one attempt. */
  readonly timeoutMs: number;
  /** Resource a write touches; writes with the same key are serialized by `callAll` (P2). */
  readonly resource?: (args: never) => string;
  /** Lifetime of stored results and their handles. */
  readonly handleTtlMs?: number;
}

/** Defaults every compiler starts from: a low-risk read from a trusted source, 30 s deadline. */
export const RULE_DEFAULTS = {
  risk: 'low',
  timeoutMs: 30_000,
} as const;

/**
 * Fill in a rule set from the few fields that matter, for hand-made invokers and tests.
 * @example const r = toolRules({ name: 'weather', source: { type: 'api', id: 'weather' } });
 */
export function toolRules(input: Partial<ToolRules> & { name: string; source: ToolRules['source'] }): ToolRules {
  const effect = input.effect ?? 'read';
  return {
    effect,
    effectSource: input.effectSource ?? 'declared',
    operation: input.operation ?? (effect === 'write' ? input.name : 'read'),
    risk: input.risk ?? RULE_DEFAULTS.risk,
    confirmation: input.confirmation ?? { required: false },
    idempotent: input.idempotent ?? effect === 'read',
    honoursKey: input.honoursKey ?? false,
    reportsSend: input.reportsSend ?? false,
    reconcile: input.reconcile ?? { available: false, queryTool: `${input.name}.reconcile` },
    untrusted: input.untrusted ?? [],
    trusted: input.trusted ?? [],
    sourceUntrusted: input.sourceUntrusted ?? false,
    visibility: input.visibility ?? {},
    budget: input.budget ?? {},
    validateInput: input.validateInput ?? null,
    inputSchema: input.inputSchema ?? null,
    validateOutput: input.validateOutput ?? null,
    timeoutMs: input.timeoutMs ?? RULE_DEFAULTS.timeoutMs,
    ...input,
  };
}

/** Pointers of tool declarations are rooted at `data`; rules are rooted at the envelope. */
export const underData = (pointer: string): string => (pointer === '' ? '/data' : `/data${pointer.startsWith('/') ? '' : '/'}${pointer}`);
