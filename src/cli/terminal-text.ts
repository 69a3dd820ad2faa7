/**
 * Text from the audit store, made safe to print on a terminal. Tool names, call ids and
 * principals in a record come from whoever made the call — a model's tool call (steered by text
 * it read), an MCP client, a token's subject — and `trc audit` / `trc diagnose` printed them
 * as they were: an escape sequence could clear the screen, retitle the window, or move the
 * cursor back over a line and print a forged one in its place. Control characters (C0, DEL,
 * C1) and the bidirectional overrides that reorder what is shown are written as `\u{…}` instead.
 * JSON output needs none of this: `JSON.stringify` escapes controls itself.
 */

// C0 controls, DEL, C1 controls, and the bidi embeddings, overrides and isolates: matching
// control characters is this expression's whole purpose.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `text` with every character that would act on the terminal written as a visible escape.
 * @example printable('evil\u001b[2J') // 'evil\\u{1b}[2J'
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}
