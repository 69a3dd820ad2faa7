/**
 * MCP tool annotations (SPEC T5). A server's `readOnlyHint`, `destructiveHint`, descriptions and
 * the like are its own claims. From a server not marked trusted they are hints: they may make the
 * executor more careful, never less. Policy comes from the host's configuration.
 */
import type { ToolHints } from '../contract/index.js';
import type { Risk, ToolPolicy } from './authorize.js';

const ORDER: Readonly<Record<Risk, number>> = { low: 0, medium: 1, high: 2 };

/** The risk a server's annotations claim, if they claim any. */
export function riskFromAnnotations(annotations: Readonly<Record<string, unknown>>): Risk | undefined {
  if (annotations['destructiveHint'] === true) return 'high';
  if (annotations['readOnlyHint'] === true) return 'low';
  if (annotations['openWorldHint'] === true || annotations['destructiveHint'] === false) return 'medium';
  return undefined;
}

/**
 * Record a server's annotations as hints (the envelope's `tool_hints`).
 * @example toolHints('mcp:files', false, { readOnlyHint: true }).trusted // false
 */
export function toolHints(origin: string, trusted: boolean, annotations: Readonly<Record<string, unknown>>): ToolHints {
  return { origin, trusted, annotations: { ...annotations } };
}

/**
 * The policy to enforce for a tool, given the host's own policy (if any) and the server's hints.
 * An untrusted server can raise the risk, never lower it; with no host policy its tools are
 * high risk. Only a trusted server's hints may set the risk of a tool the host did not configure.
 * @example effectivePolicy(undefined, toolHints('mcp:x', false, { readOnlyHint: true })).risk // 'high'
 */
export function effectivePolicy(configured: ToolPolicy | undefined, hints: ToolHints | undefined): ToolPolicy {
  const claimed = hints === undefined ? undefined : riskFromAnnotations(hints.annotations);
  if (configured !== undefined) {
    if (claimed !== undefined && ORDER[claimed] > ORDER[configured.risk]) return { ...configured, risk: claimed };
    return configured;
  }
  if (hints?.trusted === true && claimed !== undefined) return { risk: claimed };
  return { risk: 'high' };
}
