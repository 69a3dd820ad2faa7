/**
 * Build-time only: the published JSON Schema documents, derived from the TypeBox definition.
 * `scripts/write-schema.ts` writes them (and the generated validators) from here; a test checks
 * the committed copies against it. Runtime code reads `generated/` instead, so that importing
 * the contract never loads TypeBox.
 */
import { EnvelopeSchema, MinimalEnvelopeSchema } from './schema.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Plain JSON copy of a TypeBox schema (drops TypeBox's symbol keys), with `$schema` first. */
function publish(schema: object): Record<string, unknown> {
  return { $schema: DRAFT_2020_12, ...(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>) };
}

/**
 * File name → document, for every schema the package ships, computed from `schema.ts`.
 * @example
 * const docs = deriveSchemaDocuments();
 * docs['agent.tool.result.v1.json'].$id; // 'https://tool-result-contract.dev/schema/agent.tool.result.v1.json'
 */
export function deriveSchemaDocuments(): { 'agent.tool.result.v1.json': Record<string, unknown>; 'agent.tool.result.minimal.v1.json': Record<string, unknown> } {
  return {
    'agent.tool.result.v1.json': publish(EnvelopeSchema),
    'agent.tool.result.minimal.v1.json': publish(MinimalEnvelopeSchema),
  };
}
