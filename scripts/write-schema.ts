// Writes schema/*.json from the single TypeBox definition. `npm run schema` after changing it;
// a test fails when the committed files drift from the definition.
import { writeFileSync } from 'node:fs';
import { schemaDocuments } from '../src/contract/schema-json.js';

for (const [file, doc] of Object.entries(schemaDocuments())) {
  writeFileSync(new URL(`../schema/${file}`, import.meta.url), JSON.stringify(doc, null, 2) + '\n');
  console.log(`wrote schema/${file}`);
}
