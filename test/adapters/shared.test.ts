import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTrcError, succeeded, validate } from '../../src/contract/index.js';
import { alignBatch, cancelledEnvelope, deniedEnvelope } from '../../src/adapters/openai/index.js';
import { frameworkRules } from '../../src/adapters/shared/index.js';
import { envelopeFromOutcome } from '../../src/executor/index.js';

const call = (id: string) => ({ tool_name: 'search', call_id: id });
const value = (n: unknown, c: { tool_name: string; call_id: string }) => succeeded({ call: c, data: { n }, provenance: { source_type: 'tool', source_id: 'search', observed_at: null } });
const envelopeFromValue = (v: unknown, c: { tool_name: string; call_id: string }) => envelopeFromOutcome(frameworkRules(c.tool_name, {}), { kind: 'value', value: v }, { call: c });
const envelopeFromThrown = (error: unknown, c: { tool_name: string; call_id: string }) => envelopeFromOutcome(frameworkRules(c.tool_name, {}), { kind: 'threw', error }, { call: c });

describe('batch of parallel calls (P1)', () => {
  it('always yields exactly one envelope per requested id, in request order, whatever order they finished in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^call_[a-z0-9]{1,6}$/), { minLength: 1, maxLength: 12 }), fc.infiniteStream(fc.nat()), (ids, noise) => {
        const envs = ids.map((id, i) => (i % 3 === 0 ? cancelledEnvelope(call(id)) : i % 3 === 1 ? deniedEnvelope(call(id)) : value(i, call(id))));
        const shuffled = [...envs].sort(() => (noise.next().value % 3) - 1);
        const aligned = alignBatch(ids, shuffled);
        expect(aligned.map((e) => e.call.call_id)).toEqual(ids);
      }),
    );
  });

  it('names the missing, unexpected and duplicated ids when the sets differ', () => {
    let thrown: unknown;
    try {
      alignBatch(['a', 'b', 'c'], [value(1, call('a')), value(1, call('a')), value(1, call('z'))]);
    } catch (e) {
      thrown = e;
    }
    expect(isTrcError(thrown, 'BATCH_MISMATCH')).toBe(true);
    expect((thrown as { data: unknown }).data).toEqual({ missing: ['b', 'c'], unexpected: ['z'], duplicated: ['a'], requested_twice: [] });
  });

  it('refuses a request list that names a call id twice', () => {
    expect(() => alignBatch(['a', 'a'], [value(1, call('a'))])).toThrow(/requested twice/);
  });
});

describe('envelopes for calls that did not return', () => {
  it('builds a valid failed envelope for a call cancelled before it started', () => {
    const env = cancelledEnvelope(call('c1'), { reason: 'user stopped' });
    expect(env).toMatchObject({ status: 'failed', error: { category: 'cancelled', code: 'CALL_CANCELLED' } });
    expect(validate(env).valid).toBe(true);
  });

  it('builds an unknown outcome for a write cancelled in flight', () => {
    const env = cancelledEnvelope({ ...call('c2'), idempotency_key: 'k1' }, { started: true, operation: 'refund' });
    expect(env).toMatchObject({ status: 'unknown', side_effect: { possibly_occurred: true }, reconciliation: { required: true, idempotency_key: 'k1' } });
    expect(validate(env).valid).toBe(true);
  });

  it('builds a valid failed envelope for a denied call', () => {
    const env = deniedEnvelope(call('c3'));
    expect(env).toMatchObject({ status: 'failed', error: { category: 'authorization', code: 'CALL_DENIED' } });
    expect(validate(env).valid).toBe(true);
  });
});

describe('a framework tool’s value and thrown error through the pipeline', () => {
  it('turns any JSON-representable return value into a valid succeeded envelope', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const env = envelopeFromValue(v, call('c'));
        expect(validate(env).valid).toBe(true);
      }),
    );
  });

  it('reports a value with no JSON form as a failed envelope instead of throwing', () => {
    const env = envelopeFromValue({ n: 10n }, call('c'));
    // The code an in-process tool's output with no JSON form gets.
    expect(env).toMatchObject({ status: 'failed', error: { code: 'TOOL_OUTPUT_INVALID' } });
  });

  it('takes an envelope a framework tool returns as its data, never as the result (it answers the caller’s call id)', () => {
    const inner = value(1, call('inner'));
    const env = envelopeFromValue(inner, call('outer'));
    expect(env.call.call_id).toBe('outer');
    expect(env.status).toBe('succeeded');
    expect((env.data as { status: string }).status).toBe('succeeded');
  });

  it('classifies thrown errors without inventing retryability', () => {
    const env = envelopeFromThrown(new Error('boom'), call('c'));
    expect(env.status).toBe('failed');
    expect(env.error?.retryable).toBe(false);
    expect(validate(env).valid).toBe(true);
  });
});
