/**
 * Coalescing of stdio writes: the SDK writes each JSON-RPC message with its own `write()`, one
 * syscall each. With several calls in flight, the first message of an event-loop turn leaves at
 * once and the turn's later ones are corked and flushed together (one `writev`) at its end; a
 * lone message waits for nothing. Notifications are never held back.
 */
import type { Writable } from 'node:stream';

const patched = new WeakSet<Writable>();

/**
 * Make `stream` batch the writes of one event-loop turn. Idempotent.
 * @example coalesceWrites(process.stdout); await server.connect(new StdioServerTransport(process.stdin, process.stdout));
 */
export function coalesceWrites(stream: Writable): void {
  if (patched.has(stream)) return;
  patched.add(stream);
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  // Whether this event-loop turn wrote already, and whether writes are held for its end.
  let wrote = false;
  let corked = false;
  const endOfTurn = () => {
    wrote = false;
    if (corked) {
      corked = false;
      stream.uncork();
    }
  };
  stream.write = ((...args: unknown[]) => {
    if (isNotification(args[0])) {
      // SDK clients handle a notification a microtask after a response read in the same chunk
      // (progress would arrive after its result): notifications leave at once, in their own write.
      if (corked) {
        corked = false;
        stream.uncork();
      }
      return write(...args);
    }
    if (!wrote) {
      // The turn's first message leaves at once: a lone call (the sequential case) waits for
      // nothing, and the peer starts on it while this turn finishes its other work.
      wrote = true;
      setImmediate(endOfTurn);
    } else if (!corked && !stream.destroyed) {
      corked = true;
      stream.cork();
    }
    return write(...args);
  }) as Writable['write'];
}

/** A JSON-RPC notification as the SDK serializes it (any chunk mentioning one is flushed early: harmless). */
function isNotification(chunk: unknown): boolean {
  return typeof chunk === 'string' && chunk.includes('"method":"notifications/');
}
