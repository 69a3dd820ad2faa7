/**
 * Task-augmented tool calls through the gateway, with server-everything's task tool
 * (`simulate-research-query`) and the v1 SDK client: the task is created on the upstream, its
 * status can be polled, listed and cancelled through the gateway, and its result comes back
 * through the contract pipeline (an envelope, like any call). Writes may not run as tasks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, CreateTaskResultSchema, GetTaskResultSchema, ListTasksResultSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { eventually, gatewayArgv, SERVERS, tempDir } from './helpers.js';

const dir = tempDir();
const config = join(dir, 'tasks.yaml');
writeFileSync(config, 'upstreams:\n  - name: everything\n    command: ' + JSON.stringify(SERVERS.everything[0]) + '\n    args: ' + JSON.stringify(SERVERS.everything.slice(1)) + '\n    tools:\n      simulate-research-query:\n        effect: read\n      echo:\n        effect: read\n');
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
});

async function connect(configPath?: string): Promise<Client> {
  const argv = configPath === undefined ? gatewayArgv(SERVERS.everything, ['--store', join(dir, `t${clients.length}.sqlite`)]) : gatewayArgv([], ['--store', join(dir, `t${clients.length}.sqlite`), '--config', configPath]).filter((a, i, all) => !(a === '--' && i === all.length - 1));
  const [command, ...args] = argv as [string, ...string[]];
  const client = new Client({ name: 'tasks', version: '1' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

describe('task-augmented calls through the gateway', () => {
  it('advertises the upstream tasks capability, creates, polls, lists the task and returns its result as an envelope', async () => {
    const client = await connect(config);
    expect(client.getServerCapabilities()?.tasks?.requests?.tools?.call).toBeDefined();
    const created = await client.request({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'otters' }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    const taskId = created.task.taskId;
    expect(taskId).toBeTruthy();
    const status = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
    expect(status.taskId).toBe(taskId);
    const listed = await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
    await eventually(async () => (await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).status === 'completed', 30_000);
    const result = await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
    const envelope = result._meta?.[ENVELOPE_META_KEY] as { status: string; call: { tool_name: string } };
    expect(envelope.status).toBe('succeeded');
    expect(envelope.call.tool_name).toBe('simulate-research-query');
    expect(JSON.stringify(result)).toContain('otters');
  }, 90_000);

  it('refuses a task for a tool that is not declared a read, and task ids it did not create', async () => {
    const client = await connect();
    await expect(client.request({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'x' }, task: {} } }, ResultSchema)).rejects.toThrow(/cannot run as a task/);
    await expect(client.request({ method: 'tasks/get', params: { taskId: 'not-mine' } }, ResultSchema)).rejects.toThrow(/Unknown task/);
  }, 60_000);

  it('refuses the bare answer of an upstream that ran a task-augmented call at once, and serves the call without task', async () => {
    const client = await connect(config);
    const call = client.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' }, task: { ttl: 60_000 } } }, ResultSchema);
    // The SDK client in the gateway refuses the bare answer already; the gateway's own check
    // backs it for upstream clients that would not.
    await expect(call).rejects.toThrow(/Invalid task creation result|answered without creating a task/);
    // The same read without `task` goes through the pipeline as usual.
    const plain = await client.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }, CallToolResultSchema);
    expect((plain._meta as Record<string, unknown> | undefined)?.[ENVELOPE_META_KEY]).toMatchObject({ status: 'succeeded' });
  }, 60_000);

  it("lists every task of the session, beyond the upstream's first page", async () => {
    const client = await connect(config);
    // server-everything lists tasks 10 to a page.
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await client.request({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: `topic ${i}` }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      ids.push(created.task.taskId);
    }
    const listed = await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    expect(listed.tasks.map((t) => t.taskId).sort()).toEqual([...ids].sort());
    expect(listed.nextCursor).toBeUndefined();
  }, 90_000);
});
