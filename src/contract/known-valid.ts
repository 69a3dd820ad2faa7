/**
 * Envelopes already validated in full by the pipeline's last stage. A renderer that receives
 * the very object the pipeline returned need not run the schema and every invariant again (in
 * the gateway that second check was a sixth of the pipeline's cost). A copy, or any envelope
 * built or edited outside the pipeline, is not in the set and is validated as usual.
 */
const validated = new WeakSet<object>();

/**
 * Record that `envelope` passed `validate()` (schema and invariants). Only the executor's
 * finalize stage calls this, on the object it returns.
 * @example rememberValid(env); isKnownValid(env) // true
 */
export function rememberValid<T extends object>(envelope: T): T {
  validated.add(envelope);
  return envelope;
}

/**
 * True when `envelope` is an object {@link rememberValid} recorded.
 * @example if (!isKnownValid(env)) assertValid(env);
 */
export function isKnownValid(envelope: unknown): boolean {
  return typeof envelope === 'object' && envelope !== null && validated.has(envelope);
}
