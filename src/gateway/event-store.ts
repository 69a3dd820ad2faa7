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
/**
 * Characters of JSON kept per session by default (16 Mi): a session of large results (the
 * envelope of each, up to the model budget and more) must not pin hundreds of megabytes.
 */
export const EVENT_WINDOW_CHARS = 16 * 1024 * 1024;

interface Stored {
  readonly seq: number;
  readonly streamId: string;
  /** The message as JSON: smaller than its object graph, and what bounds the window. */
  readonly json: string;
}

/**
 * An in-memory {@link EventStore} holding the last `window` events of one session, and no more
 * than `maxChars` characters of their JSON (the newest event is always kept). Event ids are
 * `<seq>.<streamId>`: the sequence finds the event in O(1), the stream id says where it belongs
 * even after the event itself left the window.
 * @example new StreamableHTTPServerTransport({ sessionIdGenerator, eventStore: new WindowEventStore(), retryInterval: 1000 })
 */
export class WindowEventStore implements EventStore {
  private events: (Stored | undefined)[] = [];
  /** Index of the oldest event kept. */
  private head = 0;
  private chars = 0;
  private next = 0;
  constructor(
    private readonly window: number = EVENT_WINDOW,
    private readonly maxChars: number = EVENT_WINDOW_CHARS,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.next++;
    const json = JSON.stringify(message);
    this.events.push({ seq, streamId, json });
    this.chars += json.length;
    while (this.events.length - this.head > 1 && (this.events.length - this.head > this.window || this.chars > this.maxChars)) {
      this.chars -= (this.events[this.head] as Stored).json.length;
      this.events[this.head++] = undefined;
    }
    // Dropped slots are cut off in one go once they are half the array: O(1) amortized.
    if (this.head > 64 && 2 * this.head > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return `${seq}.${streamId}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return parse(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = parse(lastEventId);
    if (at === undefined) throw new Error(`unknown event id "${lastEventId}"`);
    const first = this.events[this.head]?.seq ?? this.next;
    // The events after `at` that are still kept; the priming events (empty messages) are not resent.
    // A copy: events stored while this replay awaits its sends may move the array.
    const kept = this.events.slice(this.head + Math.max(0, at.seq + 1 - first)) as Stored[];
    for (const e of kept) {
      if (e.streamId === at.streamId && e.json !== '{}') await send(`${e.seq}.${e.streamId}`, JSON.parse(e.json) as JSONRPCMessage);
    }
    return at.streamId;
  }

  /** Events and JSON characters kept now. */
  stats(): { events: number; chars: number } {
    return { events: this.events.length - this.head, chars: this.chars };
  }
}

function parse(eventId: string): { seq: number; streamId: string } | undefined {
  const dot = eventId.indexOf('.');
  const seq = Number(eventId.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { seq, streamId: eventId.slice(dot + 1) };
}
