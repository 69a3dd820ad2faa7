/**
 * `--via executor`: the scenario's tools as invokers of an in-process executor, one run per
 * scenario (its scope, the user's prompt as trusted text). Each tool answers the same MCP
 * `CallToolResult` the fixture server would, and its rules come from the gateway's compiler
 * over the same configuration, so only the edge differs from `--via gateway`.
 */
import { createExecutor, type Invoker, type McpListing, type RunScope } from '../../executor/index.js';
import { CONFIRM_META_KEY, toolRulesFor } from '../../gateway/index.js';
import { createMemoryStore } from '../../store/index.js';
import type { Scenario, SimScope } from './scenario.js';
import type { Channel, Harness } from './simulate.js';
import { resultFor, scenarioConfig, SIM_UPSTREAM } from './tool-results.js';

/** The run scope of a scenario (a list of names is the tools). */
export function runScope(scope: SimScope | undefined): RunScope | undefined {
  if (scope === undefined) return undefined;
  return Array.isArray(scope) ? { tools: scope } : (scope as RunScope);
}

/**
 * A channel to the scenario's tools through the executor.
 * @example const channel = executorChannel(scenario); await simulate(scenario, channel);
 */
export function executorChannel(s: Scenario): Channel {
  const { config, upstream } = scenarioConfig(s);
  const executor = createExecutor({ store: createMemoryStore() });
  const scope = runScope(s.scope);
  const run = executor.startRun({ ...(scope === undefined ? {} : { scope }), trustedText: [s.user_prompt] });
  const principal = { id: config.principal ?? 'user' };
  let n = 0;
  return {
    async call(tool, args, { index, confirmed }) {
      // The user's approval, given to the application (never through the model).
      if (confirmed !== undefined) run.confirm(confirmed);
      // As the fixture server lists it (the gateway reads the same listing).
      const listing: McpListing = { name: tool, inputSchema: { type: 'object', ...s.tools.find((t) => t.name === tool)?.input_schema } };
      const rules = toolRulesFor(config, upstream, tool, tool, listing, CONFIRM_META_KEY);
      const invoker: Invoker = {
        attempt: async () => ({ kind: 'mcp', result: resultFor(s.calls, tool, args, index), listing, server: { name: SIM_UPSTREAM, trusted: false }, sent: true }),
      };
      return executor.run(rules, invoker, { call_id: `call_${s.id}_${++n}`, tool_name: tool, args }, principal, { run });
    },
    close: async () => { await executor.flushAudit(); await executor.store.close(); },
  };
}

/** A fresh executor and run per scenario. */
export function executorHarness(): Harness {
  return { channel: executorChannel, close: async () => undefined };
}
