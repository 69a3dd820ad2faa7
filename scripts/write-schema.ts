// Writes every file generated from the single TypeBox definition (schema/*.json and
// src/contract/generated/*). `npm run schema` after changing src/contract/schema.ts;
// a test fails when the committed files drift from the definition.
import { mkdirSync, writeFileSync } from 'node:fs';
import { contractArtifacts } from './contract-artifacts.js';

const root = new URL('../', import.meta.url);
for (const [path, text] of contractArtifacts()) {
  const url = new URL(path, root);
  mkdirSync(new URL('./', url), { recursive: true });
  writeFileSync(url, text);
  console.log(`wrote ${path}`);
}
