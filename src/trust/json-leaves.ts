/**
 * JSON text of a value together with where each string (value or key) starts inside it, so
 * detector spans found in the raw strings can be pointed at in the serialized text. The text is
 * exactly `JSON.stringify(value)` for JSON values.
 */

/** One string of the value: its raw text and where its first character is in the JSON text. */
export interface JsonLeaf {
  readonly raw: string;
  /** Offset of the character after the opening quote. */
  readonly at: number;
}

/** The JSON text and its strings in order of appearance. */
export interface LeafText {
  readonly text: string;
  readonly leaves: readonly JsonLeaf[];
}

/**
 * Serialize `value` and record its strings. Iterative, so deep values cannot overflow the stack.
 * @example serializeLeaves({ a: 'x' }) // { text: '{"a":"x"}', leaves: [{ raw: 'a', at: 2 }, { raw: 'x', at: 6 }] }
 */
export function serializeLeaves(value: unknown): LeafText {
  const leaves: JsonLeaf[] = [];
  const parts: string[] = [];
  let length = 0;
  const emit = (s: string) => {
    parts.push(s);
    length += s.length;
  };
  const str = (s: string) => {
    leaves.push({ raw: s, at: length + 1 });
    emit(JSON.stringify(s));
  };
  type Frame = { kind: 'value'; v: unknown } | { kind: 'text'; s: string } | { kind: 'key'; k: string };
  const stack: Frame[] = [{ kind: 'value', v: value }];
  while (stack.length > 0) {
    const f = stack.pop() as Frame;
    if (f.kind === 'text') { emit(f.s); continue; }
    if (f.kind === 'key') { str(f.k); emit(':'); continue; }
    const v = f.v;
    if (typeof v === 'string') { str(v); continue; }
    if (v === null || typeof v !== 'object') { emit(JSON.stringify(v) ?? 'null'); continue; }
    if (Array.isArray(v)) {
      emit('[');
      stack.push({ kind: 'text', s: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', v: v[i] === undefined ? null : v[i] });
        if (i > 0) stack.push({ kind: 'text', s: ',' });
      }
      continue;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
    emit('{');
    stack.push({ kind: 'text', s: '}' });
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string;
      stack.push({ kind: 'value', v: obj[k] });
      stack.push({ kind: 'key', k });
      if (i > 0) stack.push({ kind: 'text', s: ',' });
    }
  }
  return { text: parts.join(''), leaves };
}

/** Offset in the JSON text of the raw offset `offset` inside `leaf`. */
export function jsonOffset(leaf: JsonLeaf, offset: number): number {
  return leaf.at + JSON.stringify(leaf.raw.slice(0, offset)).length - 2;
}
