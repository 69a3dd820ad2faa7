/**
 * Per-tool policy from the configuration: internal fields never reach the client (T6), and
 * configured fields are isolated as untrusted content (T1).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { connectStdio, gatewayArgv, tempDir, type TestClient } from './helpers.js';

const config = fileURLToPath(new URL('./fixtures/policy.yaml', import.meta.url));
let c: TestClient | undefined;
afterAll(async () => c?.close());

describe('per-tool policy', () => {
  it('withholds internal fields and isolates untrusted fields', async () => {
    c = await connectStdio('v1', gatewayArgv([], ['--store', join(tempDir(), 'p.sqlite'), '--config', config]).slice(0, -1), { env: { COUNT_FILE: join(tempDir(), 'n.txt') } });
    const result = await c.request('tools/call', { name: 'charge', arguments: { amount: 12345 } });
    const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as { data: Record<string, unknown>; warnings: { code: string }[]; untrusted_content: { origin?: string }[] };
    expect(validate(env).valid).toBe(true);
    expect(env.data).not.toHaveProperty('amount');
    expect(env.warnings.map((w) => w.code)).toContain('FIELDS_WITHHELD');
    expect(JSON.stringify(result['structuredContent'] ?? {})).not.toContain('12345');
    // The tool is declared a trusted source type (api): only the configured field is external.
    expect(env.untrusted_content.map((u) => u.origin)).toContain('/data/id');
    expect(JSON.stringify(result['structuredContent'])).toContain('$untrusted');
  });
});
