/**
 * What one client session of the gateway holds: its principal, its upstream connections and
 * the name routes learned from listings. Shared by the session wiring and the tool-call path.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { LeaseOptions } from '../executor/index.js';
import type { Store } from '../store/index.js';
import type { GatewayConfig, UpstreamConfig } from './config.js';
import type { Route } from './routing.js';
import type { ToolHold } from './tool-pins.js';
import type { UpstreamConnection, UpstreamHooks } from './upstream.js';
import type { AuditTrouble } from '../executor/index.js';

/** Options shared by every session of one gateway. */
export interface GatewayOptions {
  /** Upstreams and policies (the CLI adds the `-- CMD ARGS` upstream to it). */
  readonly config: GatewayConfig;
  /** Where audit records, externalized results, handles and the ledger go. */
  readonly store: Store;
  /**
   * The principal of every session (the config's `principal`): handles and idempotency keys of
   * one session are then usable by the next. Default: a fresh `session:<uuid>` per session.
   */
  readonly principal?: string;
  /** Lines upstreams write to stderr, e.g. to show them on the gateway's own stderr. */
  readonly onUpstreamStderr?: (upstream: string, line: string) => void;
  /**
   * A mistake in the config the gateway can only see once an upstream answers (a policy for a
   * tool it does not offer), with the config's JSON Pointer; each is told once per process.
   */
  readonly onConfigWarning?: (pointer: string, message: string) => void;
  /** The store refused a batch of audit records (kept and tried again), or records were given up. */
  readonly onAuditTrouble?: (error: unknown, trouble: AuditTrouble) => void;
  /** Clock, for tests. */
  readonly now?: () => Date;
  /** Re-pin tools whose definition changed (the operator accepts them): `--accept-tool-changes`. */
  readonly acceptToolChanges?: boolean;
  /**
   * This instance's leases on write entries (many instances on one store): a stable
   * `instanceId` per instance lets a restarted one recover its predecessor's writes at once.
   */
  readonly lease?: LeaseOptions;
}

/** Mutable state of one session. */
export interface SessionState {
  readonly options: GatewayOptions;
  readonly principal: string;
  readonly sessionId: string;
  /** How the client is connected. */
  readonly transport: 'stdio' | 'http';
  upstreams: UpstreamConnection[];
  clientCapabilities: ClientCapabilities;
  toolRoutes: Map<string, Route> | null;
  promptRoutes: Map<string, Route> | null;
  /** Held tools (T5) by `<upstream>/<tool>`, null = vetted and not held; cleared when tools change. */
  readonly toolHolds: Map<string, ToolHold | null>;
  /** Tool calls still running; the session waits for them (bounded) before it reports done. */
  readonly inflight: Set<Promise<unknown>>;
  /** Set once the client side closed; in-flight calls then report `client_disconnected`. */
  clientClosed: boolean;
  /** Aborted when the gateway ends the session itself (shutdown): calls in flight end cancelled and still answer. */
  readonly stopping: AbortController;
  /**
   * The upstreams being started by `initialize`: a client that sends requests before it has
   * the answer (pipelining) gets them answered once the upstreams are there, not from none.
   */
  starting: Promise<void> | null;
  hooks: (config: UpstreamConfig) => UpstreamHooks;
}

/** The configured upstreams, in order. */
export function upstreamConfigs(state: SessionState): readonly UpstreamConfig[] {
  return state.options.config.upstreams ?? [];
}

/**
 * Keep `work` off the response path but make the session wait for it before it reports done
 * (audit records must reach the store before the store is closed).
 */
export function track(state: SessionState, work: Promise<unknown>): void {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  state.inflight.add(settled);
  void settled.then(() => state.inflight.delete(settled));
}
