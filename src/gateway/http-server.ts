/**
 * The gateway over Streamable HTTP: one endpoint (`/mcp`), one gateway session (and one set of
 * upstream connections) per MCP session id. A session's principal is bound to its id, so a
 * handle minted in one session is refused in every other.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { startSession, type GatewaySession } from './session.js';
import type { GatewayOptions } from './session-state.js';

/** A running HTTP gateway. */
export interface HttpGateway {
  readonly url: string;
  readonly port: number;
  /** Live sessions by MCP session id. */
  readonly sessions: ReadonlyMap<string, GatewaySession>;
  close(): Promise<void>;
}

const MAX_BODY = 4 * 1024 * 1024;

/**
 * Listen on `port` (0 = any free port) on `host` (default 127.0.0.1).
 * @example const gw = await serveHttp({ config, store }, { port: 8080 }); // clients connect to gw.url
 */
export async function serveHttp(options: GatewayOptions, listen: { port: number; host?: string }): Promise<HttpGateway> {
  const entries = new Map<string, { transport: StreamableHTTPServerTransport; session: GatewaySession }>();
  const sessions = new Map<string, GatewaySession>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? entries.get(sid) : undefined;
    if (known !== undefined) return known.transport.handleRequest(req, res);
    if (typeof sid === 'string') return rpcError(res, 404, 'Session not found');
    if (req.method !== 'POST') return rpcError(res, 400, 'Bad Request: no valid session id');
    const body = await readJson(req);
    if (body === undefined || !isInitializeRequest(body)) return rpcError(res, 400, 'Bad Request: no valid session id');
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const session = await startSession(options, transport, { sessionId: id });
    entries.set(id, { transport, session });
    sessions.set(id, session);
    void session.done.then(() => {
      entries.delete(id);
      sessions.delete(id);
    });
    await transport.handleRequest(req, res, body);
  };

  const server: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) rpcError(res, 500, `gateway error: ${(error as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : listen.port;
  return {
    url: `http://${listen.host ?? '127.0.0.1'}:${port}/mcp`,
    port,
    sessions,
    async close() {
      await Promise.all([...entries.values()].map((e) => e.session.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
}

function rpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
