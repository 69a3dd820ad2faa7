// Reference-counted upstream subscriptions for 2026-07-28 listen streams, and the body watcher
// that releases them when a stream ends.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listenSubscriptions, whenBodyEnds } from '../../src/gateway/listen-subscriptions.js';

function recorder(refuse: ReadonlySet<string> = new Set()) {
  const log: string[] = [];
  const subs = listenSubscriptions(
    async (uri) => (log.push(`+${uri}`), !refuse.has(uri)),
    async (uri) => void log.push(`-${uri}`),
  );
  return { log, subs };
}

describe('listen subscriptions', () => {
  it('subscribes a URI for its first stream and unsubscribes it after its last', async () => {
    const { log, subs } = recorder();
    const first = await subs.acquire(['note://a', 'note://b']);
    const second = await subs.acquire(['note://a']);
    expect(log).toEqual(['+note://a', '+note://b']);
    first();
    expect(log).toEqual(['+note://a', '+note://b', '-note://b']);
    second();
    second();
    expect(log).toEqual(['+note://a', '+note://b', '-note://b', '-note://a']);
    expect(subs.held().size).toBe(0);
  });

  it('holds nothing for a URI the upstream refused, and never unsubscribes it', async () => {
    const { log, subs } = recorder(new Set(['note://x']));
    const release = await subs.acquire(['note://x', 'note://x']);
    expect(subs.held().has('note://x')).toBe(false);
    release();
    expect(log).toEqual(['+note://x']);
  });

  it('ends with nothing held and every subscribe matched by one unsubscribe, in any order of streams', async () => {
    const uris = fc.constantFrom('a', 'b', 'c');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(uris, { maxLength: 3 }), { maxLength: 8 }), fc.infiniteStream(fc.nat()), async (streams, picks) => {
        const { log, subs } = recorder();
        const open = [];
        for (const s of streams) open.push(await subs.acquire(s));
        const it = picks[Symbol.iterator]();
        while (open.length > 0) open.splice(it.next().value % open.length, 1)[0]?.();
        expect(subs.held().size).toBe(0);
        for (const u of ['a', 'b', 'c']) expect(log.filter((l) => l === `+${u}`).length).toBe(log.filter((l) => l === `-${u}`).length);
      }),
    );
  });
});

describe('whenBodyEnds', () => {
  const sse = () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('data: 1\n\n')); } }), { headers: { 'content-type': 'text/event-stream' } });

  it('runs once when the reader cancels the stream (a client that went away)', async () => {
    let n = 0;
    const watched = whenBodyEnds(sse(), () => n++);
    const reader = watched.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    await reader.cancel();
    await reader.cancel().catch(() => undefined);
    expect(n).toBe(1);
    expect(watched.headers.get('content-type')).toBe('text/event-stream');
  });

  it('runs when the body ends, and at once for a response without a body', async () => {
    let n = 0;
    await whenBodyEnds(new Response('done'), () => n++).text();
    whenBodyEnds(new Response(null, { status: 202 }), () => n++);
    expect(n).toBe(2);
  });
});
