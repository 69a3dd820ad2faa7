/**
 * Load evidence fixtures; every envelope fixture must itself be a valid envelope.
 */
import { readFileSync } from 'node:fs';
import { validate, type Envelope } from '../../../src/contract/index.js';

const dir = new URL('../fixtures/', import.meta.url);

/** Read a JSON fixture by relative path. */
export function readFixture<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(new URL(path, dir), 'utf8')) as T;
}

/** Load `fixtures/envelopes/<name>.json`, failing loudly if it is not a valid envelope. */
export function envelope(name: string): Envelope {
  const env = readFixture<Envelope>(`envelopes/${name}.json`);
  const r = validate(env);
  if (!r.valid) throw new Error(`fixture ${name} is not a valid envelope: ${JSON.stringify(r.findings)}`);
  return env;
}

/** Absolute path of a fixture file (for the CLI). */
export function fixturePath(path: string): string {
  return new URL(path, dir).pathname;
}
