/**
 * Connect the official MCP SDK client to a real server over stdio, and call tools without the
 * client's own output validation (the tests judge results with the adapter, not the SDK).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export const EVERYTHING_BIN = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
export const CONTRACT_SERVER = fileURLToPath(new URL('../fixtures/contract-server.ts', import.meta.url));

/** A connected client and the tools the server lists. */
export interface Connected {
  readonly client: Client;
  readonly tools: Tool[];
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** Spawn `node ...args` as an MCP stdio server and connect to it. */
export async function connectStdio(args: string[]): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  const client = new Client({ name: 'trc-adapter-tests', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return {
    client,
    tools,
    // Resolves with the CallToolResult, or with the McpError the server answered with.
    call: (name, args = {}) =>
      client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema).then(
        (r) => r as unknown,
        (e: unknown) => e,
      ),
    close: () => client.close(),
  };
}

/** Spawn the contract fixture server (TypeScript, through tsx). */
export function connectContractServer(): Promise<Connected> {
  return connectStdio(['--import', 'tsx', CONTRACT_SERVER]);
}
