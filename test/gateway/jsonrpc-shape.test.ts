/**
 * The framer's hand-written JSON-RPC check answers as the SDK's `JSONRPCMessageSchema.parse`
 * does — same messages accepted, same value returned — on messages built from every member the
 * schema looks at, valid and not, and on arbitrary JSON.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asJsonRpcMessage } from '../../src/gateway/jsonrpc-shape.js';

/** An object written as its members, so that `__proto__` can be an own member (as JSON.parse makes it). */
interface Members { readonly members: readonly (readonly [string, unknown])[] }
const obj = (members: readonly (readonly [string, unknown] | null)[]): Members => ({ members: members.filter((m): m is readonly [string, unknown] => m !== null) });

function toJson(v: unknown): string {
  if (v !== null && typeof v === 'object' && 'members' in v) return `{${(v as Members).members.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  return JSON.stringify(v);
}

const member = (key: string, value: fc.Arbitrary<unknown>): fc.Arbitrary<readonly [string, unknown] | null> =>
  fc.option(value.map((v) => [key, v] as const), { nil: null, freq: 3 });

const id = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constantFrom(2 ** 60, 1.5, -0, null, true, Number.MAX_SAFE_INTEGER + 1));
const scalar = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null), fc.boolean());
const extra = fc.constantFrom('x', '__proto__', 'arguments', 'name');
const related = fc.oneof(
  fc.string({ maxLength: 4 }).map((t) => obj([['taskId', t]])),
  fc.string({ maxLength: 4 }).map((t) => obj([['taskId', t], ['extra', 1]])),
  fc.constantFrom(obj([['taskId', 7]]), obj([]), null, 'task', [] as unknown[]),
);
const meta = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(member('progressToken', fc.oneof(id, fc.constant(obj([])))), member('io.modelcontextprotocol/related-task', related), member('__proto__', scalar), member('trace', scalar)).map(obj) },
  { weight: 1, arbitrary: fc.constantFrom(null, [] as unknown[], 'meta', 3) },
);
// Params or a result: an object of loose members and an optional _meta, or not an object at all.
const body = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(member('_meta', meta), member('name', scalar), member('__proto__', fc.constant(obj([['polluted', true]]))), member('content', fc.constant([obj([['type', 'text'], ['text', 'hi']])]))).map(obj) },
  { weight: 1, arbitrary: fc.constantFrom(null, [] as unknown[], 'text', 1) },
);
const error = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(member('code', fc.oneof(fc.integer(), fc.constantFrom(1.5, '1', 2 ** 60))), member('message', fc.oneof(fc.string({ maxLength: 4 }), fc.constant(3))), member('data', scalar), member('extra', scalar), member('__proto__', scalar)).map(obj) },
  { weight: 1, arbitrary: fc.constantFrom(null, [] as unknown[], 'oops') },
);
// Mostly one of the four kinds (its own members, each sometimes wrong), sometimes any mix.
const extraMember = fc.option(fc.tuple(extra, scalar), { nil: null, freq: 5 });
const jsonrpc = fc.option(fc.constantFrom('1.0', 2).map((v) => ['jsonrpc', v] as const), { nil: ['jsonrpc', '2.0'] as const, freq: 8 });
const method = fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: fc.constant(5) }).map((v) => ['method', v] as const);
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 2 });
const message = fc.oneof(
  fc.tuple(jsonrpc, id.map((v) => ['id', v] as const), method, optional(body.map((v) => ['params', v] as const)), extraMember),
  fc.tuple(jsonrpc, method, optional(body.map((v) => ['params', v] as const)), extraMember),
  fc.tuple(jsonrpc, fc.option(id.map((v) => ['id', v] as const), { nil: null, freq: 4 }), body.map((v) => ['result', v] as const), extraMember),
  fc.tuple(jsonrpc, optional(id.map((v) => ['id', v] as const)), error.map((v) => ['error', v] as const), extraMember),
  fc.tuple(jsonrpc, member('id', id), member('method', fc.string({ maxLength: 6 })), member('params', body), member('result', body), member('error', error), extraMember),
).map((members) => obj(members as (readonly [string, unknown] | null)[]));

function sameAsSchema(text: string): void {
  const schema = JSONRPCMessageSchema.safeParse(JSON.parse(text));
  const ours = asJsonRpcMessage(JSON.parse(text));
  if (!schema.success) expect(ours, text).toBeNull();
  else expect(ours, text).toStrictEqual(schema.data);
}

describe('the JSON-RPC message check of the stdio framer', () => {
  it('accepts and returns exactly what the SDK schema does, member by member', () => {
    fc.assert(fc.property(message, (m) => sameAsSchema(toJson(m))), { numRuns: Number(process.env['TRC_PROPERTY_RUNS'] ?? 3000) });
  });

  it('agrees with the SDK schema on arbitrary JSON', () => {
    fc.assert(fc.property(fc.json(), sameAsSchema), { numRuns: 1000 });
  });

  it('returns a valid message itself, copying nothing', () => {
    const m = JSON.parse('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"s":"hi"},"_meta":{"progressToken":1}}}');
    expect(asJsonRpcMessage(m)).toBe(m);
    const r = JSON.parse('{"jsonrpc":"2.0","id":"a","result":{"content":[],"_meta":{"x":1}}}');
    expect(asJsonRpcMessage(r)).toBe(r);
  });

  it('keeps an own __proto__ member out of what it returns, as the schema does', () => {
    const m = asJsonRpcMessage(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"m","params":{"__proto__":{"polluted":true},"a":1}}')) as { params: Record<string, unknown> };
    expect(Object.keys(m.params)).toEqual(['a']);
    expect(Object.getPrototypeOf(m.params)).toBe(Object.prototype);
    expect(m.params['polluted']).toBeUndefined();
  });

  it('refuses what is not one message of the four kinds', () => {
    for (const text of ['[]', 'null', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}', '{"jsonrpc":"2.0","id":1,"method":"m","result":{}}', '{"jsonrpc":"2.0","id":1.5,"method":"m"}', '{"jsonrpc":"2.0","method":"m","params":[1]}']) {
      expect(asJsonRpcMessage(JSON.parse(text)), text).toBeNull();
    }
  });
});
