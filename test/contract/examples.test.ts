import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { digest, schemaDocuments, validate } from '../../src/contract/index.js';

const EXAMPLES = new URL('../../examples/', import.meta.url);
const SCHEMA_DIR = new URL('../../schema/', import.meta.url);
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort();
const load = (file: string) => JSON.parse(readFileSync(new URL(file, EXAMPLES), 'utf8')) as Record<string, unknown>;

describe('the worked examples of the seed document', () => {
  it('are all there', () => {
    expect(files).toEqual([
      'invoice-committed.json',
      'order-lookup.json',
      'payment-unknown.json',
      'refund-failed.json',
      'ticket-untrusted.json',
      'truncated-list.json',
      'warehouse-conflict.json',
    ]);
  });

  it.each(files)('%s validates with no findings', (file) => {
    expect(validate(load(file))).toEqual({ valid: true, findings: [] });
  });

  it.each(files)('%s carries the digest of its data', (file) => {
    const env = load(file);
    expect(env['result_digest']).toBe(digest(env['data']));
  });

  it('keep the seed values that matter', () => {
    expect(load('truncated-list.json')).toMatchObject({
      status: 'partial',
      completeness: { state: 'truncated', returned_items: 20, available_items: null, next: { type: 'cursor', value: 'cursor_002' } },
    });
    expect((load('truncated-list.json')['data'] as { items: unknown[] }).items).toHaveLength(20);
    expect(load('payment-unknown.json')).toMatchObject({
      status: 'unknown',
      error: { code: 'COMMIT_STATUS_UNKNOWN', action: 'query_by_idempotency_key', retryable: false },
      side_effect: { operation: 'charge', possibly_occurred: true },
      reconciliation: { required: true, idempotency_key: 'pay_20260901_001' },
    });
    expect(load('invoice-committed.json')).toMatchObject({ side_effect: { occurred: true, external_id: 'inv_123', idempotency_key: 'invoice_order_1001' } });
    expect(load('warehouse-conflict.json')).toMatchObject({ conflicts: [{ field: 'stock', resolution: 'unresolved' }] });
    expect(load('refund-failed.json')).toMatchObject({ status: 'failed', data: null, error: { code: 'ORDER_NOT_REFUNDABLE' } });
    expect(load('ticket-untrusted.json')).toMatchObject({ untrusted_content: [{ content_id: 'content_17', instructional: true, trust: 'untrusted' }] });
  });
});

describe('the published JSON Schema', () => {
  const docs = schemaDocuments();

  it.each(Object.keys(docs))('schema/%s equals the single TypeBox definition (no drift)', (file) => {
    const committed = JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as unknown;
    expect(committed).toEqual(docs[file]);
  });

  it('validates every example with a fresh Ajv 2020, as another language would', () => {
    // Built here from the JSON files alone: nothing from src/ but the file names.
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    const full = ajv.compile(JSON.parse(readFileSync(new URL('agent.tool.result.v1.json', SCHEMA_DIR), 'utf8')) as object);
    const minimal = ajv.compile(JSON.parse(readFileSync(new URL('agent.tool.result.minimal.v1.json', SCHEMA_DIR), 'utf8')) as object);
    for (const file of files) {
      expect(full(load(file)), `${file}: ${JSON.stringify(full.errors)}`).toBe(true);
    }
    // Every valid full envelope also satisfies the minimal profile: it asks for less.
    for (const file of files) {
      expect(minimal(load(file)), `${file}: ${JSON.stringify(minimal.errors)}`).toBe(true);
    }
    expect(full({ status: 'succeeded' })).toBe(false);
  });

  it('asks a minimal envelope for completeness and provenance only when it has data to describe', () => {
    const side_effect = { occurred: false, operation: 'read' };
    const failure = { status: 'failed', data: null, error: { category: 'business', code: 'CARD_DECLINED', message: 'declined', retryable: false, action: 'abort' }, side_effect };
    expect(validate(failure, { profile: 'minimal' })).toEqual({ valid: true, findings: [] });
    const bare = validate({ status: 'succeeded', data: { a: 1 }, side_effect }, { profile: 'minimal' });
    expect(bare.findings.map((f) => f.pointer)).toEqual(['/completeness', '/provenance']);
  });
});
