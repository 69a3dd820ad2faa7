/**
 * Scopes → tool policy: which OAuth scopes a request or a tool call needs, from the `auth`
 * section (`required_scopes` for every request, `write_scope` for tools whose effect is
 * `write`, `tool_scopes` per tool name or glob). The effect comes from the tool's compiled
 * `ToolRules`, the same rules the pipeline runs the call with.
 */
import type { AuthConfig } from './auth-config.js';

/**
 * The scopes a call of `tool` (its exposed name and effect) needs, the endpoint's included, in
 * a stable order without repeats.
 * @example scopesForTool({ issuer, resource, write_scope: 'mcp:write' }, { name: 'fs__write_file', effect: 'write' }) // → ['mcp:write']
 */
export function scopesForTool(auth: AuthConfig, tool: { readonly name: string; readonly effect: 'read' | 'write' }): string[] {
  const out = new Set(auth.required_scopes ?? []);
  if (tool.effect === 'write' && auth.write_scope !== undefined) out.add(auth.write_scope);
  for (const [glob, scopes] of Object.entries(auth.tool_scopes ?? {})) {
    if (matchesToolGlob(glob, tool.name)) for (const s of typeof scopes === 'string' ? [scopes] : scopes) out.add(s);
  }
  return [...out];
}

/**
 * The required scopes not granted.
 * @example missingScopes(['mcp'], ['mcp', 'mcp:write']) // → ['mcp:write']
 */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const have = new Set(granted);
  return required.filter((s) => !have.has(s));
}

/** Every scope the configuration names (the metadata's `scopes_supported`). */
export function scopesSupported(auth: AuthConfig): string[] {
  const all = new Set(auth.required_scopes ?? []);
  if (auth.write_scope !== undefined) all.add(auth.write_scope);
  for (const scopes of Object.values(auth.tool_scopes ?? {})) for (const s of typeof scopes === 'string' ? [scopes] : scopes) all.add(s);
  return [...all];
}

/**
 * `*` matches any run of characters, everything else itself. Greedy with one backtrack point
 * (the last `*`), so matching is O(glob × name) at worst and never exponential.
 * @example matchesToolGlob('github__*', 'github__create_issue') // → true
 */
export function matchesToolGlob(glob: string, name: string): boolean {
  let g = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (g < glob.length && glob[g] !== '*' && glob[g] === name[n]) {
      g++;
      n++;
    } else if (g < glob.length && glob[g] === '*') {
      star = g++;
      resume = n;
    } else if (star !== -1) {
      g = star + 1;
      n = ++resume;
    } else return false;
  }
  while (g < glob.length && glob[g] === '*') g++;
  return g === glob.length;
}
