/**
 * Load the labelled injection corpus (../shared/corpora/injection beside the repository) and
 * score the detector on it: recall per `form`, false-positive rate on benign text.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectInstructions } from '../../src/trust/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the development corpus lives (heldout.enc in it is never read). */
export const CORPUS_DIR = path.resolve(repoRoot, '../shared/corpora/injection');

interface Row { readonly text: string; readonly form?: string; readonly source: string }

function readJsonl(file: string): Row[] {
  return readFileSync(path.join(CORPUS_DIR, file), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row);
}

/** Per-form recall and benign false positives. */
export interface CorpusScore {
  readonly recall: Record<string, { flagged: number; total: number; rate: number }>;
  readonly benign: { flagged: number; total: number; rate: number; examples: string[] };
}

/** Score the detector on the development corpus. */
export function scoreCorpus(): CorpusScore {
  const recall: CorpusScore['recall'] = {};
  for (const row of readJsonl('injections.jsonl')) {
    const form = row.form ?? 'unlabelled';
    const r = (recall[form] ??= { flagged: 0, total: 0, rate: 0 });
    r.total++;
    if (detectInstructions(row.text).instructional) r.flagged++;
  }
  for (const r of Object.values(recall)) r.rate = r.flagged / r.total;
  const benignRows = readJsonl('benign.jsonl');
  const examples: string[] = [];
  let flagged = 0;
  for (const row of benignRows) {
    if (detectInstructions(row.text).instructional) { flagged++; examples.push(row.text.slice(0, 120)); }
  }
  return { recall, benign: { flagged, total: benignRows.length, rate: flagged / benignRows.length, examples } };
}
