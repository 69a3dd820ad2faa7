/**
 * `JSON.parse` that says where the text stopped being JSON (line and column), for boundaries
 * that read envelopes from files, pipes and the wire.
 */

/** Result of {@link parseJson}. Line and column are 1-based; column counts UTF-16 code units. */
export type ParseJsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly offset: number; readonly line: number; readonly column: number };

/**
 * Parse JSON text; on failure, return the offset, line and column of the first error.
 * @example parseJson('{\n  "a": }') // { ok: false, line: 2, column: 8, … }
 */
export function parseJson(text: string): ParseJsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (cause) {
    const raw = cause instanceof Error ? cause.message : String(cause);
    // V8 names the position for most errors ("… in JSON at position 13") but not all
    // ("Unexpected token '}', … is not valid JSON"); scan for it when it is missing.
    const match = / at position (\d+)/.exec(raw);
    const offset = match?.[1] !== undefined ? Number(match[1]) : syntaxErrorOffset(text);
    const { line, column } = lineAndColumn(text, offset);
    // V8 quotes the whole input in some messages; keep the message short and position-free.
    const message = raw.replace(/, .*is not valid JSON$/s, '').replace(/ at position \d.*$/s, '').replace(/ in JSON$/, '');
    return { ok: false, message, offset, line, column };
  }
}

/**
 * 1-based line and column of `offset` in `text`.
 * @example lineAndColumn('ab\ncd', 4) // { line: 2, column: 2 }
 */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * Offset of the first JSON syntax error in `text` (RFC 8259 grammar), or `text.length` when the
 * text ends early. Iterative, so deep nesting cannot overflow the stack. Only called after
 * `JSON.parse` failed.
 */
function syntaxErrorOffset(text: string): number {
  const n = text.length;
  const stack: number[] = []; // 0x7b '{' or 0x5b '['
  let i = 0;
  const ws = () => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const string = (): boolean => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[\da-f]{4}$/i.test(text.slice(i + 2, i + 6))) {
            i += 2;
            while (i < n && /[\da-f]/i.test(text[i] as string)) i++;
            return false;
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          i++;
          return false;
        }
      } else {
        i++;
      }
    }
    return false;
  };
  const number = (): boolean => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (i < n && isDigit(text.charCodeAt(i))) while (i < n && isDigit(text.charCodeAt(i))) i++;
    else return false;
    if (text[i] === '.') {
      i++;
      if (!(i < n && isDigit(text.charCodeAt(i)))) return false;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!(i < n && isDigit(text.charCodeAt(i)))) return false;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    return true;
  };
  const literal = (word: string): boolean => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return false;
    return true;
  };
  // Alternate between reading a value and reading what may follow one.
  for (;;) {
    ws();
    if (i >= n) return n;
    const c = text[i];
    let ok = true;
    if (c === '{' || c === '[') {
      stack.push(text.charCodeAt(i));
      i++;
      ws();
      if (c === '{' && text[i] === '}') {
        stack.pop();
        i++;
      } else if (c === '[' && text[i] === ']') {
        stack.pop();
        i++;
      } else if (c === '{') {
        if (text[i] !== '"' || !string()) return Math.min(i, n);
        ws();
        if (text[i] !== ':') return Math.min(i, n);
        i++;
        continue;
      } else {
        continue;
      }
    } else if (c === '"') ok = string();
    else if (c === '-' || isDigit(text.charCodeAt(i))) ok = number();
    else if (c === 't') ok = literal('true');
    else if (c === 'f') ok = literal('false');
    else if (c === 'n') ok = literal('null');
    else return i;
    if (!ok) return Math.min(i, n);
    // After a value: close containers or move to the next member.
    for (;;) {
      ws();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? i : n;
      if (i >= n) return n;
      const d = text[i];
      if (d === ',') {
        i++;
        if (top === 0x7b) {
          ws();
          if (text[i] !== '"' || !string()) return Math.min(i, n);
          ws();
          if (text[i] !== ':') return Math.min(i, n);
          i++;
        }
        break;
      }
      if ((d === '}' && top === 0x7b) || (d === ']' && top === 0x5b)) {
        stack.pop();
        i++;
        continue;
      }
      return i;
    }
  }
}
