/**
 * `validate()`: schema check plus the semantic invariants (SPEC S12).
 *
 * The schema check is Ajv code generated ahead of time from the TypeBox definition
 * (`npm run schema`), so neither TypeBox nor Ajv's compiler is loaded at run time.
 */
import type { ErrorObject } from './ajv.js';
import { RULES, type Finding, type ValidationResult } from './findings.js';
import { full, minimal } from './generated/envelope-validators.js';
import { checkInvariants } from './invariants.js';
import { escapePointerToken } from './pointer.js';
import type { Envelope } from './types.js';

/** Which profile to validate against. */
export type Profile = 'full' | 'minimal';

/** What an Ajv (standalone) validate function looks like from the outside. */
type SchemaCheck = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const checks: Readonly<Record<Profile, SchemaCheck>> = { full: full as SchemaCheck, minimal: minimal as SchemaCheck };

/**
 * Validate an envelope: the JSON Schema first, then (if the shape is right) every semantic
 * invariant. Never throws, whatever the input. `checkDigest: false` skips re-digesting `data` (S9)
 * for callers that just computed `result_digest` from that very data.
 *
 * Strict on meaning, lenient on form: a list whose absence means none (`warnings`; in the
 * minimal profile also `evidence` and `untrusted_content`) may be absent, and is filled in with
 * `[]` on the object given (the schema's `default`), so a valid result is an {@link Envelope}.
 * A frozen object is checked as a shallow copy instead, and is left as it is.
 * @example
 * const r = validate(JSON.parse(text));
 * if (!r.valid) for (const f of r.findings) console.log(f.rule, f.pointer, f.message);
 */
export function validate(envelope: unknown, options: { profile?: Profile; checkDigest?: boolean } = {}): ValidationResult {
  const profile = options.profile ?? 'full';
  const check = checks[profile];
  let schemaOk: boolean;
  try {
    // Filling in a default needs a writable object; a frozen one is checked as a copy. (Inside the
    // try: a revoked Proxy throws on any look, this one included.)
    if (typeof envelope === 'object' && envelope !== null && !Array.isArray(envelope) && !Object.isExtensible(envelope)) {
      envelope = { ...envelope };
    }
    schemaOk = check(envelope);
  } catch (cause) {
    // Ajv recurses, and a Proxy may throw: only pathological input gets here. Report it instead of throwing.
    return {
      valid: false,
      findings: [{ rule: RULES.SCHEMA, pointer: '', message: `schema check failed: ${String(cause)}`, severity: 'error' }],
    };
  }
  if (!schemaOk) return { valid: false, findings: schemaFindings(check.errors ?? []) };
  if (profile === 'minimal') return { valid: true, findings: [] };
  let findings: Finding[];
  try {
    findings = checkInvariants(envelope as Envelope, options.checkDigest === false ? { checkDigest: false } : {});
  } catch (cause) {
    findings = [{ rule: RULES.SCHEMA, pointer: '', message: `invariant check failed: ${String(cause)}`, severity: 'error' }];
  }
  return { valid: !findings.some((f) => f.severity === 'error'), findings };
}

/** True when `value` is a valid full envelope (schema and invariants). */
export function isEnvelope(value: unknown): value is Envelope {
  return validate(value).valid;
}

/**
 * Turn Ajv errors into findings with the pointer of the offending field. Union branches produce
 * one error each; they are folded into one finding per location.
 */
function schemaFindings(errors: readonly ErrorObject[]): Finding[] {
  const byPointer = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    // An `if`/`then` failure is also reported as the `then` branch's own errors: keep those.
    if (e.keyword === 'if') continue;
    let pointer = e.instancePath;
    if (e.keyword === 'required') pointer += '/' + escapePointerToken(String(e.params['missingProperty']));
    if (e.keyword === 'additionalProperties') pointer += '/' + escapePointerToken(String(e.params['additionalProperty']));
    const list = byPointer.get(pointer) ?? [];
    list.push(e);
    byPointer.set(pointer, list);
  }
  const findings: Finding[] = [];
  for (const [pointer, list] of byPointer) {
    findings.push({ rule: RULES.SCHEMA, pointer, message: describe(list), severity: 'error' });
  }
  return findings;
}

function describe(list: readonly ErrorObject[]): string {
  const consts = list.filter((e) => e.keyword === 'const').map((e) => JSON.stringify(e.params['allowedValue']));
  if (consts.length > 0) return `must be one of ${consts.join(', ')}`;
  const first = list.find((e) => e.keyword !== 'anyOf') ?? list[0];
  if (first === undefined) return 'does not match the schema';
  if (first.keyword === 'required') return 'is required';
  if (first.keyword === 'additionalProperties') return 'is not an allowed property';
  return first.message ?? 'does not match the schema';
}
