/**
 * The published JSON Schema documents, derived from the TypeBox definition.
 */
import { EnvelopeSchema, MinimalEnvelopeSchema } from './schema.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Plain JSON copy of a TypeBox schema (drops TypeBox's symbol keys), with `$schema` first. */
function publish(schema: object): Record<string, unknown> {
  return { $schema: DRAFT_2020_12, ...(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>) };
}

/** The full envelope schema as a JSON document (what `trc schema` prints). */
export function envelopeJsonSchema(): Record<string, unknown> {
  return publish(EnvelopeSchema);
}

/** The minimal-profile schema as a JSON document (what `trc schema --minimal` prints). */
export function minimalJsonSchema(): Record<string, unknown> {
  return publish(MinimalEnvelopeSchema);
}

/** File name → document, for every schema the package ships. */
export function schemaDocuments(): Record<string, Record<string, unknown>> {
  return {
    'agent.tool.result.v1.json': envelopeJsonSchema(),
    'agent.tool.result.minimal.v1.json': minimalJsonSchema(),
  };
}
