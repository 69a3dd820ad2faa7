/**
 * fast-check generators of valid envelopes and of MCP results, for the round-trip properties.
 */
import fc from 'fast-check';
import { accepted, failed, needsInput, partial, succeeded, unknown as unknownOutcome, escapePointerToken, type Envelope, type ErrorInfo, type Evidence } from '../../../src/contract/index.js';
import { ERROR_ACTIONS, ERROR_CATEGORIES } from '../../../src/contract/index.js';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__');
const scalar = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)), fc.boolean(), fc.constant(null));
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
})).value;
const record = fc.dictionary(key, json, { minKeys: 1, maxKeys: 5 });
const stamp = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2026, 0, 1) }).map((t) => new Date(t).toISOString());
const call = fc.record({ tool_name: fc.constantFrom('order.get', 'search', 'refund'), call_id: fc.stringMatching(/^call_[a-z0-9]{1,10}$/) });

const evidenceFor = (data: Record<string, unknown>): fc.Arbitrary<Evidence[]> =>
  fc.subarray(Object.keys(data), { minLength: 0 }).map((keys) =>
    keys.map((k, i) => ({
      evidence_id: `ev_${i}`,
      kind: 'db_row',
      source: { type: 'database', name: 'orders' },
      locator: { table: 'orders', primary_key: `k${i}`, columns: [k] },
      supports: [`/data/${escapePointerToken(k)}`],
    })),
  );

const errorInfo: fc.Arbitrary<ErrorInfo> = fc.record({
  category: fc.constantFrom(...ERROR_CATEGORIES),
  code: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/),
  message: fc.string({ maxLength: 40 }),
  retryable: fc.boolean(),
  action: fc.constantFrom(...ERROR_ACTIONS),
  details: record,
});

const succeededEnv = fc.tuple(call, record, stamp).chain(([c, data, at]) =>
  evidenceFor(data).map((evidence) =>
    succeeded({ call: c, data, evidence, provenance: { source_type: 'database', source_id: 'orders.primary', observed_at: null, retrieved_at: at } }),
  ),
);

const partialEnv = fc.tuple(call, record, stamp, fc.integer({ min: 0, max: 50 }), fc.option(fc.stringMatching(/^[a-z0-9]{4,20}$/), { nil: null })).chain(([c, data, at, returned, cursor]) =>
  evidenceFor(data).map((evidence) =>
    partial({
      call: c,
      data,
      evidence,
      provenance: { source_type: 'api', source_id: 'crm', observed_at: null, retrieved_at: at },
      completeness: { state: 'truncated', reason: 'context_budget', returned_items: returned, available_items: null, next: cursor === null ? null : { type: 'cursor', value: cursor } },
    }),
  ),
);

const failedEnv = fc.tuple(call, errorInfo).map(([c, error]) => failed({ call: c, error, side_effect: { occurred: false, operation: 'refund' } }));

const unknownEnv = fc.tuple(call, errorInfo).map(([c, error]) =>
  unknownOutcome({
    call: { ...c, idempotency_key: 'idem_1' },
    error: { ...error, retryable: false },
    side_effect: { operation: 'refund', possibly_occurred: true, idempotency_key: 'idem_1' },
    reconciliation: { required: true, idempotency_key: 'idem_1', state: 'pending' },
  }),
);

const acceptedEnv = fc.tuple(call, fc.stringMatching(/^job_[a-z0-9]{4,12}$/)).map(([c, job]) => accepted({ call: c, data: { job_id: job } }));
const needsInputEnv = call.map((c) => needsInput({ call: c, code: 'DATE_REQUIRED', message: 'which departure date?', missing: ['/departure_date'] }));

/** Valid envelopes of every status. */
export const envelopeArb: fc.Arbitrary<Envelope> = fc.oneof(succeededEnv, partialEnv, failedEnv, unknownEnv, acceptedEnv, needsInputEnv);

const textBlock: fc.Arbitrary<ContentBlock> = fc.string({ maxLength: 60 }).map((text) => ({ type: 'text', text }));
const linkBlock: fc.Arbitrary<ContentBlock> = fc.stringMatching(/^[a-z]{1,8}$/).map((n) => ({ type: 'resource_link', uri: `file:///docs/${n}.md`, name: `${n}.md`, mimeType: 'text/markdown' }));
const imageBlock: fc.Arbitrary<ContentBlock> = fc.constant({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });

/** MCP results as servers send them: any mix of blocks, with or without structured content. */
export const callToolResultArb: fc.Arbitrary<CallToolResult> = fc
  .record({
    content: fc.array(fc.oneof(textBlock, linkBlock, imageBlock), { maxLength: 4 }),
    structuredContent: fc.option(record, { nil: undefined }),
    isError: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map(({ content, structuredContent, isError }) => ({
    content,
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError === undefined ? {} : { isError }),
  }));
