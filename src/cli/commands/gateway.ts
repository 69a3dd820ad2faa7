/**
 * `trc gateway [--config FILE] [--http PORT] [--store PATH] -- CMD ARGS...`
 */
import { readFile, stat } from 'node:fs/promises';
import { isTrcError } from '../../contract/index.js';
import { MAX_CLIENT_MESSAGE_BYTES, coalesceWrites, flushAudit, lineTransport, loadGatewayConfig, openGatewayStore, serveHttp, startSession, startSweeper, SWEEP_EVERY_MS, upstreamFromCommand, type GatewayConfig } from '../../gateway/index.js';
import { parseFlags } from '../flags.js';
import { OAUTH_FLAG_OPTIONS, withOAuth } from '../oauth-options.js';
import { describeListenError, parseHost } from '../host.js';
import { InputError, InputTooLargeError, formatBytes, requireFile } from '../input.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { whyStoreFailed } from '../store.js';
import type { AuditTrouble } from '../../executor/index.js';

/**
 * The longest JSON-RPC message (one line) a stdio client may send: 8 MiB. The MCP SDK's stdio
 * transport gives up at 10 MiB without a word, so the gateway says it first.
 */
const MAX_STDIO_MESSAGE_BYTES = MAX_CLIENT_MESSAGE_BYTES;
/** The largest configuration file read: 1 MiB, and nesting at most 64 levels deep. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const MAX_CONFIG_DEPTH = 64;

/**
 * Refuse a configuration file that is too large or too deeply nested before the YAML parser
 * sees it (deep flow collections cost it memory far beyond their size). Brackets inside
 * quotes are not counted.
 */
async function checkConfigFile(path: string, shown: string): Promise<void> {
  const { size } = await stat(path);
  if (size > MAX_CONFIG_BYTES) throw new InputTooLargeError(`the configuration ${shown}`, MAX_CONFIG_BYTES);
  const text = await readFile(path, 'utf8');
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_CONFIG_DEPTH) throw new InputError(`the configuration ${shown} is nested deeper than ${MAX_CONFIG_DEPTH} levels; a gateway configuration never is`);
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
}

/**
 * After SIGTERM/SIGINT the gateway ends its sessions (calls in flight get up to 5 s to record
 * their outcome, each upstream process up to 4 s to exit before SIGKILL) and exits; whatever
 * still holds the event loop after this bound does not keep it alive. A second signal exits at once.
 */
const SHUTDOWN_BOUND_MS = 12_000;

function exitWithin(ms: number, io: CliIO): void {
  setTimeout(() => {
    println(io.stderr, `trc gateway: shutdown took longer than ${ms / 1000} s; exiting`);
    process.exit(1);
  }, ms).unref();
  const again = (): never => process.exit(130);
  process.once('SIGINT', again);
  process.once('SIGTERM', again);
}

const HELP = `Usage: trc gateway [--config FILE] [--http PORT] [--store PATH] [--name NAME] [--trusted]
                   [--annotations MODE] [--on-tool-change MODE] -- CMD [ARGS...]

Run an MCP gateway in front of unmodified MCP servers. The MCP client talks to the gateway
(stdio by default, Streamable HTTP with --http); the gateway spawns the upstream server
(CMD ARGS after "--") and/or the upstreams listed in the config file, and forwards
everything faithfully: initialize, tools/resources/prompts listings with pagination,
progress, logging, cancellation, completions, sampling/elicitation/roots requests.

Tool results are turned into agent.tool.result.v1 envelopes: output-schema check, text vs
structuredContent consistency (E7), untrusted text isolation, field visibility, a byte
budget (larger results are stored and returned as a trc://resource/<handle> link that only
the same session can read with resources/read), evidence and digest. The client receives
a normal CallToolResult with the envelope under _meta["dev.tool-result-contract/envelope"].
Tools configured as writes go through the idempotency ledger; an upstream that dies or
hangs mid-write yields status "unknown" with reconciliation, never a blind retry. Every
call is recorded in the audit store (see "trc audit").

Options:
  --config FILE   YAML or JSON configuration: upstreams, per-tool policy (effect,
                  idempotent, reconcile, untrusted_fields, visibility, budget, risk,
                  confirmation_required, timeout_ms). Checked before start; errors name
                  the path and line in the file (at most ${formatBytes(MAX_CONFIG_BYTES)}). See
                  docs/gateway.md.
  --http PORT     serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio
                  (one session and one set of upstream processes per MCP session)
  --host HOST     interface for --http (default 127.0.0.1): an IPv4 or IPv6 address
                  (::1 or [::1]) or a host name; anything but loopback needs
                  TRC_GATEWAY_TOKEN or OAuth
  --oauth-issuer URL    OAuth 2.1 authorization server whose JWT access tokens the
                  HTTP gateway accepts (env TRC_OAUTH_ISSUER; config "auth.issuer")
  --oauth-resource URL  this endpoint's public URL, e.g. https://mcp.example.com/mcp:
                  the audience tokens must name (env TRC_OAUTH_RESOURCE)
  --oauth-tenant-claim C  claim naming the tenant, part of the principal
                  (env TRC_OAUTH_TENANT_CLAIM)
  --oauth-scope S  scope every request needs (repeatable; env TRC_OAUTH_SCOPES,
                  space-separated)
  --oauth-write-scope S  scope a call of a write tool needs (env TRC_OAUTH_WRITE_SCOPE)
  --allow-origin O  a browser Origin allowed besides loopback ones (repeatable); a
                  page on it may also read the answers (CORS)
  --idle-timeout S  close an HTTP session (and its upstream processes) after S seconds
                  with no request in flight (default 1800)
  --max-sessions N  refuse new HTTP sessions beyond N live ones with 503 (default 64)
  --store PATH    SQLite file for audit, resources, handles and ledger (default:
                  $TRC_STORE, else the config's "store", else trc.sqlite in the user
                  data directory — never the working directory; see "trc --help");
                  a postgres:// URL opens a PostgreSQL store that many gateway
                  instances share (schema $TRC_PG_SCHEMA, default trc; docs/deploy.md)
  --name NAME     name of the CMD upstream (default: derived from the command)
  --trusted       the CMD upstream is trusted: its annotations are policy and an
                  envelope it embeds may be adopted (its text stays external data)
  --annotations MODE  how the CMD upstream's MCP annotations count: policy, hint
                  (default when untrusted: readOnlyHint makes a tool a read), ignore
  --on-tool-change MODE  a tool whose description or schema changed since it was
                  first seen: flag (default; listed marked) or hold (calls refused)
  --accept-tool-changes  re-pin the tools whose definition changed since they were
                  first seen (after you reviewed them); without it they stay flagged
                  A config upstream entry with no "command"/"url" is the policy of
                  the CMD upstream too (name, defaults, tools); flags win over it.
  -h, --help      show this help

HTTP security: the gateway answers only loopback Host names when bound to loopback and
refuses browser Origins that are not loopback or --allow-origin (DNS rebinding). A
non-loopback --host needs one of two ways to authenticate:
  simple mode  TRC_GATEWAY_TOKEN: every request carries "Authorization: Bearer <token>"
               (read from the environment, never a flag, so it does not show in process
               lists); all clients are one principal.
  OAuth        --oauth-issuer and --oauth-resource (or the config's "auth" section): the
               gateway is an OAuth 2.1 resource server. It serves
               /.well-known/oauth-protected-resource, checks each request's JWT access
               token against the issuer's JWKS (issuer, audience, expiry), answers 401
               with a WWW-Authenticate challenge naming that metadata, or 403
               insufficient_scope, and binds handles, idempotency keys, audit records and
               runs to the token's issuer + subject (+ tenant). See docs/gateway.md.

Many instances on one PostgreSQL store (docs/deploy.md): TRC_INSTANCE_ID names this
instance in write leases (stable per instance slot: a restarted instance then recovers its
predecessor's in-flight writes at once) and prefixes its MCP session ids (letters, digits,
-, _: "<id>.<uuid>", for session routing), TRC_LEASE_MS fixes the lease length for every
write (default: per write, twice its timeout_ms plus 1 s, between 3000 and 10000 ms). GET /healthz answers while the process runs, GET /readyz when the store answers.

Over stdio, one message (one line) from the client may hold up to ${formatBytes(MAX_STDIO_MESSAGE_BYTES)};
a longer line ends the session with exit code 2.

MCP client configuration — put the gateway in front of the server command. Without an
install (npx fetches the package):
  { "command": "npx", "args": ["-y", "tool-result-contract", "gateway", "--",
                               "npx", "-y", "@modelcontextprotocol/server-memory"] }
After "npm install -g tool-result-contract" (the short name "trc" works too):
  { "command": "tool-result-contract", "args": ["gateway", "--",
                               "npx", "-y", "@modelcontextprotocol/server-memory"] }

Examples:
  trc gateway -- npx -y @modelcontextprotocol/server-filesystem /srv/docs
  trc gateway --config trc-gateway.yaml --http 8808
  trc gateway --store /var/lib/trc/audit.sqlite -- node ./my-server.js

Exit codes: 0 the client disconnected (stdio) or the server was stopped (--http);
2 usage error, invalid configuration, a host or port that cannot be used, a message over
the size limit, or an upstream/store that cannot start; 1 shutdown after SIGTERM/SIGINT took
longer than ${SHUTDOWN_BOUND_MS / 1000} s (upstream processes are ended first); 130 a second signal.`;

async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const upstreamArgv = dash === -1 ? [] : argv.slice(dash + 1);
  const { values } = parseFlags({
    args: [...own],
    options: { config: { type: 'string' }, trusted: { type: 'boolean' }, 'accept-tool-changes': { type: 'boolean' }, annotations: { type: 'string' }, 'on-tool-change': { type: 'string' }, http: { type: 'string' }, host: { type: 'string' }, store: { type: 'string' }, name: { type: 'string' }, 'allow-origin': { type: 'string', multiple: true }, 'idle-timeout': { type: 'string' }, 'max-sessions': { type: 'string' }, ...OAUTH_FLAG_OPTIONS },
    strict: true,
    allowPositionals: false,
  });
  let port: number | undefined;
  if (values.http !== undefined) {
    port = /^\d+$/u.test(values.http) ? Number(values.http) : NaN;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http needs a port number (0-65535), got "${values.http}"`);
  }
  const host = values.host === undefined ? undefined : parseHost(values.host);
  if (host !== undefined && port === undefined) throw new UsageError('--host applies to --http only');
  const positive = (flag: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const n = /^\d+$/u.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} needs a positive integer, got "${text}"`);
    return n;
  };
  const idleSeconds = positive('idle-timeout', values['idle-timeout']);
  const maxSessions = positive('max-sessions', values['max-sessions']);
  let config: GatewayConfig = {};
  if (values.config !== undefined) {
    const configPath = await requireFile(values.config, io);
    await checkConfigFile(configPath, values.config);
    try {
      config = loadGatewayConfig(configPath);
    } catch (error) {
      if (isTrcError(error)) {
        println(io.stderr, `trc gateway: ${error.message}`);
        return 2;
      }
      throw error;
    }
  }
  const oneOf = <T extends string>(flag: string, text: string, allowed: readonly T[]): T => {
    if (!(allowed as readonly string[]).includes(text)) throw new UsageError(`--${flag} needs one of ${allowed.join(', ')}, got "${text}"`);
    return text as T;
  };
  const policy = {
    ...(values.trusted === true ? { trusted: true } : {}),
    ...(values.annotations === undefined ? {} : { annotations: oneOf('annotations', values.annotations, ['policy', 'hint', 'ignore'] as const) }),
    ...(values['on-tool-change'] === undefined ? {} : { on_tool_change: oneOf('on-tool-change', values['on-tool-change'], ['flag', 'hold'] as const) }),
  };
  if (upstreamArgv.length === 0 && Object.keys(policy).length > 0) throw new UsageError('--trusted, --annotations and --on-tool-change apply to the "-- CMD" upstream; give one after "--"');
  try {
    config = upstreamFromCommand(config, upstreamArgv, values.name, policy);
  } catch (error) {
    if (!isTrcError(error)) throw error;
    println(io.stderr, `trc gateway: ${error.message}`);
    return 2;
  }
  if ((config.upstreams ?? []).length === 0) throw new UsageError('no upstream: give one after "--" (trc gateway -- CMD ARGS) or in --config');
  if (port === undefined && Object.keys(OAUTH_FLAG_OPTIONS).some((f) => values[f as keyof typeof OAUTH_FLAG_OPTIONS] !== undefined)) throw new UsageError('--oauth-* apply to --http only (over stdio the principal is local)');
  config = withOAuth(config, values, io.env);

  // Checked before the store is opened: a usage error leaves nothing open behind it.
  const lease = leaseFromEnv(io.env);
  let opened;
  try {
    opened = await openGatewayStore(io.cwd, [values.store, io.env['TRC_STORE'], config.store], config.store_sync, { env: io.env });
  } catch (cause) {
    throw new InputError(`cannot open the store: ${whyStoreFailed(cause)}`);
  }
  const { store, path } = opened;
  const options = { config, store, ...(values['accept-tool-changes'] === true ? { acceptToolChanges: true } : {}), ...(lease === undefined ? {} : { lease }), onUpstreamStderr: (name: string, line: string) => println(io.stderr, `[${name}] ${line}`), onConfigWarning: (pointer: string, message: string) => println(io.stderr, `trc gateway: warning: config ${pointer}: ${message}`), onAuditTrouble: (error: unknown, trouble: AuditTrouble) => println(io.stderr, auditTroubleLine(error, trouble)) };
  // Expired handles and stored results go while the gateway runs (at start, then every 10 min),
  // and audit records past the configured retention.
  const retention = config.audit_retention_days === undefined ? {} : { auditRetentionMs: config.audit_retention_days * 86_400_000 };
  const stopSweeper = startSweeper(store, (error) => println(io.stderr, `trc gateway: sweeping the store failed: ${error.message}`), SWEEP_EVERY_MS, retention);
  try {
    if (port !== undefined) {
      const token = io.env['TRC_GATEWAY_TOKEN'];
      let gw;
      try {
        gw = await serveHttp(options, {
          port,
          ...(host === undefined ? {} : { host }),
          ...(token === undefined || token === '' ? {} : { token }),
          ...(values['allow-origin'] === undefined ? {} : { allowedOrigins: values['allow-origin'] }),
          ...(idleSeconds === undefined ? {} : { idleTimeoutMs: idleSeconds * 1000 }),
          ...(maxSessions === undefined ? {} : { maxSessions }),
          // Session ids carry the instance id, so a load balancer can route a session back to it.
          ...(lease?.instanceId === undefined ? {} : { sessionIdPrefix: lease.instanceId }),
        });
      } catch (error) {
        const listen = describeListenError(error, host ?? '127.0.0.1', port);
        if (!isTrcError(error) && listen === null) throw error;
        println(io.stderr, `trc gateway: ${listen ?? (error as Error).message}`);
        return 2;
      }
      // Listen for the signals before saying where to connect: a client may stop us at once.
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      println(io.stderr, `trc gateway: listening on ${gw.url} (store ${path})`);
      await stopped;
      exitWithin(SHUTDOWN_BOUND_MS, io);
      await gw.close();
      return 0;
    }
    // Answers finished in the same event-loop turn leave in one write (several calls in flight).
    coalesceWrites(io.stdout);
    let tooLong = false;
    let stop = (): void => undefined;
    // The gateway frames stdio itself: linear in the message size, one limit per message.
    const transport = lineTransport(io.stdin, io.stdout, {
      maxMessageBytes: MAX_STDIO_MESSAGE_BYTES,
      side: 'client',
      onTooLarge: () => {
        tooLong = true;
        println(io.stderr, `trc gateway: a message from the client is larger than ${formatBytes(MAX_STDIO_MESSAGE_BYTES)}, the limit for one stdio message; the session is closed`);
        stop();
      },
    });
    const session = await startSession(options, transport);
    // The client closing stdin ends the session; the SDK stdio transport does not notice EOF.
    stop = () => void session.close();
    if (tooLong) stop();
    // Over stdio the client has no other session to try: an upstream that cannot start ends the
    // gateway (exit 2), after the client got the error as the answer to initialize.
    let startError: Error | undefined;
    void session.startFailed.then((error) => {
      startError = error;
      println(io.stderr, `trc gateway: ${error.message}`);
      stop();
    });
    // The client closing stdin is the client leaving: nothing can be answered any more.
    const gone = () => void session.clientGone();
    io.stdin.once('end', gone);
    io.stdin.once('close', gone);
    const signalled = (): void => {
      exitWithin(SHUTDOWN_BOUND_MS, io);
      stop();
    };
    process.once('SIGINT', signalled);
    process.once('SIGTERM', signalled);
    await session.done;
    process.off('SIGINT', signalled);
    process.off('SIGTERM', signalled);
    return tooLong || startError !== undefined ? 2 : 0;
  } finally {
    stopSweeper();
    // No queued audit record may be lost on a clean shutdown.
    await flushAudit(store);
    await store.close().catch(() => undefined);
  }
}

const INSTANCE_ID = /^[\w-]{1,64}$/u;

/** Lease settings from TRC_INSTANCE_ID / TRC_LEASE_MS (unset: the executor's defaults). */
function leaseFromEnv(env: Readonly<Record<string, string | undefined>>): { instanceId?: string; ttlMs?: number } | undefined {
  const id = env['TRC_INSTANCE_ID'];
  const ms = env['TRC_LEASE_MS'];
  if ((id === undefined || id === '') && (ms === undefined || ms === '')) return undefined;
  const ttlMs = ms === undefined || ms === '' ? undefined : Number(ms);
  if (ttlMs !== undefined && (!Number.isSafeInteger(ttlMs) || ttlMs < 100)) throw new UsageError(`TRC_LEASE_MS needs an integer number of milliseconds ≥ 100, got "${ms}"`);
  // The id prefixes session ids (load-balancer routing) and lease owners (`<id>/…`): another
  // character would silently lose the routing, or let one id's prefix match another's.
  if (id !== undefined && id !== '' && !INSTANCE_ID.test(id)) throw new UsageError(`TRC_INSTANCE_ID may hold letters, digits, - and _ (1 to 64 of them), got "${id}"`);
  return { ...(id === undefined || id === '' ? {} : { instanceId: id }), ...(ttlMs === undefined ? {} : { ttlMs }) };
}

/** The `trc gateway` command. */
export const command: Command = {
  name: 'gateway',
  summary: 'run an MCP gateway that enforces the contract in front of MCP servers',
  help: HELP,
  run,
};

/** One stderr line for audit records the store refused: how many, why, and what happens next. */
function auditTroubleLine(error: unknown, trouble: AuditTrouble): string {
  const why = error instanceof Error ? error.message : String(error);
  const next = trouble.retryInMs === null ? 'nothing left to retry' : `kept, retrying in ${trouble.retryInMs} ms`;
  const lost = trouble.givenUp === 0 ? '' : `; ${trouble.givenUp} record(s) given up for good`;
  return `trc gateway: audit: the store refused ${trouble.records} record(s) (${why}): ${next}${lost}`;
}
