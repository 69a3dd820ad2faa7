/**
 * Coalescing of stdio writes: the SDK writes each JSON-RPC message with its own `write()`, one
 * syscall each. With several calls in flight, the messages of one event-loop turn are corked and
 * flushed together (one `writev`) at the end of the turn; a lone message waits only until the
 * same turn's `setImmediate`, microseconds. Notifications are never held back.
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
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = ((...args: unknown[]) => {
    if (isNotification(args[0])) {
      // SDK clients handle a notification a microtask after a response read in the same chunk
      // (progress would arrive after its result): notifications leave at once, in their own write.
      if (corked) uncork();
      return write(...args);
    }
    if (!corked && !stream.destroyed) {
      corked = true;
      stream.cork();
      setImmediate(() => {
        if (corked) uncork();
      });
    }
    return write(...args);
  }) as Writable['write'];
}

/** A JSON-RPC notification as the SDK serializes it (any chunk mentioning one is flushed early: harmless). */
function isNotification(chunk: unknown): boolean {
  return typeof chunk === 'string' && chunk.includes('"method":"notifications/');
}
