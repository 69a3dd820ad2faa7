/**
 * `validateText()`: validate an envelope read from JSON text, the way every reader of text
 * (`trc validate`, `trc cite`) does it, so that no number is changed silently on the way.
 */
import { duplicateKeyFindings, findDuplicateKeys } from './duplicate-keys.js';
import { findInexactNumbers, keepExactDigits, numberFindings, type InexactNumber } from './exact-numbers.js';
import { RULES, type Finding } from './findings.js';
import { parseJson } from './parse-json.js';
import { validate, type Profile } from './validate.js';

/** Result of {@link validateText}: where the text is not JSON, or the parsed value and its findings. */
export type TextValidation =
  | { readonly ok: false; readonly message: string; readonly offset: number; readonly line: number; readonly column: number }
  | { readonly ok: true; readonly value: unknown; readonly valid: boolean; readonly findings: readonly Finding[] };

/**
 * Parse `text` and validate the envelope in it. A number a double cannot hold is an error
 * (`JSON.number-not-exact`) at its pointer; the envelope is checked with that number's exact
 * digits as a string (and `value` holds them so), and a digest over `data` holding such a
 * number cannot be checked, so no `S9.digest-mismatch` is reported for it. A member name
 * repeated in one object is an error (`JSON.duplicate-key`) at the repeat: `value` holds the
 * last, as `JSON.parse` does, but another reader may keep the first.
 * @example
 * const r = validateText('{"contract_version":"agent.tool.result.v1", …}');
 * if (r.ok && !r.valid) for (const f of r.findings) console.log(f.rule, f.pointer);
 */
export function validateText(text: string, options: { profile?: Profile } = {}): TextValidation {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const inexact = findInexactNumbers(text);
  const value = inexact.length === 0 ? parsed.value : keepExactDigits(parsed.value, inexact);
  const checked = validateKeptDigits(value, inexact, options);
  const duplicates = findDuplicateKeys(text);
  if (duplicates.length === 0) return { ok: true, value, ...checked };
  return { ok: true, value, valid: false, findings: [...duplicateKeyFindings(duplicates), ...checked.findings] };
}

/**
 * `validate()` of an envelope whose inexact numbers (pointers into it) already hold their
 * exact digits (see {@link keepExactDigits}): their findings first, and no digest mismatch
 * when one of them is in `data`.
 * @example validateKeptDigits(value, found.map((f) => ({ ...f, pointer: f.pointer.slice(2) })))
 */
export function validateKeptDigits(value: unknown, inexact: readonly InexactNumber[], options: { profile?: Profile } = {}): { valid: boolean; findings: readonly Finding[] } {
  const result = validate(value, options);
  if (inexact.length === 0) return result;
  const inData = inexact.some((f) => f.pointer === '/data' || f.pointer.startsWith('/data/'));
  const findings = [...numberFindings(inexact), ...result.findings.filter((f) => !(inData && f.rule === RULES.S9_DIGEST_MISMATCH))];
  return { valid: false, findings };
}
