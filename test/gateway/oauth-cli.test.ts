/**
 * `trc gateway --http` with OAuth from flags and `TRC_OAUTH_*` variables: the process serves
 * the metadata and answers a request without a token with the challenge; bad settings are
 * usage errors; `--help` documents both ways to authenticate.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startIssuer, type IssuerHandle } from '../helpers/oauth-issuer.js';
import { eventually, gatewayArgv } from './helpers.js';

const notes = fileURLToPath(new URL('./fixtures/notes-server.mjs', import.meta.url));
let issuer: IssuerHandle;
beforeAll(async () => {
  issuer = await startIssuer();
});
afterAll(async () => {
  await issuer?.close();
});

describe('trc gateway with OAuth', () => {
  it('takes the issuer from the environment and the resource from a flag, and challenges a request without a token', async () => {
    const argv = gatewayArgv([process.execPath, notes], ['--http', '0', '--store', ':memory:', '--oauth-resource', 'http://localhost/mcp', '--oauth-scope', 'mcp']);
    const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TRC_OAUTH_ISSUER: issuer.url } });
    let stderr = '';
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      await eventually(() => /listening on (http:\S+)/u.test(stderr), 30_000);
      const url = (/listening on (http:\S+)/u.exec(stderr) as RegExpExecArray)[1] as string;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="mcp"');
      const meta = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))).json()) as Record<string, unknown>;
      expect(meta).toMatchObject({ resource: 'http://localhost/mcp', authorization_servers: [issuer.url], scopes_supported: ['mcp'] });
      const token = await issuer.token({ sub: 'alice', aud: 'http://localhost/mcp', scope: 'mcp' });
      const ok = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
      expect(ok.status).toBe(200);
      await ok.body?.cancel();
    } finally {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
  }, 60_000);

  it('refuses incomplete or invalid OAuth settings, and OAuth flags over stdio, as usage errors', async () => {
    const upstream = ['--', process.execPath, notes];
    const missing = await runCli(['gateway', '--http', '0', '--oauth-issuer', issuer.url, ...upstream]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--oauth-resource \/ TRC_OAUTH_RESOURCE/u);
    const insecure = await runCli(['gateway', '--http', '0', '--oauth-issuer', 'http://as.example.com', '--oauth-resource', 'https://mcp.example.com/mcp', ...upstream]);
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toMatch(/issuer must be an https URL/u);
    const stdio = await runCli(['gateway', '--oauth-issuer', issuer.url, ...upstream]);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toMatch(/apply to --http only/u);
    const help = await runCli(['gateway', '--help']);
    expect(help.stdout).toMatch(/--oauth-issuer URL/u);
    expect(help.stdout).toMatch(/simple mode {2}TRC_GATEWAY_TOKEN/u);
  }, 60_000);
});
