/**
 * Score the detector on the project's own labelled fixtures (test/trust/fixtures/, written by
 * scripts/trust-fixtures.ts): recall per attack form, false positives on benign tool output.
 * The development corpus beside the repository is for `npm run bench -- trust` only.
 */
import { readFileSync } from 'node:fs';
import { detectInstructions } from '../../src/trust/index.js';

/** The fixture directory. */
export const FIXTURES = new URL('./fixtures/', import.meta.url);

interface Row { readonly id: string; readonly text: string; readonly form: string }

function readJsonl(file: string): Row[] {
  return readFileSync(new URL(file, FIXTURES), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row);
}

/** Per-form recall and benign false positives. */
export interface CorpusScore {
  readonly recall: Record<string, { flagged: number; total: number; rate: number }>;
  readonly overall: { flagged: number; total: number; rate: number };
  readonly benign: { flagged: number; total: number; rate: number; examples: string[] };
}

/** Score the detector on the fixtures. */
export function scoreFixtures(): CorpusScore {
  const recall: CorpusScore['recall'] = {};
  let flaggedAll = 0;
  const injections = readJsonl('injections.jsonl');
  for (const row of injections) {
    const r = (recall[row.form] ??= { flagged: 0, total: 0, rate: 0 });
    r.total++;
    if (detectInstructions(row.text).instructional) {
      r.flagged++;
      flaggedAll++;
    }
  }
  for (const r of Object.values(recall)) r.rate = r.flagged / r.total;
  const benignRows = readJsonl('benign.jsonl');
  const examples: string[] = [];
  let flagged = 0;
  for (const row of benignRows) {
    if (detectInstructions(row.text).instructional) { flagged++; examples.push(row.text.slice(0, 120)); }
  }
  return {
    recall,
    overall: { flagged: flaggedAll, total: injections.length, rate: flaggedAll / injections.length },
    benign: { flagged, total: benignRows.length, rate: flagged / benignRows.length, examples },
  };
}
