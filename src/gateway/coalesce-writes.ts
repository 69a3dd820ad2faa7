/**
 * Coalescing of stdio writes: the SDK writes each JSON-RPC message with its own `write()`, one
 * syscall each. With several calls in flight, the messages of one event-loop turn are corked and
 * flushed together (one `writev`) at the end of the turn; a lone message waits only until the
 * same turn's `setImmediate`, microseconds.
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
    if (!corked && !stream.destroyed) {
      corked = true;
      stream.cork();
      setImmediate(uncork);
    }
    return write(...args);
  }) as Writable['write'];
}
