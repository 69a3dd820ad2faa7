/**
 * Renderers refuse an envelope that breaks the contract, with a stable code, instead of
 * sending the model (or an MCP client) something the contract never allowed. Envelopes the
 * pipeline made are valid by construction (its finalize stage validates them and records the
 * object it returns, which is not checked again); this guards the ones a caller builds or edits
 * by hand. Each object is checked once.
 */
import { TrcError, validate, type Envelope } from '../../contract/index.js';
import { isKnownValid } from '../../contract/known-valid.js';

const checked = new WeakSet<object>();

/** The code of the error a renderer throws for an invalid envelope. */
export const RENDER_INVALID_ENVELOPE = 'RENDER_INVALID_ENVELOPE';

/**
 * Throw `TrcError('RENDER_INVALID_ENVELOPE')` — with the first error's rule and JSON Pointer,
 * and every finding in `data.findings` — unless `env` is a valid envelope.
 * @example assertRenderable(env); // then render it
 */
export function assertRenderable(env: Envelope): void {
  if (typeof env === 'object' && env !== null && (checked.has(env) || isKnownValid(env))) return;
  const { valid, findings } = validate(env);
  if (!valid) {
    const errors = findings.filter((f) => f.severity === 'error');
    const first = errors[0] ?? findings[0];
    throw new TrcError(RENDER_INVALID_ENVELOPE, `cannot render an invalid envelope: ${first?.rule ?? 'invalid'} at ${first?.pointer === '' ? '/' : (first?.pointer ?? '/')}: ${first?.message ?? ''}`, {
      data: { pointer: first?.pointer ?? '', rule: first?.rule ?? null, findings: errors },
    });
  }
  checked.add(env);
}
