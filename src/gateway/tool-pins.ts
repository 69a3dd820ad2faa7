/**
 * Untrusted upstream metadata (SPEC T5): each tool of an upstream that is not `trusted` is pinned
 * on first sight — the hash (RFC 8785 digest) of its description, title and schemas, kept in
 * the store's versioned state under `trc.gateway.tool_pin/<upstream>/<tool>` — and scanned. A
 * tool whose definition later differs from its pin (a "rug pull"), or whose metadata reads like
 * instructions, is flagged: listed marked or withheld (`flagged_tools`), and with
 * `on_tool_change: hold` a changed tool's calls are refused until its pin is approved again
 * (`trc gateway --accept-tool-changes`, which re-pins what the upstream lists now).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { digest } from '../contract/index.js';
import { scanTool, vetToolListing, type ToolMetadataFinding } from '../executor/index.js';
import type { Store } from '../store/index.js';
import type { UpstreamConfig } from './config.js';

/** Why a tool is held, when it is (calls are refused by the pipeline's policy step). */
export interface ToolHold {
  readonly code: 'TOOL_DEFINITION_CHANGED';
  readonly reason: string;
}

/** What vetting an upstream's tools gave: the entries to list and the holds, by upstream tool name. */
export interface VettedTools {
  readonly tools: Tool[];
  readonly holds: ReadonlyMap<string, ToolHold>;
}

/** The pin of one tool, as stored. */
interface Pin {
  readonly hash: string;
  readonly first_seen: string;
}

const PIN_PREFIX = 'trc.gateway.tool_pin/';
const scans = new Map<string, readonly ToolMetadataFinding[]>();

/** The hash a tool is pinned by: what a client (and its model) reads of it. */
export function toolHash(tool: Tool): string {
  const { description, title, inputSchema, outputSchema } = tool;
  return digest({ description: description ?? null, title: title ?? null, inputSchema: inputSchema ?? null, outputSchema: outputSchema ?? null });
}

async function pinOf(store: Store, key: string, hash: string, now: string, accept: boolean): Promise<Pin> {
  const current = await store.getState(key);
  const pinned = current?.value as Pin | undefined;
  if (pinned !== undefined && (pinned.hash === hash || !accept)) return pinned;
  const pin: Pin = { hash, first_seen: now };
  const put = await store.putState({ key, baseVersion: current?.version ?? null, value: pin, source: { kind: 'gateway.tool_pin' }, now });
  // Another session pinned it at the same moment: its pin stands.
  if ('conflict' in put) return (put.conflict?.value as Pin | undefined) ?? pin;
  return pin;
}

/**
 * The tools of `upstream` as the client may see them. A trusted upstream's are returned as they
 * are. `accept` re-pins changed definitions (the operator approved them).
 * @example const { tools, holds } = await vetTools(store, upstreamConfig, await up.tools(), new Date());
 */
export async function vetTools(store: Store, upstream: UpstreamConfig, tools: Tool[], now: Date, accept = false): Promise<VettedTools> {
  const holds = new Map<string, ToolHold>();
  if (upstream.trusted === true) return { tools, holds };
  const at = now.toISOString();
  const out: Tool[] = [];
  for (const tool of tools) {
    const hash = toolHash(tool);
    const pin = await pinOf(store, `${PIN_PREFIX}${upstream.name}/${tool.name}`, hash, at, accept);
    let findings = scans.get(hash);
    if (findings === undefined) {
      findings = scanTool(tool as unknown as Record<string, unknown>);
      if (scans.size > 4096) scans.clear();
      scans.set(hash, findings);
    }
    const changed = pin.hash !== hash;
    const vetted = vetToolListing(tool as unknown as Record<string, unknown>, {
      server: upstream.name, findings, listing: upstream.flagged_tools ?? 'marked', ...(changed ? { changedSince: pin.first_seen } : {}),
    });
    if (changed && upstream.on_tool_change === 'hold') {
      holds.set(tool.name, { code: 'TOOL_DEFINITION_CHANGED', reason: `the definition of "${tool.name}" on upstream "${upstream.name}" changed since it was pinned (${pin.first_seen}); calls are held until the operator accepts it (trc gateway --accept-tool-changes)` });
    }
    out.push(vetted.tool as unknown as Tool);
  }
  return { tools: out, holds };
}
