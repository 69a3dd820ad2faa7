/**
 * `runDemo`: the scripted agent session (no LLM) over a real SQLite business database, a real
 * HTTP carrier service and the SQLite trc store. Returns the transcript; prints nothing.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute, parse, relative, resolve } from 'node:path';
import { createExecutor, presentStage, trustPolicy, type Principal } from '../executor/index.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { Policy as TrustPolicyTable } from '../trust/index.js';
import { startCarrierService, type CarrierService } from './carrier-service.js';
import type { DemoContext } from './context.js';
import { TrcError } from '../contract/index.js';
import type { Store } from '../store/types.js';
import { demoPaths, prepareDemoPaths, type DemoPaths } from './paths.js';
import { fittedList, orderLookup } from './steps-data.js';
import { lostPayment, parallelCalls } from './steps-effects.js';
import { checkedAnswer, disagreeingWarehouses } from './steps-evidence.js';
import { injectedPage } from './steps-trust.js';
import { demoTools } from './tools.js';
import type { DemoStep, DemoTranscript } from './transcript.js';
import { openWorld, type World } from './world.js';

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** Working directory for the default paths. */
  readonly cwd: string;
  /** The trc store file (or a directory for both files); default `demo.sqlite` in the user data directory. */
  readonly store?: string;
  /** The environment the default location is read from (`XDG_DATA_HOME`, `HOME`…); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Delete both databases first. */
  readonly fresh?: boolean;
}

/** Items the budget lets through, and the page size of the cursor: small enough to read in a terminal. */
const PAGE_ITEMS = 10;

// Call policy (T4): only `email_send` is high-risk, so a tainted address holds it (T3).
const POLICY: TrustPolicyTable = {
  tools: {
    order_get: { risk: 'low' },
    items_list: { risk: 'low' },
    items_page: { risk: 'low' },
    web_fetch: { risk: 'low' },
    email_send: { risk: 'high' },
    payment_charge: { risk: 'medium' },
    shipping_status: { risk: 'low' },
    stock_get: { risk: 'low' },
  },
};

/**
 * Run the demo session and return its transcript. The audit, ledger and stored results stay in
 * the trc store for `trc audit` / `trc diagnose`.
 * @example const t = await runDemo({ cwd: process.cwd(), fresh: true }); t.steps.map((s) => s.ok)
 */
export async function runDemo(options: RunDemoOptions): Promise<DemoTranscript> {
  const started = Date.now();
  const paths = demoPaths(options.cwd, options.store, options.env);
  const { world, store } = await openDatabases(paths, options.fresh === true);
  let carrier: CarrierService | undefined;
  try {
    carrier = await startCarrierService();
    const loseResponses = new Set<string>();
    const tools = demoTools({ world, shippingUrl: carrier.url, loseResponses, now: () => new Date().toISOString(), store, pageSize: PAGE_ITEMS });
    const principal: Principal = { id: 'demo_user', roles: ['agent'] };
    const untrusted: DemoContext['untrusted'] = [];
    const executor = createExecutor({
      tools: tools.all,
      store,
      policy: trustPolicy(POLICY, () => ({ untrustedContent: untrusted })),
      budget: { maxItems: PAGE_ITEMS },
      // The full labelled context (facts, evidence, completeness, boundaries) at every call.
      stages: { present: presentStage() },
    });
    const ctx: DemoContext = { runId: randomBytes(3).toString('hex'), executor, store, world, principal, untrusted, envelopes: new Map(), loseResponses };
    await executor.recoverInFlight();
    const steps: DemoStep[] = [];
    steps.push(await orderLookup(ctx));
    steps.push(await fittedList(ctx));
    steps.push(await injectedPage(ctx));
    steps.push(await lostPayment(ctx));
    steps.push(await parallelCalls(ctx));
    steps.push(await disagreeingWarehouses(ctx));
    steps.push(checkedAnswer(ctx));
    const storeArg = shellArg(displayPath(options.cwd, paths.store));
    const failedCall = steps[4]?.calls.find((c) => c.status === 'failed')?.call_id ?? steps[0]?.calls[0]?.call_id ?? '';
    return {
      run_id: ctx.runId,
      store_path: paths.store,
      world_path: paths.world,
      started_at: new Date(started).toISOString(),
      duration_ms: Date.now() - started,
      steps,
      ok: steps.every((s) => s.ok),
      inspect: [
        { command: `trc audit --store ${storeArg}`, purpose: 'every recorded call, oldest first' },
        { command: `trc inspect --store ${storeArg}`, purpose: 'the same calls in a local web page, with diagnosis and untrusted text' },
        { command: `trc diagnose ${failedCall} --store ${storeArg}`, purpose: 'the carrier call that failed, layer by layer' },
        { command: `trc diagnose ${steps[3]?.calls[0]?.call_id ?? ''} --store ${storeArg}`, purpose: 'the payment whose response was lost, and its reconciliation' },
      ],
    };
  } finally {
    await carrier?.close();
    await store.close();
    world.close();
  }
}

/** Open both databases; a path that cannot be used is a clear error, not a stack trace. */
async function openDatabases(paths: DemoPaths, fresh: boolean): Promise<{ world: World; store: Store }> {
  let world: World | undefined;
  try {
    prepareDemoPaths(paths, fresh);
    world = openWorld(paths.world);
    return { world, store: await openSqliteStore({ path: paths.store }) };
  } catch (cause) {
    world?.close();
    if (cause instanceof TrcError) throw cause;
    throw new TrcError('DEMO_STORE_UNUSABLE', `cannot open the demo databases (${paths.store}, ${paths.world}): ${(cause as Error).message}`, { cause });
  }
}

/**
 * A path relative to the working directory when it lies below it, else absolute. Not from the
 * file system's root: every path lies below it there, and an MCP host or a service often starts
 * a process in `/`, so "root/.local/…" would read as a project folder.
 */
export function displayPath(cwd: string, path: string): string {
  if (parse(resolve(cwd)).root === resolve(cwd)) return path;
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** Quote a command-line argument only when the shell would split or expand it. */
function shellArg(arg: string): string {
  return /^[\w./:@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
