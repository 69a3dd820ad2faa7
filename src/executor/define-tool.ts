/**
 * `defineTool`: check a tool's declaration once, compile its schemas, and compile the
 * declaration into the tool's {@link ToolRules} — what the pipeline enforces at call time.
 */
import type { ValidateFunction } from 'ajv';
import { TrcError, createAjv2020, escapePointerToken } from '../contract/index.js';
// The OpenAI strict-mode rules have one definition, in the contract (the openai adapter re-exports it).
import { checkStrictSchema, type StrictSchemaFinding } from '../contract/index.js';
import { assertToolIgnoreList, isUntrustedSourceType } from '../trust/index.js';
import { compileOutputSchema, outputSchemaProblem } from './output-schema.js';
import { underData, type SchemaFinding, type ToolRules } from './rules.js';
import { toolSpecProblem } from './tool-spec-check.js';
import type { ToolSpec } from './types.js';

/** A checked tool, ready for {@link createExecutor}. */
export interface ToolDefinition<A = unknown, D = unknown> extends ToolSpec<A, D> {
  readonly strictViolations: readonly StrictSchemaFinding[];
  /** What the pipeline enforces for this tool. */
  readonly rules: ToolRules;
  /** @internal compiled input validator */
  readonly validateInput: ValidateFunction;
}

// One Ajv for all tools: compiled validators are cached per schema object.
let ajv: ReturnType<typeof createAjv2020> | undefined;
const sharedAjv = () => (ajv ??= createAjv2020());

const NAME = /^[\w.-]{1,64}$/;

/** Input findings of a compiled validator, pointers rooted at the arguments. */
export function inputFindings(validate: ValidateFunction): SchemaFinding[] {
  return (validate.errors ?? []).map((e) => ({
    pointer: e.instancePath + (e.keyword === 'required' ? `/${escapePointerToken(String(e.params['missingProperty']))}` : e.keyword === 'additionalProperties' ? `/${escapePointerToken(String(e.params['additionalProperty']))}` : ''),
    message: e.message ?? 'is invalid',
  }));
}

/**
 * Declare a tool. Throws `TrcError('TOOL_SCHEMA_NOT_STRICT')` listing every strict-rule
 * violation with its pointer (unless `strict: false`), `TOOL_SCHEMA_INVALID` when a schema does
 * not compile, and `TOOL_DEFINITION_INVALID` (with the field's pointer) for a bad name, timeout
 * (at most 2^31 − 1 ms), effect, risk, source, run function or pointer list.
 * @example
 * const getOrder = defineTool({
 *   name: 'order_get', description: 'Look up an order', effect: 'read', risk: 'low', timeoutMs: 2000,
 *   source: { type: 'database', id: 'orders' },
 *   input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
 *   run: async ({ id }: { id: string }) => ({ data: await db.order(id) }),
 * });
 */
export function defineTool<A = unknown, D = unknown>(spec: ToolSpec<A, D>): ToolDefinition<A, D> {
  if (typeof spec?.name !== 'string' || !NAME.test(spec.name)) {
    throw new TrcError('TOOL_DEFINITION_INVALID', `tool name "${spec.name}" must match ${NAME.source}`, { data: { pointer: '/name' } });
  }
  const problem = toolSpecProblem(spec as unknown as Record<string, unknown>);
  if (problem !== null) {
    throw new TrcError('TOOL_DEFINITION_INVALID', `tool "${spec.name}": ${problem.pointer.slice(1)} ${problem.message}`, { data: { pointer: problem.pointer } });
  }
  const strictViolations = checkStrictSchema(spec.input);
  if (strictViolations.length > 0 && spec.strict !== false) {
    const lines = strictViolations.map((v) => `  ${v.pointer || '(root)'}: ${v.message} [${v.rule}]`).join('\n');
    throw new TrcError('TOOL_SCHEMA_NOT_STRICT', `tool "${spec.name}": the input schema breaks OpenAI strict rules:\n${lines}`, {
      data: { tool: spec.name, violations: strictViolations },
    });
  }
  if (spec.ignoreDetectorRules !== undefined) assertToolIgnoreList(spec.name, spec.ignoreDetectorRules);
  const validateInput = compile(spec.name, spec.input, '/input');
  if (spec.output !== undefined) {
    const problem = outputSchemaProblem(spec.output);
    if (problem !== null) throw new TrcError('TOOL_SCHEMA_INVALID', `tool "${spec.name}": output schema does not compile: ${problem}`, { data: { pointer: '/output' } });
  }
  const rules: ToolRules = {
    name: spec.name,
    effect: spec.effect,
    effectSource: 'declared',
    operation: spec.effect === 'write' ? (spec.operation ?? spec.name) : 'read',
    risk: spec.risk,
    // A high-risk tool waits for the user's confirmation of each call (T4).
    confirmation: { required: spec.risk === 'high' || spec.risk === 'critical' },
    idempotent: spec.idempotent === true,
    honoursKey: spec.honoursKey === true,
    reportsSend: spec.reportsSend === true,
    reconcile: { available: spec.reconcile !== undefined, queryTool: spec.reconcileTool ?? `${spec.name}.reconcile` },
    untrusted: (spec.untrusted ?? []).map(underData),
    trusted: (spec.trusted ?? []).map(underData),
    sourceUntrusted: spec.trustedText === true ? false : isUntrustedSourceType(String(spec.source.type)),
    ...(spec.ignoreDetectorRules === undefined ? {} : { ignoreDetectorRules: [...spec.ignoreDetectorRules] }),
    visibility: Object.fromEntries(Object.entries(spec.fields ?? {}).map(([p, v]) => [underData(p), v])),
    budget: spec.budget ?? {},
    validateInput: (args) => (validateInput(args) ? { ok: true } : { ok: false, findings: inputFindings(validateInput) }),
    inputSchema: spec.input,
    validateOutput: spec.output === undefined ? null : compileOutputSchema(spec.output),
    source: spec.source,
    timeoutMs: spec.timeoutMs,
    ...(spec.resource === undefined ? {} : { resource: spec.resource as (args: never) => string }),
  };
  return { ...spec, strictViolations, rules, validateInput };
}

function compile(tool: string, schema: Record<string, unknown>, pointer: string): ValidateFunction {
  try {
    return sharedAjv().compile(schema);
  } catch (cause) {
    throw new TrcError('TOOL_SCHEMA_INVALID', `tool "${tool}": ${pointer.slice(1)} schema does not compile: ${(cause as Error).message}`, { cause, data: { pointer } });
  }
}
