/**
 * Test helpers for the gateway: paths of the real MCP servers from npm, the gateway command
 * line (run from the TypeScript sources through tsx), and clients of both SDK generations.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { afterAll } from 'vitest';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import type { Envelope } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = (name: string) => join(root, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');

/** Commands (argv) that start the real servers from npm. */
export const SERVERS = {
  everything: [process.execPath, pkg('server-everything'), 'stdio'],
  memory: [process.execPath, pkg('server-memory')],
  filesystem: (dir: string) => [process.execPath, pkg('server-filesystem'), dir],
  sequential: [process.execPath, pkg('server-sequential-thinking')],
  faulty: [process.execPath, fileURLToPath(new URL('./fixtures/faulty-server.mjs', import.meta.url))],
} as const;

/** A fresh temporary directory. */
export function tempDir(prefix = 'trc-gw-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** argv that runs `trc gateway [flags] -- upstream...` from the sources. */
export function gatewayArgv(upstream: readonly string[], flags: readonly string[]): string[] {
  return [process.execPath, '--import', 'tsx', join(root, 'src/cli/bin.ts'), 'gateway', ...flags, '--', ...upstream];
}

/** Both SDK generations, behind one small interface the tests use. */
export type SdkGeneration = 'v1' | 'v2';

/** What the tests need of a connected client, whichever generation. */
export interface TestClient {
  readonly generation: SdkGeneration;
  request(method: string, params?: Record<string, unknown>, options?: { signal?: AbortSignal; timeout?: number; onprogress?: (p: unknown) => void }): Promise<Record<string, unknown>>;
  /** The SDK's own `callTool` (which validates structured content against the output schema). */
  callTool(name: string, args?: Record<string, unknown>, options?: { timeout?: number; signal?: AbortSignal }): Promise<Record<string, unknown>>;
  /** The SDK's own `listTools` (it caches output schemas for `callTool`). */
  listTools(): Promise<Record<string, unknown>>;
  /** The protocol version the client negotiated. */
  protocolVersion(): string | undefined;
  serverName(): string | undefined;
  /** The server's `instructions` from initialize. */
  instructions(): string | undefined;
  /** PID of the spawned process (stdio). */
  pid(): number | null;
  close(): Promise<void>;
}

const env = (extra: Record<string, string> = {}): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return { ...out, ...extra };
};

/**
 * Spawn `argv` and connect a client of the given generation over stdio.
 * @example const c = await connectStdio('v1', gatewayArgv(SERVERS.memory, ['--store', db]));
 */
export async function connectStdio(generation: SdkGeneration, argv: readonly string[], options: { capabilities?: ClientCapabilities; env?: Record<string, string> } = {}): Promise<TestClient> {
  const [command, ...args] = argv as [string, ...string[]];
  const capabilities = options.capabilities ?? {};
  if (generation === 'v1') {
    const transport = new StdioV1({ command, args, env: env(options.env), stderr: 'pipe' });
    const client = new ClientV1({ name: 'trc-test-v1', version: '1.0.0' }, { capabilities });
    const seen = captureVersion(transport);
    await client.connect(transport);
    return wrapV1(client, () => transport.pid, seen);
  }
  const transport = new StdioV2({ command, args, env: env(options.env), stderr: 'pipe' });
  const client = new ClientV2({ name: 'trc-test-v2', version: '2.0.0' }, { capabilities: capabilities as never });
  await client.connect(transport);
  return {
    generation: 'v2',
    request: async (method, params, opts) =>
      (await client.request({ method, ...(params === undefined ? {} : { params }) } as never, {
        ...(opts?.signal ? { signal: opts.signal } : {}),
        ...(opts?.timeout ? { timeout: opts.timeout } : {}),
        ...(opts?.onprogress ? { onprogress: opts.onprogress } : {}),
      } as never)) as Record<string, unknown>,
    callTool: async (name, args, opts) => (await client.callTool({ name, arguments: args ?? {} }, opts as never)) as Record<string, unknown>,
    listTools: async () => (await client.listTools()) as unknown as Record<string, unknown>,
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    serverName: () => client.getServerVersion()?.name,
    instructions: () => client.getInstructions(),
    pid: () => transport.pid,
    close: () => client.close(),
  };
}

/** Connect a v1 client to a Streamable HTTP endpoint. */
export async function connectHttpV1(url: string): Promise<TestClient> {
  const transport = new HttpV1(new URL(url));
  const client = new ClientV1({ name: 'trc-test-http', version: '1.0.0' }, { capabilities: {} });
  const seen = captureVersion(transport);
  await client.connect(transport);
  return wrapV1(client, () => null, seen);
}

/** The v1 client keeps the negotiated version private; read it off the initialize answer. */
function captureVersion(transport: { onmessage?: ((m: never) => void) | undefined }): { version?: string } {
  const seen: { version?: string } = {};
  transport.onmessage = ((message: { result?: { protocolVersion?: unknown } }) => {
    const v = message.result?.protocolVersion;
    if (seen.version === undefined && typeof v === 'string') seen.version = v;
  }) as never;
  return seen;
}

function wrapV1(client: ClientV1, pid: () => number | null, seen: { version?: string }): TestClient {
  return {
    generation: 'v1',
    request: async (method, params, opts) => {
      const { ResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
      return (await client.request({ method, ...(params === undefined ? {} : { params }) }, ResultSchema, {
        ...(opts?.signal ? { signal: opts.signal } : {}),
        ...(opts?.timeout ? { timeout: opts.timeout } : {}),
        ...(opts?.onprogress ? { onprogress: opts.onprogress as never } : {}),
      })) as Record<string, unknown>;
    },
    callTool: async (name, args, opts) => (await client.callTool({ name, arguments: args ?? {} }, undefined, opts)) as Record<string, unknown>,
    listTools: async () => (await client.listTools()) as unknown as Record<string, unknown>,
    protocolVersion: () => seen.version,
    serverName: () => client.getServerVersion()?.name,
    instructions: () => client.getInstructions(),
    pid,
    close: () => client.close(),
  };
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Wait until `check` holds (polling), or fail after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met within ${ms} ms`);
}

/** Every page of a paginated listing (`tools/list`, `resources/list`, …), page by page. */
export async function pages(c: TestClient, method: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await c.request(method, cursor === undefined ? {} : { cursor });
    out.push(page);
    cursor = page['nextCursor'] as string | undefined;
  } while (cursor !== undefined);
  return out;
}

/** The envelope a gateway put under `_meta` of a tools/call result. */
export const envelopeOf = (result: Record<string, unknown>): Envelope => (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as Envelope;

/**
 * Things a test file opens (clients, processes, servers), closed after all its tests.
 * @example const open = closedAfterAll(); open.push(client);
 */
export function closedAfterAll(): { close(): Promise<void> }[] {
  const open: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const o of open) await o.close().catch(() => undefined);
  });
  return open;
}
