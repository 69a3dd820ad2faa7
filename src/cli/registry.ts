/**
 * Every `trc` command, loaded lazily so `trc validate` never pays for the gateway's imports.
 */
import type { Command } from './io.js';

/** Name, one-line summary and loader of each command, in the order `trc --help` lists them. */
export const COMMANDS: readonly { name: string; summary: string; load: () => Promise<{ command: Command }> }[] = [
  { name: 'validate', summary: 'check envelopes (a file or a JSONL stream) against the contract', load: () => import('./commands/validate.js') },
  { name: 'schema', summary: 'print the envelope JSON Schema (draft 2020-12)', load: () => import('./commands/schema.js') },
  { name: 'fit', summary: 'fit a tool result to a size budget, storing the full raw result', load: () => import('./commands/fit.js') },
  { name: 'page', summary: 'read the next page of a fitted list by its cursor (re-authorized)', load: () => import('./commands/page.js') },
  { name: 'resource', summary: 'read a stored raw result by its handle (re-authorized)', load: () => import('./commands/resource.js') },
  { name: 'sweep', summary: 'delete expired handles and stored results from the store', load: () => import('./commands/sweep.js') },
  { name: 'scan', summary: 'detect instruction-like text (prompt injection) in untrusted text', load: () => import('./commands/scan.js') },
  { name: 'attack-sim', summary: 'run prompt-injection scenarios with an agent that obeys everything it reads', load: () => import('./commands/attack-sim.js') },
  { name: 'cite', summary: "check an answer's claims against the evidence of tool results", load: () => import('./commands/cite.js') },
  { name: 'demo', summary: 'run a scripted agent session on the SQLite default (no LLM)', load: () => import('./commands/demo.js') },
  { name: 'reconcile', summary: 'reconcile side-effecting calls left in flight or unknown', load: () => import('./commands/reconcile.js') },
  { name: 'diagnose', summary: 'walk the four layers of one recorded call and say which failed', load: () => import('./commands/diagnose.js') },
  { name: 'audit', summary: 'list recorded calls from the audit store', load: () => import('./commands/audit.js') },
  { name: 'inspect', summary: 'browse recorded calls in a local web page (read-only)', load: () => import('./commands/inspect.js') },
  { name: 'gateway', summary: 'run an MCP gateway that enforces the contract in front of MCP servers', load: () => import('./commands/gateway.js') },
];
