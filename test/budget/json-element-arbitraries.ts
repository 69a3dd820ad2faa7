/**
 * fast-check generators of JSON texts for the element scanner and the streaming tests: texts
 * that JSON.stringify never writes (duplicate keys, escaped keys, odd numbers, blanks).
 */
import fc from 'fast-check';

const digits = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

/** Any JSON number text: long mantissas, long fractions, exponents small, huge and zero-padded. */
export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      sign: fc.constantFrom('', '-'),
      int: fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 24)).map(([a, b]) => a + b)),
      frac: fc.option(digits(1, 24), { nil: '' }).map((f) => (f === '' ? '' : `.${f}`)),
      exp: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.oneof(digits(1, 3), digits(4, 25))), { nil: undefined }),
    })
    .map(({ sign, int, frac, exp }) => sign + int + frac + (exp === undefined ? '' : exp.join(''))),
  fc.double({ noNaN: true, noDefaultInfinity: true }).chain((d) => fc.constantFrom(String(d), d.toExponential(), Object.is(d, -0) ? '-0' : String(d))),
  fc.integer().map(String),
  fc.constantFrom('0', '-0', '9007199254740993', '-9007199254740993', '123456789012345', '1234567890123456', '0.1', '1e22', '1e23', '1e-22', '1e-23', '5e-324', '2e-324', '1.7976931348623157e308', '1.7976931348623159e308', '1e999', '-1e999'),
);

/** JSON texts of all kinds, with unicode strings, indentation or none. */
export const jsonTexts: fc.Arbitrary<string> = fc.oneof(
  fc.json({ maxDepth: 3, depthSize: 'small', stringUnit: 'binary' }),
  fc.tuple(fc.jsonValue({ maxDepth: 3, depthSize: 'small', stringUnit: 'grapheme' }), fc.constantFrom(undefined, 1, '\t')).map(([v, indent]) => JSON.stringify(v, null, indent)),
  numberText,
);

/** Keys that make Object.keys order interesting: integer-like ones, near-integers, specials. */
const KEYS = ['a', 'b', 'id', 'score', '0', '1', '2', '10', '01', '-1', '1.5', '4294967294', '4294967295', '9007199254740993', '__proto__', 'constructor', 'é', '😀', '', ' ', 'a"b', 'a\\b', '\u0000', '\ud800', 'k/1', 'x~y'];
const keyName = fc.oneof(fc.constantFrom(...KEYS), fc.nat(99).map((n) => `k${n}`));

/** A key as JSON.stringify writes it, or with every UTF-16 unit \u-escaped. */
function writeKey(key: string, escapeAll: boolean): string {
  if (!escapeAll) return JSON.stringify(key);
  let out = '"';
  for (let i = 0; i < key.length; i++) out += `\\u${key.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out + '"';
}

const valueText = fc.oneof(
  { weight: 4, arbitrary: numberText },
  { weight: 2, arbitrary: fc.constantFrom('null', 'true', 'false', '"s"', '"9"', '[1,2]', '{"x":1}', '[]', '{}') },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2, depthSize: 'small' }) },
);
const blank = fc.constantFrom('', '', ' ', '\n  ', '\t');

type KeySpec = readonly [string, boolean, string];
const keySpec: fc.Arbitrary<KeySpec> = fc.tuple(keyName, fc.boolean(), blank);

function writeObject(shape: readonly KeySpec[], values: readonly string[], pad: string): string {
  const members = shape.map(([key, escaped, ws], i) => `${ws}${writeKey(key, escaped)}${ws}:${pad}${values[i % values.length] ?? '0'}`);
  return `${pad}{${members.join(',')}${pad}}${pad}`;
}

/**
 * A list of objects written by hand: a few shapes (duplicate and escaped keys allowed) reused
 * with different values, so consecutive rows often share a shape and sometimes do not.
 */
export const objectRows: fc.Arbitrary<string[]> = fc
  .tuple(
    fc.array(fc.array(keySpec, { maxLength: 10 }), { minLength: 1, maxLength: 12 }),
    fc.array(fc.tuple(fc.nat(), fc.array(valueText, { minLength: 10, maxLength: 10 }), blank), { maxLength: 40 }),
  )
  .map(([shapes, rows]) => rows.map(([pick, values, pad]) => writeObject(shapes[pick % shapes.length] as KeySpec[], values, pad)));

/** Rows with more distinct fields than ListStats tracks, in changing orders. */
export const wideObjectRows: fc.Arbitrary<string[]> = fc.array(
  fc.tuple(
    fc.shuffledSubarray(
      Array.from({ length: 120 }, (_, i) => (i % 3 === 0 ? String(i) : `f${i}`)),
      { minLength: 40, maxLength: 120 },
    ),
    fc.array(numberText, { minLength: 1, maxLength: 5 }),
  ).map(([keys, values]) => writeObject(keys.map((k) => [k, false, ''] as const), values, '')),
  { minLength: 1, maxLength: 6 },
);
