/**
 * What a scenario's tools answer and how they are described, shared by both ways of running
 * it: the in-process executor gets the very `CallToolResult` the fixture MCP server sends, and
 * both get their rules from the gateway's own compiler (`toolRulesFor`) over one configuration,
 * so `--via executor` and `--via gateway` differ only in the edge.
 */
import { canonicalJson } from '../../contract/index.js';
import type { GatewayConfig, UpstreamConfig } from '../../gateway/index.js';
import type { Scenario, SimCall } from './scenario.js';

/** Name of the fixture upstream in the generated configuration. */
export const SIM_UPSTREAM = 'sim';

/** An MCP `CallToolResult` for a scenario result (a write without one answers `{"ok": true}`). */
export function callToolResult(result: unknown): Record<string, unknown> {
  if (result === undefined) return { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } };
  if (typeof result === 'string') return { content: [{ type: 'text', text: result }] };
  if (result !== null && typeof result === 'object' && !Array.isArray(result) && 'mcp' in result && Object.keys(result).length === 1) {
    return (result as { mcp: Record<string, unknown> }).mcp;
  }
  const text = JSON.stringify(result);
  return result !== null && typeof result === 'object' && !Array.isArray(result)
    ? { content: [{ type: 'text', text }], structuredContent: result }
    : { content: [{ type: 'text', text }] };
}

function sameArgs(a: unknown, b: unknown): boolean {
  try { return canonicalJson(a) === canonicalJson(b); } catch { return false; }
}

/**
 * `_meta` key under which `--via gateway` tells the fixture server which call of the scenario it
 * is answering (the gateway passes keys that are not its own upstream).
 */
export const SIM_CALL_META_KEY = 'dev.tool-result-contract/attack-sim-call';

/**
 * The scripted result for a call of `tool` with `args`: the result of call number `index` when
 * it is that tool's call and has one — a tool called twice with the same arguments (an inbox read
 * again) answers each time what that call scripts —, else the call with those arguments, else
 * the tool's first call with a result.
 */
export function resultFor(calls: readonly SimCall[], tool: string, args: unknown, index?: number): Record<string, unknown> {
  const own = index === undefined ? undefined : calls[index];
  if (own !== undefined && own.tool === tool && own.result !== undefined) return callToolResult(own.result);
  const exact = calls.find((c) => c.tool === tool && sameArgs(c.args, args));
  const first = exact ?? calls.find((c) => c.tool === tool && c.result !== undefined);
  return callToolResult(first?.result);
}

/** The name a scenario's tool is listed under when one server serves a whole file. */
export const wireName = (scenario: number, tool: string): string => `s${scenario}__${tool}`;

/** Scenario number and tool name of a listed name, or null. */
export function fromWireName(name: string): { scenario: number; tool: string } | null {
  const m = /^s(\d+)__(.+)$/.exec(name);
  return m === null ? null : { scenario: Number(m[1]), tool: m[2] as string };
}

/** The rules configuration of one tool (effect, risk, where its text comes from). */
function toolPolicy(t: Scenario['tools'][number]) {
  return { effect: t.effect, source_type: t.source_type ?? 'mcp', ...(t.risk === undefined ? {} : { risk: t.risk }) };
}

/** The gateway configuration of one scenario (tools by their own names), for `--via executor`. */
export function scenarioConfig(s: Scenario): { config: GatewayConfig; upstream: UpstreamConfig } {
  const upstream: UpstreamConfig = { name: SIM_UPSTREAM, command: 'none', tools: Object.fromEntries(s.tools.map((t) => [t.name, toolPolicy(t)])) };
  return { config: { upstreams: [upstream], principal: s.principal ?? 'user' }, upstream };
}

/** The gateway configuration of a whole file: one upstream started with `serverArgv`, tools as {@link wireName}. */
export function suiteConfig(scenarios: readonly Scenario[], serverArgv: readonly string[]): GatewayConfig {
  const tools = Object.fromEntries(scenarios.flatMap((s, n) => s.tools.map((t) => [wireName(n, t.name), toolPolicy(t)])));
  return { upstreams: [{ name: SIM_UPSTREAM, command: serverArgv[0] as string, args: serverArgv.slice(1), tools }], principal: 'attack-sim' };
}
