/**
 * The scenario format of `trc attack-sim` (JSON Lines, one scenario a line): the user's prompt,
 * the run's scope, the tools (effect, risk, where their text comes from) and the calls a
 * scripted agent makes, each with its intent and, for reads, what the tool returns. Checked with
 * a JSON Schema (Ajv), so a bad line is refused with its line number and a JSON Pointer.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createAjv2020, escapePointerToken, findInexactNumbers, parseJson } from '../../contract/index.js';
import { runScopeProblem } from '../../executor/index.js';
import type { ValidateFunction } from '../../contract/ajv.js';
import { InputError } from '../input.js';

/** Why the agent makes a call. */
export type Intent = 'user' | 'user_untrusted' | 'injected';

/** One tool of a scenario. */
export interface SimTool {
  readonly name: string;
  readonly effect: 'read' | 'write';
  readonly risk?: 'low' | 'medium' | 'high' | 'critical';
  /** Where the tool's text comes from (`file`, `email`, `web`… are untrusted; `database`, `api` are not). Default `mcp`. */
  readonly source_type?: string;
  readonly description?: string;
  /** The tool's input schema, listed as MCP's `inputSchema` (default `{"type":"object"}`): taint reads which argument names are data. */
  readonly input_schema?: Readonly<Record<string, unknown>>;
}

/** One call of the scripted agent. */
export interface SimCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly intent: Intent;
  /** The tool's raw return: a string, a JSON value, or an MCP `CallToolResult` under `{"mcp": …}`. */
  readonly result?: unknown;
}

/** The scope of a scenario: tool names, or tools plus resource rules. */
export type SimScope = readonly string[] | { readonly tools?: readonly string[]; readonly resources?: Readonly<Record<string, readonly { argument: string; allowed: string[]; match?: 'exact' | 'prefix' }[]>> };

/** One scenario. */
export interface Scenario {
  readonly id: string;
  readonly principal?: string;
  readonly user_prompt: string;
  readonly scope?: SimScope;
  readonly tools: readonly SimTool[];
  readonly calls: readonly SimCall[];
  /** Its line in the file. */
  readonly line: number;
}

const NAME = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.-]+$' };
const SCENARIO_SCHEMA = {
  type: 'object',
  required: ['id', 'user_prompt', 'tools', 'calls'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 200 },
    principal: { type: 'string', minLength: 1, maxLength: 200 },
    user_prompt: { type: 'string' },
    description: { type: 'string' },
    // if/then/else, not oneOf: a mistake inside an object scope is then reported where it is
    // (`/scope/tools: must be array`), not as the other branch's "/scope: must be array".
    scope: {
      type: ['array', 'object'],
      if: { type: 'array' },
      then: { items: NAME },
      else: {
        additionalProperties: false,
        properties: {
          tools: { type: 'array', items: NAME },
          resources: {
            type: 'object',
            additionalProperties: {
              type: 'array',
              items: {
                type: 'object', required: ['argument', 'allowed'], additionalProperties: false,
                properties: { argument: { type: 'string' }, allowed: { type: 'array', items: { type: 'string' } }, match: { enum: ['exact', 'prefix'] } },
              },
            },
          },
        },
      },
    },
    tools: {
      type: 'array', minItems: 1,
      items: {
        type: 'object', required: ['name', 'effect'], additionalProperties: false,
        properties: {
          name: NAME,
          effect: { enum: ['read', 'write'] },
          risk: { enum: ['low', 'medium', 'high', 'critical'] },
          source_type: { type: 'string', minLength: 1, maxLength: 64 },
          description: { type: 'string' },
          // An MCP tool's inputSchema is an object schema.
          input_schema: { type: 'object', required: ['type'], properties: { type: { const: 'object' } } },
        },
      },
    },
    calls: {
      type: 'array', minItems: 1,
      items: {
        type: 'object', required: ['tool', 'args', 'intent'], additionalProperties: false,
        properties: {
          tool: NAME,
          args: { type: 'object' },
          intent: { enum: ['user', 'user_untrusted', 'injected'] },
          result: {},
        },
      },
    },
  },
} as const;

let check: ValidateFunction | undefined;

/** A scenario line that cannot be used: line number, JSON Pointer and what is wrong. */
export class ScenarioError extends InputError {
  constructor(source: string, readonly line: number, readonly pointer: string, detail: string) {
    super(`${source}:${line}: ${pointer === '' ? '(the line)' : pointer}: ${detail}`);
  }
}

/**
 * Parse and check one line of a scenario file.
 * @example parseScenario('{"id":"x","user_prompt":"hi","tools":[{"name":"t","effect":"read"}],"calls":[{"tool":"t","args":{},"intent":"user"}]}', 1, 'suite.jsonl').id // 'x'
 */
export function parseScenario(text: string, line: number, source: string): Scenario {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new ScenarioError(source, line, '', `not JSON: ${parsed.message} at column ${parsed.column}`);
  // A number a double rounds (a 20-digit account number) would be simulated as another value
  // than the one written: refused. One that overflows reads as Infinity, which the pipeline
  // itself refuses (ARGUMENTS_NOT_JSON), so a scenario may test that on purpose.
  const rounded = findInexactNumbers(text).find((f) => Number.isFinite(f.read));
  if (rounded !== undefined) throw new ScenarioError(source, line, rounded.pointer, `${rounded.text} cannot be held by a double (it would read as ${rounded.read}); write it as a string`);
  check ??= createAjv2020().compile(SCENARIO_SCHEMA);
  if (!check(parsed.value)) {
    const e = check.errors?.[0];
    const extra = e?.params !== undefined && 'additionalProperty' in e.params ? ` ("${String(e.params['additionalProperty'])}")` : e?.params !== undefined && 'allowedValues' in e.params ? ` (${(e.params['allowedValues'] as unknown[]).join(', ')})` : '';
    throw new ScenarioError(source, line, e?.instancePath ?? '', `${e?.message ?? 'is invalid'}${extra}`);
  }
  const s = parsed.value as Omit<Scenario, 'line'>;
  const names = new Set<string>();
  s.tools.forEach((t, i) => {
    if (names.has(t.name)) throw new ScenarioError(source, line, `/tools/${i}/name`, `tool "${t.name}" is declared twice`);
    names.add(t.name);
  });
  s.calls.forEach((c, i) => {
    if (!names.has(c.tool)) throw new ScenarioError(source, line, `/calls/${i}/tool`, `tool "${c.tool}" is not declared in /tools`);
  });
  s.calls.forEach((c, i) => {
    const r = c.result as Record<string, unknown> | null | undefined;
    if (r === null || typeof r !== 'object' || Array.isArray(r) || !('mcp' in r) || Object.keys(r).length !== 1) return;
    // A CallToolResult is what an MCP server would answer: checked as the SDK client checks it.
    const checked = CallToolResultSchema.safeParse(r['mcp']);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const at = (issue?.path ?? []).map((k) => `/${escapePointerToken(String(k))}`).join('');
      throw new ScenarioError(source, line, `/calls/${i}/result/mcp${at}`, `not an MCP CallToolResult: ${issue?.message ?? 'is invalid'}`);
    }
  });
  if (s.scope !== undefined && !Array.isArray(s.scope)) {
    const bad = runScopeProblem(s.scope);
    if (bad !== null) throw new ScenarioError(source, line, `/scope${bad.pointer}`, bad.message);
  }
  const scopeTools = Array.isArray(s.scope) ? s.scope : (s.scope as { tools?: string[] } | undefined)?.tools;
  scopeTools?.forEach((t, i) => {
    if (!names.has(t)) throw new ScenarioError(source, line, Array.isArray(s.scope) ? `/scope/${i}` : `/scope/tools/${i}`, `tool "${t}" is not declared in /tools`);
  });
  // A rule for a tool the scenario does not have (a misspelt name) would restrict nothing.
  const scopeResources = Array.isArray(s.scope) ? undefined : (s.scope as { resources?: Record<string, unknown> } | undefined)?.resources;
  for (const t of Object.keys(scopeResources ?? {})) {
    if (!names.has(t)) throw new ScenarioError(source, line, `/scope/resources/${escapePointerToken(t)}`, `tool "${t}" is not declared in /tools`);
  }
  return { ...s, line };
}
