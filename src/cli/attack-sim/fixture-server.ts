/**
 * The fixture MCP server `trc attack-sim --via gateway` puts behind the gateway: a real MCP
 * server (official SDK, stdio) serving the tools of every scenario of a file (listed as
 * `s<N>__<tool>`), each call answered with the scenario's scripted result. Started as
 * `node fixture-server.js SCENARIOS.json`; a program of its own, so the gateway spawns and
 * talks to it like any upstream.
 */
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Scenario } from './scenario.js';
import { fromWireName, resultFor, SIM_CALL_META_KEY, wireName } from './tool-results.js';

/**
 * Serve the scenarios in `file` (a JSON array) on stdio until the client closes.
 * @example await serveScenarios('/tmp/scenarios.json');
 */
export async function serveScenarios(file: string): Promise<void> {
  const scenarios = JSON.parse(readFileSync(file, 'utf8')) as Scenario[];
  const server = new Server({ name: 'trc-attack-sim-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: scenarios.flatMap((s, n) => s.tools.map((t) => ({ name: wireName(n, t.name), description: t.description ?? `${t.effect} tool of scenario ${s.id}`, inputSchema: { type: 'object' as const, ...t.input_schema } }))),
  }));
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const named = fromWireName(req.params.name);
    const s = named === null ? undefined : scenarios[named.scenario];
    if (named === null || s === undefined) return { isError: true, content: [{ type: 'text', text: `unknown tool ${req.params.name}` }] };
    const index = req.params._meta?.[SIM_CALL_META_KEY];
    return resultFor(s.calls, named.tool, req.params.arguments ?? {}, typeof index === 'number' ? index : undefined) as CallToolResult;
  });
  await server.connect(new StdioServerTransport());
}

const file = process.argv[2];
if (file !== undefined && process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split(/[\\/]/).pop() ?? '')) {
  void serveScenarios(file);
}
