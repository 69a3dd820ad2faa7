/**
 * `allowed_uses` / `forbidden_uses` of untrusted content (SPEC T3), checked by the executor —
 * the model is told about them, but it is this check that holds.
 */
import type { UntrustedContent } from '../contract/index.js';

/**
 * May `content` be used for `use`? Forbidden wins; a use not listed as allowed is refused.
 * @example isUseAllowed(content, 'authorize_tool_call') // false
 */
export function isUseAllowed(content: Pick<UntrustedContent, 'allowed_uses' | 'forbidden_uses'>, use: string): boolean {
  if (content.forbidden_uses.includes(use)) return false;
  return content.allowed_uses.includes(use);
}
