import { describe, expect, it } from 'vitest';
import { upstreamListener, type ModernClientLike } from '../../src/gateway/upstream-modern.js';

/** A v2 client whose listen streams are recorded; `refuse` makes the next listen call fail. */
function client() {
  const opened: { filter: Record<string, unknown>; closed: boolean }[] = [];
  let refuse = false;
  let hold: Promise<void> | undefined;
  const c: ModernClientLike & { opened: typeof opened; refuseNext(): void; holdNext(): () => void } = {
    opened,
    refuseNext: () => { refuse = true; },
    // The next listen is acknowledged only when the returned function is called.
    holdNext: () => {
      let release = () => undefined as void;
      hold = new Promise<void>((resolve) => { release = resolve; });
      return release;
    },
    getServerCapabilities: () => ({ resources: { subscribe: true, listChanged: true } }),
    listen: async (filter) => {
      if (refuse) { refuse = false; throw Object.assign(new Error('listen refused'), { code: -32603 }); }
      const wait = hold;
      hold = undefined;
      if (wait !== undefined) await wait;
      const stream = { filter, closed: false };
      opened.push(stream);
      return { close: async () => { stream.closed = true; } };
    },
  };
  return c;
}
const subscribed = (f: Record<string, unknown>) => (f['resourceSubscriptions'] as string[] | undefined) ?? [];

describe("the gateway's listen stream to a 2026 upstream", () => {
  it('forgets a subscription whose stream the upstream refused', async () => {
    const c = client();
    const l = upstreamListener(c, () => undefined);
    await l.start();
    await l.subscribe('file:///a');
    c.refuseNext();
    await expect(l.subscribe('file:///b')).rejects.toThrow('listen refused');
    await l.subscribe('file:///c');
    const last = c.opened.at(-1)!;
    expect(subscribed(last.filter)).toEqual(['file:///a', 'file:///c']);
    // The stream that stayed open after the refusal still named only a.
    expect(subscribed(c.opened.at(-2)!.filter)).toEqual(['file:///a']);
    expect(c.opened.filter((s) => !s.closed)).toHaveLength(1);
    await l.close();
  });

  it('keeps a subscription whose unsubscribe the upstream refused', async () => {
    const c = client();
    const l = upstreamListener(c, () => undefined);
    await l.start();
    await l.subscribe('file:///a');
    await l.subscribe('file:///b');
    c.refuseNext();
    await expect(l.unsubscribe('file:///a')).rejects.toThrow('listen refused');
    await l.unsubscribe('file:///b');
    expect(subscribed(c.opened.at(-1)!.filter)).toEqual(['file:///a']);
    await l.close();
    expect(c.opened.every((s) => s.closed)).toBe(true);
  });

  it('does not wait for an acknowledgement that never comes, and keeps changes in order behind it', async () => {
    const c = client();
    const release = c.holdNext();
    const l = upstreamListener(c, () => undefined, 20);
    await l.start(); // returns after 20 ms, the first stream still unacknowledged
    expect(c.opened).toHaveLength(0);
    let subscribed_ = false;
    const sub = l.subscribe('file:///a').then(() => { subscribed_ = true; });
    await new Promise((r) => setTimeout(r, 30));
    expect(subscribed_).toBe(false);
    release();
    await sub;
    expect(c.opened.map((s) => subscribed(s.filter))).toEqual([[], ['file:///a']]);
    expect(c.opened.filter((s) => !s.closed)).toHaveLength(1);
    await l.close();
  });

  it('closes without waiting for a stream still unacknowledged, and closes that stream when it comes', async () => {
    const c = client();
    const release = c.holdNext();
    const l = upstreamListener(c, () => undefined, 20);
    await l.start();
    await l.close();
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(c.opened).toHaveLength(1);
    expect(c.opened[0]!.closed).toBe(true);
  });
});
