/**
 * The gateway's own stdio transports — the client-facing one over the gateway's stdin/stdout and
 * the upstream one over a spawned server's pipes — framed by {@link lineFramer} (linear time,
 * one limit per message, a clear error) instead of the SDK's quadratic `ReadBuffer`. They
 * implement the SDK's `Transport` interface, so the SDK's `Server` and `Client` run on them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { lineFramer, type MessageTooLargeError } from './line-framer.js';

/** Largest message accepted from a client over stdio. */
export const MAX_CLIENT_MESSAGE_BYTES = 8 * 1024 * 1024;
/** Largest message accepted from a stdio upstream (results above the budget are stored, not shown). */
export const MAX_UPSTREAM_MESSAGE_BYTES = 128 * 1024 * 1024;

/** Grace periods of closing an upstream: stdin closed, then SIGTERM, then SIGKILL. */
const CLOSE_GRACE_MS = 2000;

type Handlers = Pick<Transport, 'onmessage' | 'onerror' | 'onclose'>;

/** The transports of this module: every message they deliver passed {@link lineFramer}'s shape check. */
const checkedTransports = new WeakSet<Transport>();

/** The SDK Protocol's dispatch targets (TypeScript-private in the SDK's v1 `Protocol`). */
interface ProtocolDispatch {
  _onresponse(message: JSONRPCMessage): void;
  _onrequest(message: JSONRPCMessage, extra?: unknown): void;
  _onnotification(message: JSONRPCMessage): void;
}

/**
 * Hand the messages of one of this module's transports straight to `protocol` (an SDK `Server`
 * or `Client` that `connect`ed to it), by kind. The SDK's `Protocol` wraps `onmessage` with up to
 * four Zod checks per message (result? error? request? notification?) before it dispatches —
 * ~15–20 µs of a stdio `tools/call`'s CPU across its two incoming messages — and these messages
 * already passed the same schema's verdict in the framer ({@link asJsonRpcMessage}, held to
 * `JSONRPCMessageSchema` by a property test), which makes the four kinds disjoint: a message with
 * `method` is a request when it has `id`, else a notification; one without is a response.
 * `before` is the handler the transport had before `connect`, which the SDK calls first.
 * Returns false, changing nothing, for another transport or an SDK without those methods (the
 * SDK's own dispatch then stays). test/gateway/direct-dispatch.test.ts pins the SDK's wrapper this replaces.
 * @example await client.connect(transport); dispatchDirectly(client, transport, before);
 */
export function dispatchDirectly(protocol: object, transport: Transport, before?: (message: JSONRPCMessage) => void): boolean {
  const p = protocol as Partial<ProtocolDispatch>;
  const { _onresponse: response, _onrequest: request, _onnotification: notification } = p;
  if (!checkedTransports.has(transport) || transport.onmessage === undefined) return false;
  if (typeof response !== 'function' || typeof request !== 'function' || typeof notification !== 'function') return false;
  transport.onmessage = (message, extra) => {
    before?.(message);
    if (!('method' in message)) response.call(protocol, message);
    else if ('id' in message) request.call(protocol, message, extra);
    else notification.call(protocol, message);
  };
  return true;
}

// A send that finds the pipe full waits for its own write's callback, not for 'drain': a burst
// of answers to a slow reader added a 'drain' listener each (2,000 calls at once: "11 drain
// listeners added to [Socket]" on stderr). A pipe destroyed with writes still buffered never
// calls them back, so one 'close' listener per pipe fails whatever is still waiting (before,
// those sends never settled).
const waitingOn = new WeakMap<Writable, Set<(error: Error) => void>>();

/**
 * A message that could not be serialized (nested too deeply, a BigInt): nothing was written, so
 * the request provably never left.
 */
export class MessageNotSentError extends Error {
  constructor(cause: unknown) {
    super(`the message could not be serialized, so it was not sent: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'MessageNotSentError';
  }
}

function write(out: Writable, message: JSONRPCMessage): Promise<void> {
  let line: string;
  try {
    line = JSON.stringify(message) + '\n';
  } catch (cause) {
    return Promise.reject(new MessageNotSentError(cause));
  }
  return new Promise((resolve, reject) => {
    let waiting: Set<(error: Error) => void> | undefined;
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const ok = out.write(line, (error) => {
      waiting?.delete(fail);
      if (error) fail(error);
      else if (!settled) { settled = true; resolve(); }
    });
    if (ok) { settled = true; resolve(); return; }
    waiting = waitingOn.get(out);
    if (waiting === undefined) {
      const all = new Set<(error: Error) => void>();
      waiting = all;
      waitingOn.set(out, all);
      out.once('close', () => {
        waitingOn.delete(out);
        for (const f of all) f(new Error('the pipe closed before the message was written'));
        all.clear();
      });
    }
    waiting.add(fail);
  });
}

/**
 * A transport over a readable and a writable of newline-delimited JSON-RPC (the client side of
 * `trc gateway` over stdio). A message over `maxMessageBytes` calls `onTooLarge` once and stops
 * reading.
 * @example await server.connect(lineTransport(process.stdin, process.stdout, { maxMessageBytes, side: 'client', onTooLarge }));
 */
export function lineTransport(input: Readable, output: Writable, options: { maxMessageBytes: number; side: string; onTooLarge?: (error: MessageTooLargeError) => void }): Transport {
  let closed = false;
  const t: Transport & Handlers = {
    async start() {
      const framer = lineFramer(options.maxMessageBytes, options.side, {
        onMessage: (m) => t.onmessage?.(m),
        onBadLine: (e, bad) => {
          t.onerror?.(e);
          // JSON-RPC 2.0 §5: the sender gets an error, not silence (a client waiting on that id
          // would hang); over HTTP the same line is answered 400 with the same codes.
          const error = bad.kind === 'parse' ? { code: -32700, message: `Parse error: ${e.message}` } : { code: -32600, message: `Invalid Request: ${e.message}` };
          if (!closed && !bad.response) write(output, { jsonrpc: '2.0', id: bad.id, error } as unknown as JSONRPCMessage).catch(() => undefined);
        },
        onTooLarge: (e) => {
          input.off('data', onData);
          t.onerror?.(e);
          options.onTooLarge?.(e);
        },
      });
      const onData = (chunk: Buffer) => framer.push(chunk);
      input.on('data', onData);
      input.once('error', (e: Error) => t.onerror?.(e));
    },
    async send(message) {
      if (closed) throw new Error('Not connected');
      await write(output, message);
    },
    async close() {
      if (closed) return;
      closed = true;
      input.pause();
      t.onclose?.();
    },
  };
  checkedTransports.add(t);
  return t;
}

/** Upstreams get a process group of their own where there are groups. */
const GROUPS = process.platform !== 'win32';

/**
 * Send `sig` to the upstream's process group (its pid leads it), or to the process alone where
 * there are no groups; `groupOnly`: only the group's other members are meant, and only groups
 * can reach them. A group already gone is no error.
 */
function signal(proc: ChildProcess, sig: NodeJS.Signals, groupOnly = false): void {
  const pid = proc.pid;
  if (pid === undefined) return;
  try {
    if (GROUPS) process.kill(-pid, sig);
    else if (!groupOnly) proc.kill(sig);
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

/** The upstream side: a spawned server, its stderr and its stdin (for write coalescing). */
export interface SpawnedTransport extends Transport {
  readonly stderr: Readable | null;
  readonly stdin: Writable | null;
  readonly pid: number | null;
}

/**
 * Spawn `command` and speak newline-delimited JSON-RPC over its stdin/stdout. A message over
 * `maxMessageBytes` ends the connection with an error that says so (the calls in flight are
 * answered as a closed connection, with that reason).
 * @example const t = spawnTransport({ command: 'node', args: ['server.js'], env, maxMessageBytes: MAX_UPSTREAM_MESSAGE_BYTES });
 */
export function spawnTransport(options: { command: string; args: readonly string[]; env: Record<string, string>; cwd?: string; maxMessageBytes: number }): SpawnedTransport {
  let child: ChildProcess | null = null;
  let closed = false;
  let exited: Promise<void> = Promise.resolve();
  const child$ = () => child;
  // Readable before the process exists, so a caller can listen from the start (as with the SDK's).
  const stderr = new PassThrough();
  const t: SpawnedTransport & Handlers = {
    stderr,
    get stdin() {
      return child$()?.stdin ?? null;
    },
    get pid() {
      return child$()?.pid ?? null;
    },
    start() {
      return new Promise<void>((resolve, reject) => {
        // Its own process group (POSIX): a launcher (`sh -c`, a wrapper script) whose child outlives
        // it is ended with it; killing only the launcher left the server orphaned, holding the pipes.
        const proc = spawn(options.command, [...options.args], { env: options.env, stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true, detached: GROUPS, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
        child = proc;
        proc.stderr?.pipe(stderr);
        // 'exit', not 'close': 'close' waits for every holder of the pipes, a grandchild included.
        exited = new Promise((r) => proc.once('exit', () => r()));
        const framer = lineFramer(options.maxMessageBytes, 'upstream', {
          onMessage: (m) => t.onmessage?.(m),
          onBadLine: (e) => t.onerror?.(e),
          onTooLarge: (e) => {
            t.onerror?.(e);
            void t.close();
          },
        });
        proc.stdout?.on('data', (chunk: Buffer) => framer.push(chunk));
        proc.once('error', (error) => {
          if (!closed) reject(error);
          t.onerror?.(error);
        });
        proc.once('spawn', () => resolve());
        proc.once('close', () => {
          if (closed) return;
          closed = true;
          t.onclose?.();
        });
        proc.stdin?.on('error', (e) => t.onerror?.(e));
      });
    },
    async send(message) {
      const stdin = child?.stdin;
      if (closed || stdin === null || stdin === undefined) throw new Error('Not connected');
      await write(stdin, message);
    },
    async close() {
      const proc = child;
      if (!closed) {
        closed = true;
        t.onclose?.();
      }
      if (proc === null) return;
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.stdin?.end();
        const gone = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
        if (!(await gone(CLOSE_GRACE_MS))) {
          signal(proc, 'SIGTERM');
          if (!(await gone(CLOSE_GRACE_MS))) signal(proc, 'SIGKILL');
        }
      }
      // Whatever the server left in its group (a child of a launcher) goes with it.
      signal(proc, 'SIGKILL', true);
      proc.stdout?.destroy();
      proc.stderr?.destroy();
    },
  };
  checkedTransports.add(t);
  return t;
}
