/**
 * The fixture MCP server `trc attack-sim --via gateway` puts behind the gateway: a real MCP
 * server (official SDK, stdio) serving the tools of one scenario, each call answered with the
 * scenario's scripted result. Started as `node fixture-server.js SCENARIO.json`; a program of
 * its own, so the gateway spawns and talks to it like any upstream.
 */
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Scenario } from './scenario.js';
import { resultFor } from './tool-results.js';

/**
 * Serve the scenario in `file` on stdio until the client closes.
 * @example await serveScenario('/tmp/bank-07.json');
 */
export async function serveScenario(file: string): Promise<void> {
  const scenario = JSON.parse(readFileSync(file, 'utf8')) as Scenario;
  const server = new Server({ name: 'trc-attack-sim-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: scenario.tools.map((t) => ({ name: t.name, description: t.description ?? `${t.effect} tool of scenario ${scenario.id}`, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (req) => resultFor(scenario.calls, req.params.name, req.params.arguments ?? {}) as CallToolResult);
  await server.connect(new StdioServerTransport());
}

const file = process.argv[2];
if (file !== undefined && process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split(/[\\/]/).pop() ?? '')) {
  void serveScenario(file);
}
