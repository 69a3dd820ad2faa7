/**
 * Where exactly a JSON text goes wrong. `JSON.parse` messages differ between Node versions and
 * do not always carry a position, so a small strict checker finds the first bad character.
 */

/** A syntax error: offset in UTF-16 units, 1-based line and column (column in code points). */
export interface JsonErrorPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]?\d+)?/iy;
const HEX4 = /^[0-9a-f]{4}$/i;

/** 1-based line and code-point column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      column = 1;
    } else if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff)) {
      column++;
    }
  }
  return { line, column };
}

/**
 * The first syntax error of `text` as JSON, or null when it is valid JSON.
 * @example findJsonError('{"a":}')?.column // 6
 */
export function findJsonError(text: string): JsonErrorPosition | null {
  let pos = 0;
  const stack: number[] = [];
  const fail = (message: string): JsonErrorPosition => ({ offset: pos, ...lineColumn(text, pos), message });
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) pos++;
      else return;
    }
  };
  const describe = () => (pos >= text.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(text[pos])}`);
  const string = (): JsonErrorPosition | null => {
    if (text[pos] !== '"') return fail(`${describe()}, expected a string`);
    pos++;
    for (;;) {
      if (pos >= text.length) return fail('unterminated string');
      const c = text.charCodeAt(pos);
      if (c === 34) {
        pos++;
        return null;
      }
      if (c < 0x20) return fail('control character in string (escape it)');
      if (c === 92) {
        const e = text[pos + 1];
        if (e === 'u') {
          if (!HEX4.test(text.slice(pos + 2, pos + 6))) return fail('bad \\u escape');
          pos += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) pos += 2;
        else return fail('bad escape in string');
      } else pos++;
    }
  };
  const key = (): JsonErrorPosition | null => {
    ws();
    const bad = string();
    if (bad !== null) return bad;
    ws();
    if (text[pos] !== ':') return fail(`${describe()}, expected ":"`);
    pos++;
    return null;
  };
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      ws();
      const c = text[pos];
      if (c === '{' || c === '[') {
        pos++;
        ws();
        if (text[pos] === (c === '{' ? '}' : ']')) {
          pos++;
          expectValue = false;
          continue;
        }
        stack.push(c === '{' ? 1 : 2);
        if (c === '{') {
          const bad = key();
          if (bad !== null) return bad;
        }
        continue;
      }
      if (c === '"') {
        const bad = string();
        if (bad !== null) return bad;
      } else if (c === 't' || c === 'f' || c === 'n') {
        const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
        if (text.slice(pos, pos + word.length) !== word) return fail(describe());
        pos += word.length;
      } else {
        NUMBER.lastIndex = pos;
        const m = NUMBER.exec(text);
        if (m === null || m[0] === '' || m[0] === '-') return fail(`${describe()}, expected a value`);
        pos += m[0].length;
      }
      expectValue = false;
      continue;
    }
    ws();
    const top = stack[stack.length - 1];
    if (top === undefined) return pos >= text.length ? null : fail('unexpected data after the JSON value');
    const c = text[pos];
    if (c === ',') {
      pos++;
      if (top === 1) {
        const bad = key();
        if (bad !== null) return bad;
      }
      expectValue = true;
    } else if ((top === 1 && c === '}') || (top === 2 && c === ']')) {
      pos++;
      stack.pop();
    } else {
      return fail(`${describe()}, expected "," or "${top === 1 ? '}' : ']'}"`);
    }
  }
}
