/**
 * Server→client traffic through the gateway, with server-everything: sampling and elicitation
 * requests reach the real client and its answers reach the upstream; logging notifications and
 * `logging/setLevel` pass through; cancellation reaches the upstream.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { gatewayArgv, SERVERS, tempDir } from './helpers.js';

const dir = tempDir();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c().catch(() => undefined)));
});
const [command, ...args] = gatewayArgv(SERVERS.everything, ['--store', join(dir, 'pass.sqlite')]) as [string, ...string[]];
const text = (r: unknown) => JSON.stringify((r as { content: unknown }).content);
const envelope = (r: unknown) => ((r as { _meta: Record<string, unknown> })._meta[ENVELOPE_META_KEY] as { status: string; untrusted_content: { text: string }[] });
/** Server text is isolated as untrusted content in the envelope (and may be withheld from the model view). */
const serverText = (r: unknown) => envelope(r).untrusted_content.map((u) => u.text).join('\n');

describe('server→client requests and notifications through the gateway', () => {
  it('relays sampling, elicitation and logging with the v1 client', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' }, { capabilities: { sampling: {}, elicitation: {} } });
    const sampled: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      sampled.push(req.params);
      return { role: 'assistant', content: { type: 'text', text: 'sampled answer 7731' }, model: 'test-model', stopReason: 'endTurn' };
    });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { color: 'red', number: 3, pets: 'cats' } }));
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
    closers.push(() => client.close());
    await new Promise((r) => setTimeout(r, 300));

    const sampling = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say hi', maxTokens: 20 } });
    expect(sampled).toHaveLength(1);
    expect(serverText(sampling)).toContain('sampled answer 7731');
    expect(envelope(sampling).status).toBe('succeeded');

    const elicited = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(serverText(elicited)).toContain('red');

    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    await new Promise((r) => setTimeout(r, 6000));
    expect(logs.length).toBeGreaterThan(0);
    await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
  }, 30_000);

  it('relays sampling with the v2 client', async () => {
    const client = new ClientV2({ name: 'v2', version: '2' }, { capabilities: { sampling: {} } });
    client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'v2 sampled 5512' }, model: 'm', stopReason: 'endTurn' }) as never);
    await client.connect(new StdioV2({ command, args, stderr: 'pipe' }));
    closers.push(() => client.close());
    await new Promise((r) => setTimeout(r, 300));
    const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x', maxTokens: 5 } });
    expect(serverText(result)).toContain('v2 sampled 5512');
  });

  it('cancels the upstream call when the client cancels, and answers the next call', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' }, { capabilities: {} });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
    closers.push(() => client.close());
    const controller = new AbortController();
    const call = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 3 } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('user pressed stop'), 300);
    await expect(call).rejects.toThrow();
    const next = await client.callTool({ name: 'echo', arguments: { message: 'after cancel' } });
    expect(serverText(next)).toContain('after cancel');
    void text;
  });
});
