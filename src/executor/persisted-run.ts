/**
 * Runs kept in the store (T3, T4): the run's changes — scope, trusted text, untrusted content,
 * held calls, approvals and their use — are an event log in the executor's store, so a restart
 * or a second process sharing the store keeps the run's taint and confirmations. The run in
 * memory is the trust module's own; this edge only writes its events and replays the others'.
 */
import { randomBytes } from 'node:crypto';
import { TrcError } from '../contract/index.js';
import { createRunAuthority, type RunAuthority, type RunAuthorityOptions, type RunEvent } from '../trust/index.js';
import type { Store } from '../store/types.js';

/** Options of `executor.openRun()`: those of `startRun()`, with the id required. */
export type OpenRunOptions = Omit<RunAuthorityOptions, 'onEvent'> & { readonly id: string };

/** The log's first entry: names the key of the run's confirmation tokens, unless the application holds it. */
interface Created { readonly type: 'created'; readonly secret?: string }

const MAX_APPEND_TRIES = 64;

function isCreated(e: unknown): e is Created {
  return typeof e === 'object' && e !== null && (e as { type?: unknown }).type === 'created';
}

/**
 * Open (or create) the run `options.id` in `store`.
 * @example const run = await openPersistedRun(store, { id: 'task-42', scope: { tools: ['read_file'] } }, () => new Date().toISOString());
 */
export async function openPersistedRun(store: Store, options: OpenRunOptions, now: () => string): Promise<RunAuthority> {
  const id = options.id;
  let log = await store.listRunEvents(id);
  if (log.length === 0) {
    // Without a key from the application, the run's own key is kept in its log: approvals made
    // through one process then hold in another.
    const created: Created = options.secret === undefined ? { type: 'created', secret: randomBytes(32).toString('hex') } : { type: 'created' };
    const r = await store.appendRunEvents({ runId: id, afterSeq: 0, events: [created], now: now() });
    log = 'conflict' in r ? await store.listRunEvents(id) : [{ seq: 1, event: created, at: now() }];
  }
  const head = log[0]?.event;
  if (!isCreated(head)) throw new TrcError('RUN_LOG_INVALID', `the stored log of run ${id} does not start with its creation`);
  const secret = options.secret ?? (head.secret === undefined ? undefined : Buffer.from(head.secret, 'hex'));
  if (secret === undefined) throw new TrcError('RUN_SECRET_REQUIRED', `run ${id} was created with a confirmation key held by the application: pass the same \`secret\``);

  let outbox: RunEvent[] = [];
  const { scope, trustedText, ...rest } = options;
  const run = createRunAuthority({ ...rest, id, secret, onEvent: (e) => outbox.push(e) });
  let seq = 0;
  const trustedSeen = new Set<string>();
  const replay = (entries: readonly { seq: number; event: unknown }[]): void => {
    for (const entry of entries) {
      const e = entry.event as RunEvent | Created;
      seq = entry.seq;
      if (isCreated(e)) continue;
      // Two processes used the same approval: only the first in the log may run its call.
      if (e.type === 'used' && outbox.some((o) => o.type === 'used' && o.request_id === e.request_id)) {
        outbox = outbox.filter((o) => !(o.type === 'used' && o.request_id === e.request_id));
        run.replay(e);
        throw new TrcError('RUN_CONFIRMATION_USED', `the confirmation ${e.request_id} of run ${id} was used by another process first`);
      }
      if (e.type === 'trusted') trustedSeen.add(e.text);
      run.replay(e);
    }
  };
  replay(log);

  const once = async (): Promise<void> => {
    for (let tries = 0; ; tries++) {
      replay(await store.listRunEvents(id, seq));
      if (outbox.length === 0) return;
      const batch = outbox;
      outbox = [];
      const r = await store.appendRunEvents({ runId: id, afterSeq: seq, events: batch, now: now() });
      if (!('conflict' in r)) {
        seq = r.lastSeq;
        return;
      }
      outbox = [...batch, ...outbox];
      if (tries >= MAX_APPEND_TRIES) throw new TrcError('RUN_LOG_CONTENDED', `run ${id}: the store refused ${tries} appends in a row`);
    }
  };
  // One sync at a time per copy: a copy must never read its own events back as another's.
  let chain: Promise<void> = Promise.resolve();
  const sync = (): Promise<void> => {
    const next = chain.then(once);
    chain = next.catch(() => undefined);
    return next;
  };

  if (scope !== undefined) {
    if (run.scope === undefined) run.declareScope(scope);
    else if (JSON.stringify(run.scope) !== JSON.stringify(scope)) throw new TrcError('RUN_SCOPE_ALREADY_DECLARED', `run ${id} was stored with another scope; start a new run for another task`);
  }
  for (const t of trustedText ?? []) if (!trustedSeen.has(t)) run.addTrusted(t);
  await sync();
  return Object.assign(run, { sync });
}
