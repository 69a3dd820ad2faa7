/**
 * `--via gateway`: every scenario's tools served by one fixture MCP server (a child process over
 * stdio) behind the real gateway (`startSession`), reached by an official SDK client. Tools are
 * listed as `s<N>__<tool>` so one gateway session serves the whole file; each scenario is its
 * own run, named by the run id in `_meta` (the stateless way a gateway keys runs: principal +
 * run id). The client's host declares the run's scope and the user's prompt in `_meta` on the
 * scenario's first call, and confirms a held call by sending back the token the held result
 * carried in its `_meta` (never in the model's text).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Envelope } from '../../contract/index.js';
import type { RunScope } from '../../executor/index.js';
import { CONFIRM_META_KEY, CONFIRMATION_META_KEY, ENVELOPE_META_KEY, RUN_ID_META_KEY, RUN_SCOPE_META_KEY, RUN_USER_TEXT_META_KEY, startSession } from '../../gateway/index.js';
import { createMemoryStore } from '../../store/index.js';
import type { Scenario } from './scenario.js';
import type { Channel, Harness } from './simulate.js';
import { SIM_CALL_META_KEY, suiteConfig, wireName } from './tool-results.js';
import { runScope } from './via-executor.js';

/** argv that starts the fixture server on `file` (from the sources through tsx, or built). */
function fixtureArgv(file: string): string[] {
  const here = fileURLToPath(import.meta.url);
  const fromSources = here.endsWith('.ts');
  const server = join(dirname(here), `fixture-server.${fromSources ? 'ts' : 'js'}`);
  return fromSources ? [process.execPath, '--import', 'tsx', server, file] : [process.execPath, server, file];
}

/** The scope with the tools' names as the gateway lists them. */
function wireScope(scope: RunScope | undefined, n: number): RunScope | undefined {
  if (scope === undefined) return undefined;
  return {
    ...(scope.tools === undefined ? {} : { tools: scope.tools.map((t) => wireName(n, t)) }),
    ...(scope.resources === undefined ? {} : { resources: Object.fromEntries(Object.entries(scope.resources).map(([t, r]) => [wireName(n, t), r])) }),
  };
}

/**
 * One gateway session for all `scenarios`; a channel per scenario.
 * @example const h = await gatewayHarness(scenarios); await simulate(s, h.channel(s)); await h.close();
 */
export async function gatewayHarness(scenarios: readonly Scenario[]): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'trc-attack-sim-'));
  const file = join(dir, 'scenarios.json');
  writeFileSync(file, JSON.stringify(scenarios));
  const store = createMemoryStore();
  let session: Awaited<ReturnType<typeof startSession>> | undefined;
  let client: Client | undefined;
  try {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    session = await startSession({ config: suiteConfig(scenarios, fixtureArgv(file)), store }, serverSide);
    client = new Client({ name: 'trc-attack-sim', version: '1.0.0' });
    await client.connect(clientSide);
  } catch (cause) {
    await session?.close().catch(() => undefined);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    throw cause;
  }
  const connected = client;
  const tokens = new Map<string, string>();
  return {
    channel(s: Scenario): Channel {
      const n = scenarios.indexOf(s);
      const scope = wireScope(runScope(s.scope), n);
      let first = true;
      return {
        async call(tool, args, { index, confirmed }) {
          // The call's number goes to the fixture server, so it answers what that call scripts.
          const meta: Record<string, unknown> = { [RUN_ID_META_KEY]: `sim-${n}`, [SIM_CALL_META_KEY]: index };
          if (first) {
            if (scope !== undefined) meta[RUN_SCOPE_META_KEY] = scope;
            meta[RUN_USER_TEXT_META_KEY] = s.user_prompt;
            first = false;
          }
          if (confirmed !== undefined) meta[CONFIRM_META_KEY] = tokens.get(confirmed) ?? confirmed;
          const result = (await connected.callTool({ name: wireName(n, tool), arguments: args, _meta: meta })) as { _meta?: Record<string, unknown> };
          const held = result._meta?.[CONFIRMATION_META_KEY] as { request_id?: string; token?: string } | undefined;
          if (typeof held?.request_id === 'string' && typeof held.token === 'string') tokens.set(held.request_id, held.token);
          return result._meta?.[ENVELOPE_META_KEY] as Envelope;
        },
        close: async () => undefined,
      };
    },
    async close() {
      await connected.close().catch(() => undefined);
      await session?.close().catch(() => undefined);
      await session?.done.catch(() => undefined);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
