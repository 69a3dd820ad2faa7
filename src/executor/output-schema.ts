/**
 * Validation of `structuredContent` against a tool's `outputSchema`, in the dialect the schema
 * declares. The MCP spec says an output schema without `$schema` is JSON Schema 2020-12; the v1
 * SDK validates everything as draft-07, which accepts or rejects the wrong things for 2020-12
 * keywords (`prefixItems`, `$defs`/`$dynamicRef`, `unevaluatedProperties`).
 */
import { Ajv as AjvDraft07 } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { canonicalJson, escapePointerToken } from '../contract/index.js';
import type { SchemaCheck } from './rules.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: AjvDraft07 | Ajv2019 | Ajv2020) => unknown;

/** JSON Schema dialects the output check understands. */
export type SchemaDialect = 'draft-07' | 'draft-2019-09' | 'draft-2020-12';

/** One place where the structured content breaks the output schema. */
export interface SchemaViolation {
  /** JSON Pointer into `structuredContent`. */
  readonly pointer: string;
  readonly keyword: string;
  readonly message: string;
}

/** Outcome of checking structured content against an output schema. */
export type OutputCheck =
  | { readonly ok: true; readonly dialect: SchemaDialect }
  | { readonly ok: false; readonly reason: 'violation'; readonly dialect: SchemaDialect; readonly violations: readonly SchemaViolation[] }
  | { readonly ok: false; readonly reason: 'unsupported-dialect' | 'invalid-schema'; readonly message: string };

const DIALECTS: ReadonlyArray<readonly [RegExp, SchemaDialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, 'draft-2019-09'],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, 'draft-2020-12'],
];

/**
 * The dialect a schema declares with `$schema`; 2020-12 when it declares none (MCP default).
 * Returns undefined for a dialect this library cannot validate (e.g. draft-04).
 * @example schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }) // 'draft-07'
 */
export function schemaDialect(schema: Record<string, unknown>): SchemaDialect | undefined {
  const declared = schema['$schema'];
  if (declared === undefined) return 'draft-2020-12';
  if (typeof declared !== 'string') return undefined;
  return DIALECTS.find(([re]) => re.test(declared))?.[1];
}

const engines = new Map<SchemaDialect, AjvDraft07 | Ajv2019 | Ajv2020>();

function engine(dialect: SchemaDialect): AjvDraft07 | Ajv2019 | Ajv2020 {
  let ajv = engines.get(dialect);
  if (ajv === undefined) {
    const opts = { allErrors: true, strict: false, validateFormats: true, validateSchema: true } as const;
    ajv = dialect === 'draft-07' ? new AjvDraft07(opts) : dialect === 'draft-2019-09' ? new Ajv2019(opts) : new Ajv2020(opts);
    addFormats(ajv);
    engines.set(dialect, ajv);
  }
  return ajv;
}

// Compiled validators keyed by the schema's canonical text: tools are listed once and called often.
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 256;

/**
 * Check `structured` against `schema` in the schema's declared dialect. Never throws.
 * @example checkOutputSchema({ type: 'object', required: ['a'] }, {}) // { ok: false, reason: 'violation', ... }
 */
export function checkOutputSchema(schema: Record<string, unknown>, structured: unknown): OutputCheck {
  const dialect = schemaDialect(schema);
  if (dialect === undefined) {
    return { ok: false, reason: 'unsupported-dialect', message: `unsupported $schema ${JSON.stringify(schema['$schema'])}` };
  }
  let validateFn: ValidateFunction;
  try {
    validateFn = compile(dialect, schema);
  } catch (cause) {
    return { ok: false, reason: 'invalid-schema', message: `the output schema does not compile: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  let ok: boolean;
  try {
    ok = validateFn(structured) as boolean;
  } catch (cause) {
    return { ok: false, reason: 'invalid-schema', message: `validation failed: ${String(cause)}` };
  }
  if (ok) return { ok: true, dialect };
  return { ok: false, reason: 'violation', dialect, violations: (validateFn.errors ?? []).map(toViolation) };
}

function compile(dialect: SchemaDialect, schema: Record<string, unknown>): ValidateFunction {
  // `$id`s are dropped from the cache key's engine view: two tools may reuse an id for different schemas.
  const key = dialect + '\n' + canonicalJson(schema);
  const hit = compiled.get(key);
  if (hit !== undefined) return hit;
  const { $id: _ignored, ...anonymous } = schema;
  const fn = engine(dialect).compile(anonymous);
  if (compiled.size >= MAX_COMPILED) {
    const oldest = compiled.keys().next();
    if (oldest.done !== true) compiled.delete(oldest.value);
  }
  compiled.set(key, fn);
  return fn;
}

function toViolation(e: ErrorObject): SchemaViolation {
  let pointer = e.instancePath;
  if (e.keyword === 'required') pointer += '/' + escapePointerToken(String(e.params['missingProperty']));
  if (e.keyword === 'additionalProperties') pointer += '/' + escapePointerToken(String(e.params['additionalProperty']));
  return { pointer, keyword: e.keyword, message: e.message ?? 'does not match the schema' };
}

/**
 * Compile an output schema (in its declared dialect) into the rules' check of `data`: findings
 * with pointers rooted at the envelope (`/data/...`), or `unchecked` when the dialect is not
 * supported or the schema does not compile. One implementation for in-process tools and MCP
 * tools, so the same violation reads the same on every edge.
 * @example compileOutputSchema({ type: 'object', required: ['n'] })({}) // { ok: false, findings: [{ pointer: '/data/n', … }] }
 */
export function compileOutputSchema(schema: Record<string, unknown>): SchemaCheck {
  return (value) => {
    const r = checkOutputSchema(schema, value);
    if (r.ok) return { ok: true };
    if (r.reason !== 'violation') return { ok: 'unchecked', message: r.message };
    return { ok: false, findings: r.violations.slice(0, 50).map((v) => ({ pointer: '/data' + v.pointer, message: `${v.message} (${v.keyword})` })) };
  };
}

/**
 * Whether an output schema compiles, so a tool declaration can be refused up front.
 * @example outputSchemaProblem({ type: 'nope' }) // 'the output schema does not compile: …'
 */
export function outputSchemaProblem(schema: Record<string, unknown>): string | null {
  const dialect = schemaDialect(schema);
  if (dialect === undefined) return `unsupported $schema ${JSON.stringify(schema['$schema'])}`;
  try {
    compile(dialect, schema);
    return null;
  } catch (cause) {
    return `the output schema does not compile: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
}

const checks = new WeakMap<object, SchemaCheck>();

/**
 * {@link compileOutputSchema}, cached per schema object (a listing's schema is compiled once).
 * @example outputCheckFor(tool.outputSchema)?.(structured)
 */
export function outputCheckFor(schema: Record<string, unknown> | undefined): SchemaCheck | null {
  if (schema === undefined) return null;
  let c = checks.get(schema);
  if (c === undefined) {
    c = compileOutputSchema(schema);
    checks.set(schema, c);
  }
  return c;
}
