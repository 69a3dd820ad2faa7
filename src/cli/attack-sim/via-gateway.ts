/**
 * `--via gateway`: the scenario's tools served by the fixture MCP server (a child process over
 * stdio) behind the real gateway (`startSession`), reached by an official SDK client. The run
 * is the gateway session; the client's host declares its scope and the user's prompt in
 * `_meta` on the first call, and confirms a held call by sending back the token the held
 * result carried in its `_meta` (never in the model's text).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Envelope } from '../../contract/index.js';
import { CONFIRM_META_KEY, CONFIRMATION_META_KEY, ENVELOPE_META_KEY, RUN_SCOPE_META_KEY, RUN_USER_TEXT_META_KEY, startSession } from '../../gateway/index.js';
import { createMemoryStore } from '../../store/index.js';
import type { Scenario } from './scenario.js';
import type { Channel } from './simulate.js';
import { scenarioConfig } from './tool-results.js';
import { runScope } from './via-executor.js';

/** argv that starts the fixture server on `file` (from the sources through tsx, or built). */
function fixtureArgv(file: string): string[] {
  const here = fileURLToPath(import.meta.url);
  const fromSources = here.endsWith('.ts');
  const server = join(dirname(here), `fixture-server.${fromSources ? 'ts' : 'js'}`);
  return fromSources ? [process.execPath, '--import', 'tsx', server, file] : [process.execPath, server, file];
}

/**
 * A channel to the scenario's tools through the gateway.
 * @example const channel = await gatewayChannel(scenario); await simulate(scenario, channel);
 */
export async function gatewayChannel(s: Scenario): Promise<Channel> {
  const dir = mkdtempSync(join(tmpdir(), 'trc-attack-sim-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify(s));
  const { config } = scenarioConfig(s, fixtureArgv(file));
  const store = createMemoryStore();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await startSession({ config, store }, serverSide);
  const client = new Client({ name: 'trc-attack-sim', version: '1.0.0' });
  await client.connect(clientSide);
  const tokens = new Map<string, string>();
  const scope = runScope(s.scope);
  let first = true;
  return {
    async call(tool, args, confirmed) {
      const meta: Record<string, unknown> = {};
      if (first) {
        if (scope !== undefined) meta[RUN_SCOPE_META_KEY] = scope;
        meta[RUN_USER_TEXT_META_KEY] = s.user_prompt;
        first = false;
      }
      if (confirmed !== undefined) meta[CONFIRM_META_KEY] = tokens.get(confirmed) ?? confirmed;
      const result = (await client.callTool({ name: tool, arguments: args, _meta: meta })) as { _meta?: Record<string, unknown> };
      const held = result._meta?.[CONFIRMATION_META_KEY] as { request_id?: string; token?: string } | undefined;
      if (typeof held?.request_id === 'string' && typeof held.token === 'string') tokens.set(held.request_id, held.token);
      return result._meta?.[ENVELOPE_META_KEY] as Envelope;
    },
    async close() {
      await client.close().catch(() => undefined);
      await session.close().catch(() => undefined);
      await session.done.catch(() => undefined);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
