/**
 * A real deployment to test against: N `trc gateway --http` child processes (from the
 * TypeScript sources, through tsx) on loopback ports, all on one PostgreSQL store (one schema),
 * behind nginx from Debian run unprivileged with a generated config (round robin; a
 * 2025-generation session is routed back to its instance by the prefix of its session id), in
 * front of the counting upstream (fixtures/counting-server.mjs), whose effects land in one
 * PostgreSQL table so duplicates show.
 *
 * Who calls: without `oauth`, every call runs as the configured `principal`; with it, each
 * instance is an OAuth resource server for tokens of that issuer whose audience is nginx's
 * public URL (`Deployment.url`), and the principal is each token's issuer + subject.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const counter = fileURLToPath(new URL('./fixtures/counting-server.mjs', import.meta.url));

/** Where nginx is (Debian's package puts it in /usr/sbin). */
export function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  throw new Error('nginx is not installed (apt-get install -y nginx; .ci/run installs it)');
}

/** Options of {@link startDeployment}. */
export interface DeploymentOptions {
  readonly pgUrl: string;
  readonly instances?: number;
  /** The principal every call runs as (the gateway config's `principal`). */
  readonly principal?: string;
  /** Lease length of the gateways' writes (TRC_LEASE_MS). */
  readonly leaseMs?: number;
  /** Tool timeout of the gateways (ms). */
  readonly timeoutMs?: number;
  /** Delay of each effect in the counting upstream (widens the window a SIGKILL can hit). */
  readonly chargeDelayMs?: number;
  /** Authenticate callers with tokens of this issuer (TRC_OAUTH_ISSUER); the resource is `url`. */
  readonly oauth?: { readonly issuer: string };
}

/** One gateway instance. */
export interface Instance {
  readonly id: string;
  readonly port: number;
  readonly url: string;
  proc: ChildProcess | null;
  stderr: string[];
}

/** A running deployment. */
export interface Deployment {
  /** nginx's MCP endpoint (with `oauth`, the resource tokens must name as their audience). */
  readonly url: string;
  readonly instances: readonly Instance[];
  readonly schema: string;
  readonly table: string;
  /** nginx's master process (for CPU accounting). */
  readonly nginxPid: number | null;
  /** SIGKILL one instance (no shutdown of any kind). */
  kill(index: number): Promise<void>;
  /** Start a killed instance again (same id and port) and wait until it is ready. */
  restart(index: number): Promise<void>;
  /** A store on the deployment's schema, for inspection (closed by close()). */
  store(): Promise<Store>;
  /** Effects the upstream performed, per idempotency key. */
  effects(): Promise<Map<string, number>>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, what: () => string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not become ready: ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function nginxConfig(dir: string, port: number, instances: readonly Instance[]): string {
  const servers = instances.map((i) => `    server 127.0.0.1:${i.port} max_fails=1 fail_timeout=2s;`).join('\n');
  const routes = instances.map((i) => `    "~^${i.id}\\." 127.0.0.1:${i.port};`).join('\n');
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream gateways {
${servers}
    keepalive 16;
  }
  # 2025-generation sessions go back to the instance that minted them (session id "<instance>.<uuid>");
  # everything else (2026-07-28 stateless requests, initialize) is round robin.
  map $http_mcp_session_id $gateway {
    default gateways;
${routes}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://$gateway;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # The gateways are bound to loopback and answer only loopback Host names.
      proxy_set_header Host localhost;
      proxy_buffering off;
      proxy_read_timeout 120s;
      # A refused connection (a killed instance) goes to the next one: nothing was sent.
      proxy_next_upstream error;
      # Which instance answered (tests count them).
      add_header X-Served-By $upstream_addr always;
    }
  }
}
`;
}

/**
 * Start nginx and `instances` gateways on one PostgreSQL schema.
 * @example const d = await startDeployment({ pgUrl }); ... await d.close();
 */
export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const n = options.instances ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'trc-deploy-'));
  const tag = randomBytes(5).toString('hex');
  const schema = `trc_deploy_${tag}`;
  const table = `effects_${tag}`;
  // nginx's port is chosen first: with OAuth it is part of the resource every instance checks.
  const nginxPort = await freePort();
  const publicUrl = `http://127.0.0.1:${nginxPort}/mcp`;
  const config = {
    ...(options.oauth === undefined ? { principal: options.principal ?? 'deploy-user' } : {}),
    defaults: { effect: 'read', timeout_ms: options.timeoutMs ?? 5000 },
    upstreams: [{
      name: 'counter',
      command: process.execPath,
      args: [counter],
      env: { COUNTER_PG_URL: options.pgUrl, COUNTER_TABLE: table, CHARGE_DELAY_MS: String(options.chargeDelayMs ?? 0) },
      tools: {
        charge: { effect: 'write', idempotent: false, reconcile: { tool: 'find_charge', args: { idempotency_key: '$key' } } },
        report: { budget: { max_bytes: 2048 } },
      },
    }],
  };
  const configPath = join(dir, 'gateway.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const admin = new pg.Pool({ connectionString: options.pgUrl, max: 1 });
  const stores: Store[] = [];
  const instances: Instance[] = [];
  const taken = new Set([nginxPort]);
  for (let i = 0; i < n; i++) {
    let port = await freePort();
    // A port freed and asked for again can come back: every process needs its own.
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    instances.push({ id: `gw-${i + 1}`, port, url: `http://127.0.0.1:${port}`, proc: null, stderr: [] });
  }
  const start = (inst: Instance): void => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'gateway', '--config', configPath, '--http', String(inst.port), '--store', options.pgUrl], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        TRC_PG_SCHEMA: schema,
        TRC_INSTANCE_ID: inst.id,
        TRC_LEASE_MS: String(options.leaseMs ?? 2000),
        ...(options.oauth === undefined ? {} : { TRC_OAUTH_ISSUER: options.oauth.issuer, TRC_OAUTH_RESOURCE: publicUrl }),
      },
    });
    inst.stderr = [];
    proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      inst.stderr.push(chunk);
      if (inst.stderr.length > 200) inst.stderr.shift();
    });
    inst.proc = proc;
  };
  const ready = (inst: Instance) => waitReady(`${inst.url}/readyz`, () => inst.stderr.join('').slice(-2000));
  // The first instance migrates the schema alone; the others then start together.
  start(instances[0]!);
  await ready(instances[0]!);
  for (const inst of instances.slice(1)) start(inst);
  await Promise.all(instances.slice(1).map(ready));

  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, nginxPort, instances));
  const nginx = spawn(nginxBinary(), ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const nginxErr: string[] = [];
  nginx.stderr?.setEncoding('utf8').on('data', (c: string) => nginxErr.push(c));
  await waitReady(`http://127.0.0.1:${nginxPort}/healthz`, () => nginxErr.join(''));

  const exited = (proc: ChildProcess) => new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve();
    else proc.once('exit', () => resolve());
  });
  return {
    url: publicUrl,
    instances,
    schema,
    table,
    nginxPid: nginx.pid ?? null,
    async kill(index) {
      const inst = instances[index]!;
      const proc = inst.proc;
      if (proc === null) return;
      proc.kill('SIGKILL');
      await exited(proc);
      inst.proc = null;
    },
    async restart(index) {
      const inst = instances[index]!;
      if (inst.proc !== null) return;
      start(inst);
      await ready(inst);
    },
    async store() {
      const store = await openPostgresStore({ connectionString: options.pgUrl, schema, max: 2 });
      stores.push(store);
      return store;
    },
    async effects() {
      const { rows } = await admin.query<{ key: string; n: string }>(`SELECT key, COUNT(*) AS n FROM ${table} GROUP BY key`);
      return new Map(rows.map((r) => [r.key, Number(r.n)]));
    },
    async close() {
      nginx.kill('SIGTERM');
      await exited(nginx);
      await Promise.all(instances.map(async (inst) => {
        if (inst.proc === null) return;
        inst.proc.kill('SIGTERM');
        await exited(inst.proc);
        inst.proc = null;
      }));
      await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.query(`DROP TABLE IF EXISTS ${table}`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
