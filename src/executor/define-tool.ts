/**
 * `defineTool`: check a tool's declaration once, compile its schemas, and keep what the
 * executor needs at call time.
 */
import type { ValidateFunction } from 'ajv';
import { TrcError, createAjv2020 } from '../contract/index.js';
// The OpenAI strict-mode rules have one definition, in the contract (the openai adapter re-exports it).
import { checkStrictSchema, type StrictSchemaFinding } from '../contract/index.js';
import type { ToolSpec } from './types.js';

/** A checked tool, ready for {@link createExecutor}. */
export interface ToolDefinition<A = unknown, D = unknown> extends ToolSpec<A, D> {
  readonly strictViolations: readonly StrictSchemaFinding[];
  /** @internal compiled input validator */
  readonly validateInput: ValidateFunction;
  /** @internal compiled output validator, when an output schema was given */
  readonly validateOutput: ValidateFunction | null;
}

// One Ajv for all tools: compiled validators are cached per schema object.
let ajv: ReturnType<typeof createAjv2020> | undefined;
const sharedAjv = () => (ajv ??= createAjv2020());

const NAME = /^[\w.-]{1,64}$/;

/**
 * Declare a tool. Throws `TrcError('TOOL_SCHEMA_NOT_STRICT')` listing every strict-rule
 * violation with its pointer (unless `strict: false`), `TOOL_SCHEMA_INVALID` when a schema does
 * not compile, and `TOOL_DEFINITION_INVALID` for a bad name, timeout or write without a key path.
 * @example
 * const getOrder = defineTool({
 *   name: 'order_get', description: 'Look up an order', effect: 'read', risk: 'low', timeoutMs: 2000,
 *   source: { type: 'database', id: 'orders' },
 *   input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
 *   run: async ({ id }: { id: string }) => ({ data: await db.order(id) }),
 * });
 */
export function defineTool<A = unknown, D = unknown>(spec: ToolSpec<A, D>): ToolDefinition<A, D> {
  if (!NAME.test(spec.name)) {
    throw new TrcError('TOOL_DEFINITION_INVALID', `tool name "${spec.name}" must match ${NAME.source}`, { data: { pointer: '/name' } });
  }
  if (!Number.isFinite(spec.timeoutMs) || spec.timeoutMs <= 0) {
    throw new TrcError('TOOL_DEFINITION_INVALID', `tool "${spec.name}": timeoutMs must be a positive number`, { data: { pointer: '/timeoutMs' } });
  }
  const strictViolations = checkStrictSchema(spec.input);
  if (strictViolations.length > 0 && spec.strict !== false) {
    const lines = strictViolations.map((v) => `  ${v.pointer || '(root)'}: ${v.message} [${v.rule}]`).join('\n');
    throw new TrcError('TOOL_SCHEMA_NOT_STRICT', `tool "${spec.name}": the input schema breaks OpenAI strict rules:\n${lines}`, {
      data: { tool: spec.name, violations: strictViolations },
    });
  }
  return { ...spec, strictViolations, validateInput: compile(spec.name, spec.input, '/input'), validateOutput: spec.output === undefined ? null : compile(spec.name, spec.output, '/output') };
}

function compile(tool: string, schema: Record<string, unknown>, pointer: string): ValidateFunction {
  try {
    return sharedAjv().compile(schema);
  } catch (cause) {
    throw new TrcError('TOOL_SCHEMA_INVALID', `tool "${tool}": ${pointer.slice(1)} schema does not compile: ${(cause as Error).message}`, { cause, data: { pointer } });
  }
}
