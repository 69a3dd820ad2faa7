/**
 * The `prefix` match of a resource-scope rule (SPEC T4). A prefix such as `bills/` is declared to
 * keep a tool to one part of a tree, so a value that starts with it but climbs back out —
 * `bills/../.ssh/id_rsa`, `bills/..\secrets`, `bills/%2e%2e/x` — is outside it: the tool
 * resolves the `..`, the string comparison alone would not.
 */

/** Percent escapes that spell a dot or a path separator, decoded (also when encoded twice). */
function decodePathEscapes(text: string): string {
  let out = text;
  // Each round undoes one layer (`%252e` → `%2e` → `.`); three layers cover what a path decoder would.
  for (let round = 0; round < 3; round++) {
    const next = out.replace(/%25/gi, '%').replace(/%2e/gi, '.').replace(/%2f|%5c/gi, '/');
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * Whether `value` lies under `prefix`: it starts with it, and what follows has no `..` segment
 * (between `/` or `\`, percent-encoded or not).
 * @example withinPrefix('bills/dec.txt', 'bills/') // true
 * @example withinPrefix('bills/../.ssh/id_rsa', 'bills/') // false
 */
export function withinPrefix(value: string, prefix: string): boolean {
  if (!value.startsWith(prefix)) return false;
  return !decodePathEscapes(value.slice(prefix.length)).split(/[/\\]/).includes('..');
}
