/**
 * OpenAI strict function schemas (SPEC I2): with `strict: true` the API accepts only a subset
 * of JSON Schema. `checkStrictSchema` reports every violation, each with the JSON Pointer of the
 * offending schema node, so a tool definition can be fixed before the API rejects it.
 */
import { escapePointerToken } from './pointer.js';

/** Stable ids of the strict-mode rules. */
export const STRICT_RULES = {
  ROOT_NOT_OBJECT: 'strict.root-not-object',
  ADDITIONAL_PROPERTIES: 'strict.additional-properties',
  NOT_REQUIRED: 'strict.property-not-required',
  UNSUPPORTED_KEYWORD: 'strict.unsupported-keyword',
  UNKNOWN_TYPE: 'strict.unknown-type',
  NESTING_TOO_DEEP: 'strict.nesting-too-deep',
  TOO_MANY_PROPERTIES: 'strict.too-many-properties',
  ENUM_TOO_LARGE: 'strict.enum-too-large',
  NOT_A_SCHEMA: 'strict.not-a-schema',
} as const;

/** A strict-mode rule id. */
export type StrictRule = (typeof STRICT_RULES)[keyof typeof STRICT_RULES];

/** One violation, located by a JSON Pointer into the schema. */
export interface StrictSchemaFinding {
  readonly rule: StrictRule;
  readonly pointer: string;
  readonly message: string;
}

// Keywords strict mode rejects. Composition other than anyOf, conditional and dependent
// keywords, and object/array constraints the constrained decoder cannot express.
const UNSUPPORTED = new Set([
  'allOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'dependencies',
  'patternProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'minProperties', 'maxProperties',
  'contains', 'minContains', 'maxContains', 'uniqueItems', 'prefixItems', 'additionalItems',
  'minLength', 'maxLength', '$dynamicRef', '$dynamicAnchor', 'contentEncoding', 'contentMediaType',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions'] as const;
const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM = 1000;

/**
 * Check a function's `parameters` schema against OpenAI strict-mode rules: the root is an
 * object, every object has `additionalProperties: false`, every property is required (an
 * optional one is a `null` union instead), no unsupported keywords, and the size limits.
 * @example
 * checkStrictSchema({ type: 'object', properties: { id: { type: 'string' } } })
 * // [{ rule: 'strict.additional-properties', pointer: '', ... }, { rule: 'strict.property-not-required', pointer: '/properties/id', ... }]
 */
export function checkStrictSchema(schema: unknown): StrictSchemaFinding[] {
  const findings: StrictSchemaFinding[] = [];
  const report = (rule: StrictRule, pointer: string, message: string) => findings.push({ rule, pointer, message });
  if (!isRecord(schema)) {
    report(STRICT_RULES.NOT_A_SCHEMA, '', 'the schema must be a JSON object');
    return findings;
  }
  if (schema['type'] !== 'object' || 'anyOf' in schema) {
    report(STRICT_RULES.ROOT_NOT_OBJECT, '', 'the root must be `type: "object"` and not an anyOf');
  }
  const counter = { properties: 0 };
  walk(schema, '', 0, report, counter, new Set());
  if (counter.properties > MAX_PROPERTIES) {
    report(STRICT_RULES.TOO_MANY_PROPERTIES, '', `the schema has ${counter.properties} properties; strict mode allows at most ${MAX_PROPERTIES}`);
  }
  return findings;
}

type Report = (rule: StrictRule, pointer: string, message: string) => void;

function walk(node: unknown, at: string, depth: number, report: Report, counter: { properties: number }, seen: Set<object>): void {
  if (!isRecord(node)) {
    if (typeof node !== 'boolean') report(STRICT_RULES.NOT_A_SCHEMA, at, 'a schema must be an object');
    return;
  }
  if (seen.has(node)) return;
  seen.add(node);
  if (depth > MAX_DEPTH) {
    report(STRICT_RULES.NESTING_TOO_DEEP, at, `nested ${depth} levels deep; strict mode allows at most ${MAX_DEPTH}`);
    return;
  }
  for (const k of Object.keys(node)) {
    if (UNSUPPORTED.has(k)) report(STRICT_RULES.UNSUPPORTED_KEYWORD, `${at}/${escapePointerToken(k)}`, `"${k}" is not supported in strict mode`);
  }
  const types = Array.isArray(node['type']) ? node['type'] : node['type'] === undefined ? [] : [node['type']];
  for (const t of types) {
    if (typeof t !== 'string' || !TYPES.has(t)) report(STRICT_RULES.UNKNOWN_TYPE, `${at}/type`, `unknown type ${JSON.stringify(t)}`);
  }
  const isObject = types.includes('object') || isRecord(node['properties']);
  if (isObject) checkObject(node, at, report);
  if (Array.isArray(node['enum']) && node['enum'].length > MAX_ENUM) {
    report(STRICT_RULES.ENUM_TOO_LARGE, `${at}/enum`, `${node['enum'].length} enum values; strict mode allows at most ${MAX_ENUM}`);
  }
  for (const map of SUBSCHEMA_MAPS) {
    const sub = node[map];
    if (!isRecord(sub)) continue;
    if (map === 'properties') counter.properties += Object.keys(sub).length;
    const nextDepth = map === 'properties' ? depth + 1 : depth;
    for (const [k, v] of Object.entries(sub)) walk(v, `${at}/${map}/${escapePointerToken(k)}`, nextDepth, report, counter, seen);
  }
  if (node['items'] !== undefined) {
    if (Array.isArray(node['items'])) report(STRICT_RULES.UNSUPPORTED_KEYWORD, `${at}/items`, 'tuple-form "items" is not supported in strict mode');
    else walk(node['items'], `${at}/items`, depth + 1, report, counter, seen);
  }
  if (Array.isArray(node['anyOf'])) node['anyOf'].forEach((s, i) => walk(s, `${at}/anyOf/${i}`, depth, report, counter, seen));
  if (isRecord(node['additionalProperties'])) walk(node['additionalProperties'], `${at}/additionalProperties`, depth + 1, report, counter, seen);
}

function checkObject(node: Record<string, unknown>, at: string, report: Report): void {
  if (node['additionalProperties'] !== false) {
    report(STRICT_RULES.ADDITIONAL_PROPERTIES, at === '' ? '' : at, 'every object needs `additionalProperties: false`');
  }
  const props = isRecord(node['properties']) ? Object.keys(node['properties']) : [];
  const required = new Set(Array.isArray(node['required']) ? node['required'].filter((r): r is string => typeof r === 'string') : []);
  for (const p of props) {
    if (!required.has(p)) {
      report(STRICT_RULES.NOT_REQUIRED, `${at}/properties/${escapePointerToken(p)}`, `"${p}" must be listed in "required"; make an optional field a union with "null" instead`);
    }
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
