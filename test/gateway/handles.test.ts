/**
 * Oversized results: a multi-MB file read through server-filesystem comes back fitted, with a
 * resource link whose `resources/read` returns the full content to the same session and is
 * refused to any other (SPEC Z4, Z6).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY, serveHttp, type HttpGateway } from '../../src/gateway/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/index.js';
import { connectHttpV1, connectStdio, eventually, gatewayArgv, SERVERS, tempDir, type SdkGeneration, type TestClient } from './helpers.js';

const dir = tempDir();
const files = tempDir('trc-gw-files-');
const big = join(files, 'big.txt');
const line = 'The quick brown fox jumps over the lazy dog — 0123456789 ✓\n';
const content = line.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(line)));
writeFileSync(big, content);
const bytes = Buffer.byteLength(content);

const open: TestClient[] = [];
let http: HttpGateway | undefined;
let httpStore: Store | undefined;
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  await http?.close();
  await httpStore?.close();
});

function envelope(result: Record<string, unknown>) {
  const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as {
    status: string;
    completeness: { state: string; reason: string; trimmed: { pointer: string; kept: number; total: number }[] };
    resources: { uri: string; bytes: number; sha256: string; mime_type: string }[];
  };
  expect(validate(env).findings.filter((f) => f.severity === 'error')).toEqual([]);
  return env;
}

describe.each(['v1', 'v2'] as const)('a multi-MB file through server-filesystem, SDK client %s', (gen: SdkGeneration) => {
  const store = join(dir, `trc-${gen}.sqlite`);

  it('comes back fitted with a link that the same session reads in full and another session may not read', async () => {
    const a = await connectStdio(gen, gatewayArgv(SERVERS.filesystem(files), ['--store', store]));
    open.push(a);
    await a.listTools();
    const result = await a.callTool('read_text_file', { path: big });
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(400 * 1024);
    const env = envelope(result);
    expect(env.status).toBe('partial');
    expect(env.completeness.state).toBe('truncated');
    expect(env.completeness.trimmed.map((t) => t.pointer)).toContain('/data/content');
    const [ref] = env.resources;
    expect(ref?.bytes).toBe(bytes);
    // The stored file is text, and says so (it was labelled application/json).
    expect(ref?.mime_type).toBe('text/plain; charset=utf-8');
    const links = (result['content'] as { type: string; uri?: string }[]).filter((b) => b.type === 'resource_link');
    expect(links.map((l) => l.uri)).toEqual([ref?.uri]);

    // Read chunk by chunk (1 MiB each, within any client's default message limit), following `next`.
    let text = '';
    let chunksRead = 0;
    for (let uri: string | null = ref?.uri ?? null; uri !== null; chunksRead++) {
      const read = await a.request('resources/read', { uri });
      const chunk = (read['_meta'] as Record<string, { next: string | null; offset: number; total_bytes: number; sha256: string }>)['dev.tool-result-contract/chunk'];
      expect(chunk?.offset).toBe(Buffer.byteLength(text));
      expect(chunk?.total_bytes).toBe(bytes);
      const contents = read['contents'] as { text: string; uri: string }[];
      expect(Buffer.byteLength(JSON.stringify(read))).toBeLessThan(2 * 1024 * 1024);
      text += contents[0]?.text ?? '';
      uri = chunk?.next ?? null;
    }
    expect(chunksRead).toBe(Math.ceil(bytes / (1024 * 1024)));
    expect(text.length).toBe(content.length);
    expect(text === content).toBe(true);

    const b = await connectStdio(gen, gatewayArgv(SERVERS.filesystem(files), ['--store', store]));
    open.push(b);
    await expect(b.request('resources/read', { uri: ref?.uri })).rejects.toThrow(/not available to this session/);
    await expect(b.request('resources/read', { uri: 'trc://resource/forged-handle' })).rejects.toThrow(/not available to this session/);
  });
});

describe('the Streamable HTTP gateway', () => {
  it('binds handles to the MCP session: a second HTTP session is refused', async () => {
    httpStore = await openSqliteStore({ path: join(dir, 'http.sqlite') });
    const [command, ...args] = SERVERS.filesystem(files);
    http = await serveHttp({ store: httpStore, config: { upstreams: [{ name: 'fs', command: command as string, args }] } }, { port: 0 });
    const a = await connectHttpV1(http.url);
    const b = await connectHttpV1(http.url);
    open.push(a, b);
    expect(a.protocolVersion()).toBe('2025-11-25');
    expect(http.sessions.size).toBe(2);
    const result = await a.callTool('read_text_file', { path: big });
    const uri = envelope(result).resources[0]?.uri;
    const read = await a.request('resources/read', { uri });
    // The first 1 MiB chunk, and where the rest is.
    const first = (read['contents'] as { text: string }[])[0]?.text ?? '';
    expect(content.startsWith(first) && first.length > 0).toBe(true);
    expect((read['_meta'] as Record<string, { total_bytes: number; next: string }>)['dev.tool-result-contract/chunk']).toMatchObject({ total_bytes: bytes, next: `${uri}?offset=${Buffer.byteLength(first)}` });
    await expect(b.request('resources/read', { uri })).rejects.toThrow(/not available to this session/);
    // Read calls' records are written behind (within the audit window): wait for this one.
    const store = httpStore;
    await eventually(async () => (await store.listAudit({ tool: 'read_text_file' })).length > 0);
    const audit = await httpStore.listAudit({ tool: 'read_text_file' });
    expect(audit.map((r) => r.principal)).toEqual([`session:${[...http.sessions.keys()].find((id) => audit[0]?.principal.endsWith(id))}`]);
  });
});
