/**
 * The published JSON Schema documents. They are generated from the TypeBox definition by
 * `npm run schema` and embedded as JSON text, so printing them does not load TypeBox.
 */
import { ENVELOPE_SCHEMA_JSON, MINIMAL_SCHEMA_JSON } from './generated/schema-documents.js';

/**
 * The full envelope schema as a JSON document (what `trc schema` prints). A fresh copy per call.
 * @example
 * envelopeJsonSchema().$id; // 'https://tool-result-contract.dev/schema/agent.tool.result.v1.json'
 */
export function envelopeJsonSchema(): Record<string, unknown> {
  return JSON.parse(ENVELOPE_SCHEMA_JSON) as Record<string, unknown>;
}

/**
 * The minimal-profile schema as a JSON document (what `trc schema --minimal` prints).
 * @example
 * minimalJsonSchema().required; // ['status', 'data', 'completeness', …]
 */
export function minimalJsonSchema(): Record<string, unknown> {
  return JSON.parse(MINIMAL_SCHEMA_JSON) as Record<string, unknown>;
}

/**
 * File name → document, for every schema the package ships.
 * @example
 * Object.keys(schemaDocuments()); // ['agent.tool.result.v1.json', 'agent.tool.result.minimal.v1.json']
 */
export function schemaDocuments(): Record<string, Record<string, unknown>> {
  return {
    'agent.tool.result.v1.json': envelopeJsonSchema(),
    'agent.tool.result.minimal.v1.json': minimalJsonSchema(),
  };
}
