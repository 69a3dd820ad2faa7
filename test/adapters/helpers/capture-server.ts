/**
 * A local HTTP endpoint the official OpenAI and Anthropic SDK clients send real requests to,
 * so tests see exactly what the SDK serialized from our rendered messages. It answers with a
 * minimal valid response body for the path.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CaptureServer {
  readonly url: string;
  readonly bodies: unknown[];
  close(): Promise<void>;
}

const ANSWERS: Record<string, unknown> = {
  '/v1/chat/completions': {
    id: 'chatcmpl_1', object: 'chat.completion', created: 1, model: 'gpt-test',
    choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: 'ok', refusal: null } }],
  },
  '/v1/responses': { id: 'resp_1', object: 'response', created_at: 1, model: 'gpt-test', status: 'completed', output: [], parallel_tool_calls: true, tool_choice: 'auto', tools: [] },
  '/v1/messages': {
    id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', stop_reason: 'end_turn', stop_sequence: null,
    content: [{ type: 'text', text: 'ok', citations: null }], usage: { input_tokens: 1, output_tokens: 1 },
  },
};

export async function startCaptureServer(): Promise<CaptureServer> {
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      const answer = ANSWERS[(req.url ?? '').split('?')[0] ?? ''];
      res.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer ?? { error: { message: 'unknown path' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
