import { describe, expect, it } from 'vitest';
import { upstreamListener, type ModernClientLike } from '../../src/gateway/upstream-modern.js';

/** A v2 client whose listen streams are recorded; `refuse` makes the next listen call fail. */
function client() {
  const opened: { filter: Record<string, unknown>; closed: boolean }[] = [];
  let refuse = false;
  const c: ModernClientLike & { opened: typeof opened; refuseNext(): void } = {
    opened,
    refuseNext: () => { refuse = true; },
    getServerCapabilities: () => ({ resources: { subscribe: true, listChanged: true } }),
    listen: async (filter) => {
      if (refuse) { refuse = false; throw Object.assign(new Error('listen refused'), { code: -32603 }); }
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
});
