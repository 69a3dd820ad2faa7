import { describe, expect, it } from 'vitest';
import { escapePointerToken, formatPointer, parsePointer, pointerResolves, resolvePointer } from '../../src/contract/index.js';

const doc = {
  data: { items: [{ id: 'a' }, { id: 'b' }], 'a/b': 1, 'm~n': 2, '~1': 3, '': 4, ' ': 5 },
  list: [10, 20],
};

describe('resolvePointer (strict RFC 6901)', () => {
  it('resolves the whole document with the empty pointer', () => {
    expect(resolvePointer(doc, '')).toEqual({ ok: true, value: doc });
  });

  it('resolves own properties and array indexes', () => {
    expect(resolvePointer(doc, '/data/items/1/id')).toEqual({ ok: true, value: 'b' });
    expect(resolvePointer(doc, '/list/0')).toEqual({ ok: true, value: 10 });
    expect(resolvePointer(doc, '/data/')).toEqual({ ok: true, value: 4 });
    expect(resolvePointer(doc, '/data/ ')).toEqual({ ok: true, value: 5 });
  });

  it('refuses the inherited length of an array or a string', () => {
    expect(resolvePointer(doc, '/list/length')).toMatchObject({ ok: false, reason: 'missing', at: '/list/length' });
    expect(pointerResolves(doc, '/data/items/0/id/length')).toBe(false);
  });

  it('refuses __proto__, constructor and other inherited object members', () => {
    for (const p of ['/__proto__', '/data/constructor', '/data/toString', '/data/hasOwnProperty', '/list/constructor']) {
      expect(pointerResolves(doc, p)).toBe(false);
    }
  });

  it('resolves a key named __proto__ when it really is an own property', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(resolvePointer(parsed, '/__proto__/x')).toEqual({ ok: true, value: 1 });
  });

  it('refuses array indexes with leading zeros, signs, the "-" end marker and out-of-range values', () => {
    for (const p of ['/list/01', '/list/00', '/list/-', '/list/+1', '/list/-1', '/list/1.0', '/list/2', '/list/ 1', '/list/1e0']) {
      expect(pointerResolves(doc, p)).toBe(false);
    }
  });

  it('rejects a tilde that is not ~0 or ~1 as a syntax error', () => {
    expect(resolvePointer(doc, '/data/~2')).toEqual({ ok: false, reason: 'syntax', at: '' });
    expect(resolvePointer(doc, '/data/m~')).toMatchObject({ ok: false, reason: 'syntax' });
    expect(parsePointer('data')).toBeNull();
  });

  it('decodes ~1 before ~0, so ~01 means the key "~1"', () => {
    expect(parsePointer('/~01')).toEqual(['~1']);
    expect(resolvePointer(doc, '/data/~01')).toEqual({ ok: true, value: 3 });
    expect(resolvePointer(doc, '/data/a~1b')).toEqual({ ok: true, value: 1 });
    expect(resolvePointer(doc, '/data/m~0n')).toEqual({ ok: true, value: 2 });
  });

  it('does not walk into primitives or null', () => {
    expect(pointerResolves({ a: null }, '/a/b')).toBe(false);
    expect(pointerResolves({ a: 'str' }, '/a/0')).toBe(false);
  });

  it('refuses accessor properties instead of running them', () => {
    let ran = false;
    const obj = Object.defineProperty({}, 'x', { enumerable: true, get: () => ((ran = true), 1) });
    expect(pointerResolves(obj, '/x')).toBe(false);
    expect(ran).toBe(false);
  });

  it('round-trips formatPointer and parsePointer on awkward keys', () => {
    const tokens = ['a/b', '~1', '~', '', '0', '__proto__'];
    expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
    expect(escapePointerToken('~/')).toBe('~0~1');
  });
});

describe('pointerResolves, the fast answer', () => {
  it('gives the same answer as resolvePointer on any document and pointer', async () => {
    const fc = (await import('fast-check')).default;
    const token = fc.oneof(fc.constantFrom('a', 'b', '0', '1', '01', '', '~0', '~1', '~', '~2', 'length', 'constructor', '__proto__'), fc.string({ maxLength: 3 }));
    const pointer = fc.oneof(fc.array(token, { maxLength: 4 }).map((t) => t.map((x) => '/' + x).join('')), fc.string({ maxLength: 8 }));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', '0', '1', '', '~', '/', 'a/b'), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(fc.property(value, pointer, (doc, p) => { expect(pointerResolves(doc, p)).toBe(resolvePointer(doc, p).ok); }), { numRuns: 5_000 });
  });
});
