/**
 * The development corpora (../shared/corpora/injection and injection-extra, beside the
 * repository; never copied into it) and their split BY SOURCE into a development part, used to
 * write and tune the detector, and a held-out part, measured only. The split is a fixed list of
 * source prefixes, so every run measures the same rows.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the corpora live (heldout.enc there is never read). */
export const CORPORA_DIR = path.resolve(repoRoot, '../shared/corpora');

/** One labelled row. `label` is `injection` or `benign`; `group` is the form or benign kind. */
export interface CorpusRow {
  readonly text: string;
  readonly source: string;
  readonly label: 'injection' | 'benign';
  readonly group: string;
  readonly part: 'dev' | 'held-out';
}

/**
 * Held-out sources, by prefix. Injections: the ASB template family (the bulk of the extra
 * templated rows, and its plain goals), PromptInject via Giskard, garak's system-prompt extraction, the
 * PayloadsAllTheThings and TakSec payload lists, LLMFuzzer, and two jailbreak collections.
 * Benign: Enron e-mails, AlpacaEval requests, XSTest look-alikes, three documentation sets,
 * T0 reviews/news/prose/dialogues, retail API records and policy, WHOIS records.
 */
export const HELD_OUT_SOURCES: readonly string[] = [
  'asb:', 'giskard:', 'garak:sysprompt', 'patt:', 'taksec:payloads', 'llmfuzzer:', 'jbb:', 'gptfuzz:',
  'aeslc:', 'alpaca_eval:', 'xstest:', 'docs:mcp-gateway', 'docs:modelcontextprotocol', 'docs:valibot',
  'self-instruct:t0_', 'tau-bench:retail', 'garak:whois',
];

// Benign kinds of the first corpus, which has none.
const FIRST_CORPUS_KINDS: readonly [string, string][] = [
  ['bipia:email', 'email'], ['bipia:table', 'table'], ['bipia:code', 'code_doc'], ['notinject', 'lookalike'], ['agentdojo', 'tool_output'],
];

function partOf(source: string): CorpusRow['part'] {
  return HELD_OUT_SOURCES.some((p) => source.startsWith(p)) ? 'held-out' : 'dev';
}

function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(path.join(CORPORA_DIR, file), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** All rows of both corpora with their part, or null when the corpora are not beside the repository. */
export function loadCorpus(): CorpusRow[] | null {
  if (!existsSync(path.join(CORPORA_DIR, 'injection-extra/injections.jsonl'))) return null;
  const rows: CorpusRow[] = [];
  for (const [file, label] of [
    ['injection/injections.jsonl', 'injection'], ['injection-extra/injections.jsonl', 'injection'],
    ['injection/benign.jsonl', 'benign'], ['injection-extra/benign.jsonl', 'benign'],
  ] as const) {
    for (const r of readJsonl(file)) {
      const source = String(r['source']);
      const group = String(r['form'] ?? r['kind'] ?? FIRST_CORPUS_KINDS.find(([p]) => source.startsWith(p))?.[1] ?? 'other');
      rows.push({ text: String(r['text']), source, label, group, part: partOf(source) });
    }
  }
  return rows;
}
