/**
 * Fixture loading for the trust tests.
 */
import { readFileSync } from 'node:fs';
import type { Envelope } from '../../src/contract/index.js';

/** Read a JSON fixture envelope from test/trust/fixtures. */
export function fixture(name: string): Envelope {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Envelope;
}
