/**
 * What an upstream says outside `tools/call` is untrusted content of the run too: a write whose
 * argument came from a `resources/read` or a `prompts/get` of the session is held for a
 * confirmation naming where it came from, as a value from a tool's result is. The client still
 * gets the upstream's answer as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY, startSession, type GatewayOptions } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { tempDir } from './helpers.js';

const SERVER = fileURLToPath(new URL('./fixtures/mail-docs-server.mjs', import.meta.url));

const open: { close(): Promise<void> }[] = [];
afterEach(async () => { for (const o of open.splice(0)) await o.close(); });

async function connect(sentFile: string): Promise<Client> {
  const opts: GatewayOptions = {
    config: { principal: 'alice', upstreams: [{ name: 'mail', command: process.execPath, args: [SERVER], env: { SENT_FILE: sentFile }, tools: { send_email: { effect: 'write', risk: 'high' } } }] },
    store: createMemoryStore(),
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await startSession(opts, serverSide);
  const client = new Client({ name: 'read-taint-test', version: '1.0.0' });
  await client.connect(clientSide);
  open.push({ close: async () => { await client.close(); await session.close(); await session.done; } });
  return client;
}

const sent = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { to: string }) : []);
const envelopeOf = (r: Awaited<ReturnType<Client['callTool']>>) => (r._meta as Record<string, Envelope>)[ENVELOPE_META_KEY] as Envelope;

describe('taint from reads outside tools/call', () => {
  it('holds a write to an address a resource of the session named, and passes the resource through as it is', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const client = await connect(file);
    const read = await client.readResource({ uri: 'mail://inbox/latest' });
    expect((read.contents[0] as { text: string }).text).toContain('notes.drop@relay-box.test');
    const held = envelopeOf(await client.callTool({ name: 'send_email', arguments: { to: 'notes.drop@relay-box.test', body: 'notes' } }));
    expect(held).toMatchObject({ status: 'needs_input', error: { code: 'T3.tainted-argument' } });
    expect((held.error?.details as { confirmation: { tainted: { argument: string; source: string }[] } }).confirmation.tainted).toContainEqual(expect.objectContaining({ argument: '/to', source: 'mcp:mail/resources/read' }));
    expect(sent(file)).toEqual([]);
    // An address the user gave is not held.
    expect(envelopeOf(await client.callTool({ name: 'send_email', arguments: { to: 'me@home.test', body: 'notes' } })).status).toBe('succeeded');
  });

  it('holds a write to an address a prompt of the session named', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const client = await connect(file);
    const prompt = await client.getPrompt({ name: 'reply_template' });
    expect(JSON.stringify(prompt.messages)).toContain('audit.copy@relay-box.test');
    const held = envelopeOf(await client.callTool({ name: 'send_email', arguments: { to: 'audit.copy@relay-box.test', body: 'reply' } }));
    expect(held).toMatchObject({ status: 'needs_input', error: { code: 'T3.tainted-argument' } });
    expect(sent(file)).toEqual([]);
  });
});
