/**
 * Between `node:http` and the web `Request`/`Response` the v2 SDK's HTTP entry speaks: the
 * gateway reads and checks each request itself (DNS rebinding, token, body limit), so the
 * `Request` carries headers only and the parsed body goes beside it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A body-less web `Request` with the method, URL and headers of `req`.
 * @example const request = toWebRequest(req, port);
 */
export function toWebRequest(req: IncomingMessage, port: number): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The Host header was checked by the door; the URL is built from the listening port so that an
  // odd Host value can never make it unparsable.
  return new Request(new URL(req.url ?? '/', `http://127.0.0.1:${port}`), { method: req.method ?? 'GET', headers });
}

/**
 * Write a web `Response` to `res`, streaming its body (SSE included); a client that goes away
 * cancels the stream.
 * @example sendWebResponse(res, await handler.fetch(request));
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away, or the stream was cancelled
  }
  res.end();
}
