/**
 * The words this library writes into external text in place of what it removed: a masked
 * secret (`[redacted:<kind>]`), a hidden internal value, withheld instruction-like text. They
 * are ours, not the source's: an argument that happens to contain "secret" or "redacted" must
 * not be traced to a result because the result had a secret masked.
 */
import { WITHHELD_TEXT } from './model-view.js';
import { HIDDEN_VALUE } from './visibility.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Kinds are the secret classifier's names (`named_secret`, `github_token`, …).
const PLACEHOLDER = new RegExp(`\\[redacted:[a-z0-9_]{1,64}\\]|${escape(HIDDEN_VALUE)}|${escape(WITHHELD_TEXT)}`, 'g');

/**
 * The stretches of `text` between our placeholders (the text itself when it has none), so that
 * no window of a taint look-up reads a placeholder or joins the text on its two sides.
 * @example textAroundPlaceholders('password: [redacted:named_secret], user: ops') // ['password: ', ', user: ops']
 */
export function textAroundPlaceholders(text: string): string[] {
  if (!text.includes('[')) return [text];
  return text.split(PLACEHOLDER);
}
