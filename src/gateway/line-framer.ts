/**
 * Newline-delimited JSON-RPC framing for stdio, linear in the input. The SDK's `ReadBuffer`
 * concatenates every chunk onto the whole pending buffer, so a line of n bytes read in chunks of
 * c costs n²/c bytes of copying (a 32 MiB upstream line: 7.6 s of CPU). Here a line's chunks are
 * kept as they came and joined once, when its newline arrives, and each chunk is searched for a
 * newline once. A line longer than the limit is refused as soon as the limit is passed — nothing
 * beyond it is buffered — with a clear error.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { asJsonRpcMessage } from './jsonrpc-shape.js';

/** What a framer reports. */
export interface FramerEvents {
  readonly onMessage: (message: JSONRPCMessage) => void;
  /**
   * A line that is not a JSON-RPC message (skipped, as the SDK does): `parse` when it is not
   * JSON, `invalid` when it is JSON but no message; `id` is its id when one could be read.
   */
  readonly onBadLine: (error: Error, bad: BadLine) => void;
  /** A line over the limit: framing stops; the caller decides what to close. */
  readonly onTooLarge: (error: MessageTooLargeError) => void;
}

/** What was wrong with a line that is not a message. */
export interface BadLine {
  readonly kind: 'parse' | 'invalid';
  /** The line's `id`, when it is JSON with a string or number id; null otherwise. */
  readonly id: string | number | null;
  /** It reads as a response (`result` or `error`), which is never answered. */
  readonly response: boolean;
}

/** A message longer than the limit. */
export class MessageTooLargeError extends Error {
  constructor(readonly limit: number, readonly side: string) {
    super(`a message from the ${side} exceeded maximum size: more than ${limit} bytes in one line (the gateway's limit for one stdio message)`);
    this.name = 'MessageTooLargeError';
  }
}

/** A push-style framer: feed it chunks. */
export interface LineFramer {
  push(chunk: Buffer): void;
  /** Bytes held for the line not yet ended. */
  readonly pending: number;
}

/**
 * A framer with a per-message limit (bytes, not counting the newline).
 * @example const f = lineFramer(8 << 20, 'client', { onMessage, onBadLine, onTooLarge }); stdin.on('data', (c) => f.push(c));
 */
export function lineFramer(maxMessageBytes: number, side: string, events: FramerEvents): LineFramer {
  let parts: Buffer[] = [];
  let pending = 0;
  let stopped = false;
  const emit = (line: Buffer) => {
    // A CR before the newline is allowed, as the SDK allows it.
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    const text = line.toString('utf8', 0, end);
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      events.onBadLine(error as Error, { kind: 'parse', id: null, response: false });
      return;
    }
    // The SDK's Protocol checks the message against its schemas once more before dispatching it.
    const message: JSONRPCMessage | null = asJsonRpcMessage(parsed);
    if (message !== null) return events.onMessage(message);
    const o = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    const id = o['id'];
    const what = Array.isArray(parsed) ? 'a batch (an array), which MCP does not use' : `not a JSON-RPC 2.0 message (request, notification, result or error), ${text.length} characters`;
    events.onBadLine(new Error(what), { kind: 'invalid', id: typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null, response: 'result' in o || 'error' in o });
  };
  const tooLarge = () => {
    stopped = true;
    parts = [];
    pending = 0;
    events.onTooLarge(new MessageTooLargeError(maxMessageBytes, side));
  };
  return {
    get pending() {
      return pending;
    },
    push(chunk: Buffer) {
      if (stopped) return;
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        if (pending + (nl - start) > maxMessageBytes) return tooLarge();
        const piece = chunk.subarray(start, nl);
        const line = parts.length === 0 ? piece : Buffer.concat([...parts, piece], pending + piece.length);
        parts = [];
        pending = 0;
        start = nl + 1;
        emit(line);
        if (stopped) return;
      }
      if (start >= chunk.length) return;
      const rest = chunk.subarray(start);
      if (pending + rest.length > maxMessageBytes) return tooLarge();
      // Copied, so the stream's (possibly pooled) chunk buffer can be reused.
      parts.push(Buffer.from(rest));
      pending += rest.length;
    },
  };
}
