/**
 * `trc_follow` over a large stored result: windows join back to the stored text exactly, never
 * split a character, and each reads only its own bytes from the store — it read (and decoded)
 * the whole stored result for every window, ~200 ms and ~400 MB of RSS per window of 30 MB.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/budget/index.js';
import { createExecutor, followLinkTool } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { countingReads } from '../store/store-helpers.js';

describe('trc_follow on a stored text', () => {
  it('reads it back window by window, byte for byte, reading only each window from the store', async () => {
    const base = createMemoryStore({ chunkBytes: 4096 });
    // 1-, 2-, 3- and 4-byte characters, so window edges fall inside characters and surrogate pairs.
    const text = 'a é 中 😀\n'.repeat(40_000);
    const bytes = Buffer.byteLength(text);
    const env = await fit({ text }, { maxBytes: 4096 }, { store: base, principal: 'alice', tool: 'doc_get', raw: text });
    const uri = env.resources?.[0]?.uri ?? '';
    const { store, read } = countingReads(base);
    const executor = createExecutor({ tools: [followLinkTool(store)], store });

    let joined = '';
    let windows = 0;
    for (let offset: number | null = 0; offset !== null; windows++) {
      const answer = await executor.call({ call_id: `f${windows}`, tool_name: 'trc_follow', args: { ref: uri, offset } }, { id: 'alice' });
      const data = answer.data as { offset: number; next_offset: number | null; total_bytes: number; text: string };
      expect(data.offset).toBe(Buffer.byteLength(joined));
      expect(data.total_bytes).toBe(bytes);
      expect(data.text.includes('\uFFFD')).toBe(false);
      expect(answer.completeness?.state).toBe(data.next_offset === null ? 'complete' : 'partial');
      joined += data.text;
      offset = data.next_offset;
    }
    expect(joined === text).toBe(true);
    expect(windows).toBeGreaterThan(50);
    // A window is at most 16 KB of text plus the two stored chunks it starts and ends in.
    expect(read()).toBeLessThanOrEqual(windows * (16 * 1024 + 2 * 4096));

    const bob = await executor.call({ call_id: 'fb', tool_name: 'trc_follow', args: { ref: uri, offset: 0 } }, { id: 'bob' });
    expect(bob.error?.code).toBe('REFERENCE_NOT_AVAILABLE');
  });

  it('following completeness.next reaches every item of a long list once, however the budget cuts each page', async () => {
    const store = createMemoryStore();
    // ~560 bytes an item: a page of 100 is more than the default 8,000 tokens, so each is cut again.
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, body: 'lorem ipsum dolor sit amet '.repeat(20) }));
    const first = await fit(rows, { maxItems: 10 }, { store, principal: 'alice', tool: 'search' });
    const executor = createExecutor({ tools: [followLinkTool(store)], store });
    const seen = (first.data as { id: number }[]).map((r) => r.id);
    let cursor = first.completeness?.next?.value ?? null;
    let cut = 0;
    for (let i = 0; cursor !== null; i++) {
      const answer = await executor.call({ call_id: `p${i}`, tool_name: 'trc_follow', args: { ref: cursor, offset: null } }, { id: 'alice' });
      if ((answer.completeness?.trimmed ?? []).length > 0) cut++;
      seen.push(...(answer.data as { id: number }[]).map((r) => r.id));
      cursor = answer.completeness?.next?.value ?? null;
    }
    expect(cut).toBeGreaterThan(0);
    expect(seen).toEqual(rows.map((r) => r.id));
  });
});
