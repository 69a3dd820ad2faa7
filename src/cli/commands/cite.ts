/**
 * `trc cite --results FILE.jsonl --answer FILE.txt [--json]`: check an answer's claims against
 * the evidence of the tool results it was written from.
 */
import { TextDecoder } from 'node:util';
import { findInexactNumbers, keepExactDigits, parseJson, validateKeptDigits, type Envelope, type InexactNumber } from '../../contract/index.js';
import { checkAnswer, zoneOffset, VERDICTS, type AnswerCheck, type FreshnessPolicy, type Verdict } from '../../evidence/index.js';
import { instantOf } from '../../contract/date-time.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { parseFlags } from '../flags.js';
import { printable } from '../terminal-text.js';
import { InputError, MAX_JSON_BYTES, byteOrderMark, decodeJsonText, firstInvalidUtf8, formatBytes, openInput, readAllLimited } from '../input.js';

/** The most an answer may hold: 16 MiB of text. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const HELP = `Usage: trc cite --results FILE --answer FILE [--json] [--now TIME]
                [--max-age DURATION] [--source-max-age SOURCE=DURATION]... [--allow-stale]
                [--assume-zone ZONE]

Check each claim of a model's answer against the evidence in the tool results it cites.
The answer is split into sentences (CJK 。！？ and Latin . ! ? and line breaks; decimals,
abbreviations and ids with dots do not end a sentence). Citation markers are [ev_001],
[ev_001, ev_002], [ev_001][ev_002] or 【ev_001】; a marker right after the full stop belongs
to the sentence before it. Each claim gets one verdict (the first that applies):

  unknown_id   cites an evidence id that no result contains
  uncited      states a value (number, date/time, id, quoted text), a total or an outcome
               but cites nothing
  overreach    says more than the results allow: a total or "all"/"共"/"全部" from a result
               that is not complete; a total or conclusion across several results (or an
               unresolved conflict) with no declared calculation; one side of an unresolved
               conflict; an unknown outcome called a success or a failure
  unsupported  a value in the claim differs from, or is absent in, what the cited evidence
               supports (its "supports" pointers), or the result is marked non-citable
  stale        the cited evidence is older than its source's freshness allows (needs --now
               and --max-age or --source-max-age)
  supported    every value agrees with the cited evidence

Values match by meaning, not format: "2026-08-31 18:20 (UTC+8)" or "18:20（中国标准时间）"
match 2026-08-31T10:20:00Z, "1,000" matches 1000, "17 件" matches 17; "18:20 UTC" does not
match 10:20Z. Sentences with no marker and nothing checkable are listed as remarks.

Options:
  --results FILE              tool result envelopes: JSONL (one per line), one JSON array or
                              one envelope; "-" reads stdin (UTF-8, up to ${formatBytes(MAX_JSON_BYTES)})
  --answer FILE               the answer text (UTF-8, or UTF-16 with a byte order mark; up
                              to ${formatBytes(MAX_ANSWER_BYTES)}); "-" reads stdin
  --json                      print the full report as one JSON object
  --now TIME                  judge staleness at this RFC 3339 time, offset included
                              (2026-09-01T03:00:00Z; default: the clock, when a max age
                              is given)
  --max-age DURATION          default maximum age of evidence, e.g. 90s, 15m, 2h, 7d
  --source-max-age SRC=DUR    maximum age for one source (evidence source name/id, provenance
                              source_id or source_type); repeatable
  --allow-stale               do not fail on stale claims (still reported)
  --assume-zone ZONE          read times the answer states without a zone in ZONE, e.g. UTC+8
                              or 北京时间 (default: in the zone of the source value)
  -h, --help                  show this help

Exit codes:
  0  every claim is supported (stale ones too, with --allow-stale)
  1  at least one claim is unsupported, uncited, unknown_id, overreach, or stale
     (stale fails by default: an answer built on outdated reads may be wrong now)
  2  usage error, unreadable input, input over its size limit, or a result that is not
     a valid envelope

An absent warnings (or evidence, untrusted_content, conflicts) list in a result means none.
A number a double cannot hold keeps its exact digits (as a string) for the check, with a
JSON.number-not-exact warning on stderr, so a claim stating those digits can be supported.

Examples:
  trc cite --results results.jsonl --answer answer.txt
  trc cite --results results.jsonl --answer - --json < answer.txt
  trc cite --results r.jsonl --answer a.txt --now 2026-09-01T03:00:00Z --source-max-age inventory=5m`;

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function parseDuration(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|[smhd])$/.exec(text.trim());
  const unit = m?.[2] === undefined ? undefined : UNITS[m[2]];
  if (m === null || unit === undefined) throw new UsageError(`${flag}: "${text}" is not a duration like 90s, 15m, 2h or 7d`);
  return Number(m[1]) * unit;
}

/** Read FILE or stdin whole, up to `limit` bytes. */
async function readBytes(path: string, io: CliIO, what: string, limit: number): Promise<{ bytes: Buffer; source: string }> {
  const input = await openInput(path, io);
  try {
    return { bytes: await readAllLimited(input.chunks, limit, `${what} ${input.source}`), source: input.source };
  } finally {
    await input.close();
  }
}

/** Answer text: UTF-8 (a byte order mark is dropped), or UTF-16 by its byte order mark. */
function decodeAnswer(bytes: Buffer, source: string): string {
  const bom = byteOrderMark(bytes);
  if (bom === 'utf-16le' || bom === 'utf-16be') return new TextDecoder(bom).decode(bytes);
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) throw new InputError(`answer ${source} is not UTF-8: byte 0x${(bytes[bad] as number).toString(16).padStart(2, '0')} at offset ${bad} starts no valid character`);
  return new TextDecoder('utf-8').decode(bytes);
}

/** One result document, read from text: numbers a double cannot hold keep their digits. */
function exactValue(value: unknown, text: string): { value: unknown; inexact: InexactNumber[] } {
  const inexact = findInexactNumbers(text);
  return { value: inexact.length === 0 ? value : keepExactDigits(value, inexact), inexact };
}

/** Parse JSONL or a JSON array of envelopes; any problem is an InputError naming the line. */
function parseResults(text: string, name: string): { envelopes: Envelope[]; warnings: string[] } {
  const trimmed = text.trim();
  const docs: { line: number; value: unknown; inexact: InexactNumber[] }[] = [];
  // A JSON array of envelopes, or one envelope (pretty-printed, as `trc validate` and editors
  // write it); otherwise JSON Lines.
  const whole = trimmed.startsWith('[') || trimmed.startsWith('{') ? parseJson(trimmed) : null;
  const single = whole !== null && whole.ok && !Array.isArray(whole.value) && trimmed.includes('\n');
  if (single) {
    docs.push({ line: 1, ...exactValue(whole.value, trimmed) });
  } else if (whole !== null && whole.ok && Array.isArray(whole.value)) {
    const exact = exactValue(whole.value, trimmed);
    (exact.value as unknown[]).forEach((value, i) => {
      const own = exact.inexact.filter((f) => f.pointer.startsWith(`/${i}/`)).map((f) => ({ ...f, pointer: f.pointer.slice(`/${i}`.length) }));
      docs.push({ line: i, value, inexact: own });
    });
  } else {
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      const r = parseJson(raw);
      if (!r.ok) throw new InputError(`${name}:${i + 1}:${r.column}: not JSON: ${r.message}`);
      docs.push({ line: i + 1, ...exactValue(r.value, raw) });
    });
  }
  if (docs.length === 0) throw new InputError(`${name}: no tool results in the file`);
  const envelopes: Envelope[] = [];
  const warnings: string[] = [];
  for (const { line, value, inexact } of docs) {
    const where = single ? name : whole !== null && whole.ok && Array.isArray(whole.value) ? `${name}[${line}]` : `${name}:${line}`;
    const r = validateKeptDigits(value, inexact);
    const schema = r.findings.filter((f) => f.rule === 'SCHEMA');
    if (schema.length > 0) {
      throw new InputError(`${where}: not a valid envelope: ${schema.map((f) => `${f.pointer === '' ? '(root)' : f.pointer} ${f.message}`).join('; ')}`);
    }
    for (const f of r.findings) warnings.push(`${where}: ${f.severity} ${f.rule} ${f.pointer} ${f.message}`);
    envelopes.push(value as Envelope);
  }
  return { envelopes, warnings };
}

function printHuman(io: CliIO, report: AnswerCheck, failing: ReadonlySet<Verdict>): void {
  const width = Math.max(...VERDICTS.map((v) => v.length));
  for (const c of report.claims) {
    const mark = failing.has(c.verdict) ? '✗' : '✓';
    // The answer is a model's text (and reasons quote it): printed inert on the terminal.
    println(io.stdout, `${mark} ${c.verdict.padEnd(width)}  #${c.index + 1}  ${printable(c.text.replace(/\s+/g, ' '))}`);
    for (const r of c.reasons) println(io.stdout, `${' '.repeat(width + 4)}${printable(r)}`);
  }
  const parts = VERDICTS.filter((v) => report.counts[v] > 0).map((v) => `${report.counts[v]} ${v}`);
  const remarks = report.remarks.length === 0 ? '' : ` · ${report.remarks.length} remark(s) without values not checked`;
  println(io.stdout, `${report.claims.length} claim(s): ${parts.length === 0 ? 'none' : parts.join(', ')}${remarks}`);
}

async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseFlags({
      args: [...argv],
      options: {
        results: { type: 'string' },
        answer: { type: 'string' },
        json: { type: 'boolean', default: false },
        now: { type: 'string' },
        'max-age': { type: 'string' },
        'source-max-age': { type: 'string', multiple: true },
        'allow-stale': { type: 'boolean', default: false },
        'assume-zone': { type: 'string' },
      },
      allowPositionals: false,
      strict: true,
    });
  if (values.results === undefined) throw new UsageError('--results FILE is required');
  if (values.answer === undefined) throw new UsageError('--answer FILE is required');
  if (values.results === '-' && values.answer === '-') throw new UsageError('only one of --results and --answer can read stdin');
  // Strict RFC 3339 with its offset: Date.parse would take "1" or a zone-less time (read in the
  // machine's zone), and judge staleness at a time nobody meant.
  const now = values.now === undefined ? undefined : instantOf(values.now);
  if (now === null) throw new UsageError(`--now: "${values.now ?? ''}" is not an RFC 3339 time with its offset, e.g. 2026-09-01T03:00:00Z`);
  const sources: Record<string, number> = {};
  for (const entry of values['source-max-age'] ?? []) {
    const eq = entry.lastIndexOf('=');
    if (eq <= 0) throw new UsageError(`--source-max-age: "${entry}" is not SOURCE=DURATION`);
    sources[entry.slice(0, eq)] = parseDuration(entry.slice(eq + 1), '--source-max-age');
  }
  const freshness: FreshnessPolicy | undefined =
    values['max-age'] === undefined && Object.keys(sources).length === 0
      ? undefined
      : { sources, ...(values['max-age'] === undefined ? {} : { default: parseDuration(values['max-age'], '--max-age') }) };
  const failOn = VERDICTS.filter((v) => v !== 'supported' && !(v === 'stale' && values['allow-stale']));
  const results = await readBytes(values.results, io, 'results', MAX_JSON_BYTES);
  const parsed = parseResults(decodeJsonText(results.bytes, `results ${results.source}`), results.source);
  const answerInput = await readBytes(values.answer, io, 'answer', MAX_ANSWER_BYTES);
  const answer = decodeAnswer(answerInput.bytes, answerInput.source);
  for (const w of parsed.warnings) println(io.stderr, `trc cite: warning: ${w}`);
  if (values['assume-zone'] !== undefined && zoneOffset(values['assume-zone']) === null) {
    throw new UsageError(`--assume-zone: "${values['assume-zone']}" is not a zone like UTC+8, +05:30, UTC or 北京时间`);
  }
  const options = {
    failOn,
    ...(values['assume-zone'] === undefined ? {} : { assumeZone: values['assume-zone'] }),
    ...(freshness === undefined ? {} : { freshness, now: now ?? new Date().toISOString() }),
  };
  const report = checkAnswer(answer, parsed.envelopes, options);
  if (values.json) println(io.stdout, JSON.stringify({ results: parsed.envelopes.length, ...report }));
  else printHuman(io, report, new Set(failOn));
  return report.ok ? 0 : 1;
}

/** The `trc cite` command. */
export const command: Command = {
  name: 'cite',
  summary: "check an answer's claims against the evidence of tool results",
  help: HELP,
  run,
};
