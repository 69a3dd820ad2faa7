/**
 * Member names that occur twice in one JSON object. `JSON.parse` keeps the last; other readers
 * keep the first or refuse the document, so an envelope with a repeated name says one thing to
 * us and another to the next reader (I-JSON, RFC 7493 §2.3: names MUST be unique). The readers
 * of JSON text report it; a parsed value cannot show it.
 */
import { RULES, type Finding } from './findings.js';
import { keyOf, pointerOf, walkJsonText } from './json-text-walk.js';

/**
 * JSON Pointers of the members whose name an earlier member of the same object already had, in
 * text order. `text` must be JSON (`JSON.parse` accepted it). Linear: one pass, no recursion.
 * @example findDuplicateKeys('{"a":1,"a":2}') // ['/a']
 */
export function findDuplicateKeys(text: string): string[] {
  const found: string[] = [];
  walkJsonText(text, {
    member(path, top) {
      top.names ??= new Set();
      const name = keyOf(text, top);
      if (top.names.has(name)) found.push(pointerOf(text, path));
      else top.names.add(name);
    },
  });
  return found;
}

/**
 * One error per repeated member name (`JSON.duplicate-key`), at its pointer.
 * @example duplicateKeyFindings(findDuplicateKeys(text))
 */
export function duplicateKeyFindings(pointers: readonly string[]): Finding[] {
  return pointers.map((pointer) => ({
    rule: RULES.JSON_DUPLICATE_KEY,
    pointer,
    message: 'this member name occurs earlier in the same object: JSON.parse keeps the last, other readers the first (I-JSON, RFC 7493, wants names unique)',
    severity: 'error',
  }));
}
