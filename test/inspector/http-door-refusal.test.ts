/**
 * A `tools/call` the HTTP gateway refused at its door (an OAuth token without the tool's scope)
 * explained after the fact. The client got HTTP 403 with a JSON-RPC error body and no tool
 * result; the inspector showed a rendered CallToolResult nobody received, and `diagnose` said
 * the call was "authorized" with no failed layer. Real issuer, real gateway, the official SDK
 * client, the raw HTTP answer compared with what the inspector shows.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/executor/index.js';
import { serveHttp, type HttpGateway } from '../../src/gateway/index.js';
import { viewCall } from '../../src/inspector/index.js';
import { createMemoryStore, type Store } from '../../src/store/index.js';
import { eventually } from '../gateway/helpers.js';
import { startIssuer, type IssuerHandle } from '../helpers/oauth-issuer.js';

const notes = fileURLToPath(new URL('../gateway/fixtures/notes-server.mjs', import.meta.url));
const RESOURCE = 'http://localhost/mcp';

let issuer: IssuerHandle;
let gw: HttpGateway;
let store: Store;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  issuer = await startIssuer();
  store = createMemoryStore();
  gw = await serveHttp({
    config: {
      upstreams: [{ name: 'notes', command: process.execPath, args: [notes], tools: { add_note: { effect: 'write' } } }],
      defaults: { effect: 'read' },
      auth: { issuer: issuer.url, resource: RESOURCE, required_scopes: ['mcp'], write_scope: 'notes:write', jwks_cooldown_seconds: 0 },
    },
    store,
  }, { port: 0 });
});
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
  await gw?.close();
  await issuer?.close();
});

describe('a call refused at the HTTP door', () => {
  it('is shown as the 403 and JSON-RPC error the client got, and diagnosed as failed at the call layer', async () => {
    const token = await issuer.token({ sub: 'reader', aud: RESOURCE, scope: 'mcp' });
    const client = new Client({ name: 'door-test', version: '1' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    open.push(client);
    await expect(client.callTool({ name: 'add_note', arguments: { text: 'x' } })).rejects.toThrow(/needs scope notes:write/u);
    // The same call raw on that session: exactly what a client receives.
    const raw = await fetch(gw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${token}`, 'mcp-session-id': transport.sessionId as string },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'x' } } }),
    });
    const body = (await raw.json()) as { error: { code: number; message: string } };
    expect(raw.status).toBe(403);

    await eventually(async () => (await store.listAudit({ tool: 'add_note' })).length >= 2);
    for (const record of await store.listAudit({ tool: 'add_note' })) {
      const view = await viewCall(store, record.callId);
      expect(view?.model_seen).toEqual({ wire: 'jsonrpc-error', code: body.error.code, message: body.error.message, http_status: 403 });
      const d = await diagnose(record.callId, store);
      expect(d?.failed_layer).toBe('call');
      expect(d?.layers[0]?.findings.join('\n')).toContain('refused before it ran: authorization/INSUFFICIENT_SCOPE');
      expect(d?.layers[0]?.findings.join('\n')).not.toContain('authorized');
    }
  });
});
