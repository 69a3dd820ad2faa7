/**
 * Resumability for the gateway's Streamable HTTP sessions: every SSE event the SDK transport
 * sends is kept (a bounded window per session) so that a client whose stream broke can
 * reconnect with `Last-Event-ID` and get what it missed, on the same stream. The SDK also
 * sends a priming event (an id, no data, and the `retry` interval) first on each stream of a
 * 2025-11-25 client, so even a stream that breaks before its first message can be resumed.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events kept per session by default: older ones can no longer be replayed. */
export const EVENT_WINDOW = 1000;

interface Stored {
  readonly seq: number;
  readonly streamId: string;
  readonly message: JSONRPCMessage;
}

/**
 * An in-memory {@link EventStore} holding at least the last `window` events of one session. Event ids
 * are `<seq>.<streamId>`: the sequence finds the event in O(1), the stream id says where it
 * belongs even after the event itself left the window.
 * @example new StreamableHTTPServerTransport({ sessionIdGenerator, eventStore: new WindowEventStore(), retryInterval: 1000 })
 */
export class WindowEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private next = 0;
  constructor(private readonly window: number = EVENT_WINDOW) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.next++;
    this.events.push({ seq, streamId, message });
    // Trimmed in halves, so storing stays O(1) amortized.
    if (this.events.length >= 2 * this.window) this.events.splice(0, this.events.length - this.window);
    return `${seq}.${streamId}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return parse(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = parse(lastEventId);
    if (at === undefined) throw new Error(`unknown event id "${lastEventId}"`);
    const first = this.events[0]?.seq ?? this.next;
    // The events after `at` that are still kept; the priming events (empty messages) are not resent.
    for (let i = Math.max(0, at.seq + 1 - first); i < this.events.length; i++) {
      const e = this.events[i] as Stored;
      if (e.streamId === at.streamId && Object.keys(e.message).length > 0) await send(`${e.seq}.${e.streamId}`, e.message);
    }
    return at.streamId;
  }
}

function parse(eventId: string): { seq: number; streamId: string } | undefined {
  const dot = eventId.indexOf('.');
  const seq = Number(eventId.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { seq, streamId: eventId.slice(dot + 1) };
}
