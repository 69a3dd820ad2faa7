/**
 * `trc validate [FILE|-] [--json] [--minimal]`: check one envelope or a JSONL stream of them.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { parseJson, validateText, type Finding, type Profile, type TextValidation } from '../../contract/index.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { parseFlags } from '../flags.js';
import { InputError, InputTooLargeError, MAX_JSON_BYTES, firstInvalidUtf8, formatBytes, openInput, skipUtf8Bom, type OpenedInput } from '../input.js';
import { readLines } from '../line-reader.js';

const HELP = `Usage: trc validate [FILE...|-] [--json] [--minimal]

Check tool result envelopes against the agent.tool.result.v1 contract: the JSON Schema
(draft 2020-12) and the semantic invariants (status vs data vs error, completeness and
cursors, observed_at vs retrieved_at, result_digest, side effects, evidence pointers).

Input (each FILE in turn, or stdin when FILE is "-" or absent) is either
  - one JSON document holding one envelope (may span many lines), or
  - JSONL: one envelope per line (blank lines are skipped).
The format is detected: a first line that is JSON on its own means JSONL. JSONL is read
line by line, so inputs larger than memory are fine; one line (or a whole document) may
hold up to ${formatBytes(MAX_JSON_BYTES)}. The text must be UTF-8 (a byte order mark is
skipped); UTF-16 is refused.

Numbers a double cannot hold (1e400, integers beyond 2^53 that would print differently,
more digits than a double keeps) are errors, rule JSON.number-not-exact, at their pointer:
every JavaScript reader would change them silently. Send them as strings. A member name
repeated in one object is an error too, rule JSON.duplicate-key, at the repeat: readers
disagree on which of the two values counts.

Output, per envelope:
  <source>[:<line>]  OK                         valid (warnings, if any, are listed)
  <source>[:<line>]  <severity>  <rule>  <pointer>  <message>   one line per finding
  <source>:<line>:<column>  not JSON: <reason>  input that does not parse

Options:
  --json      machine output: one JSON object per envelope, per line:
              {"source","line","valid","findings":[{"rule","pointer","message","severity"}]}
              or, for input that is not JSON, {"source","line","valid":false,"error":{...}}
  --minimal   check against the minimal profile (S11) instead of the full envelope
  -h, --help  show this help

Exit codes:
  0  every envelope is valid (warnings allowed)
  1  at least one envelope breaks the contract
  2  usage error, unreadable input, input that is not JSON or not UTF-8, input over the
     size limit, or no envelope at all

Examples:
  trc validate examples/order-lookup.json
  cat results.jsonl | trc validate --json
  trc validate --minimal legacy-tool-output.json`;

/** One envelope's report, as `--json` prints it. */
interface EnvelopeReport {
  source: string;
  line: number | null;
  valid: boolean;
  findings?: readonly Finding[];
  error?: { code: 'NOT_JSON'; message: string; line: number; column: number };
}

class Reporter {
  envelopes = 0;
  invalid = 0;
  notJson = 0;
  constructor(
    private readonly io: CliIO,
    private readonly json: boolean,
  ) {}

  /** Print one report; waits for a slow reader so a long stream never piles up in memory. */
  async emit(report: EnvelopeReport): Promise<void> {
    this.envelopes++;
    if (report.error !== undefined) this.notJson++;
    else if (!report.valid) this.invalid++;
    await write(this.io.stdout, this.format(report));
  }

  private format(report: EnvelopeReport): string {
    if (this.json) return JSON.stringify(report);
    const where = report.line === null ? report.source : `${report.source}:${report.line}`;
    if (report.error !== undefined) {
      return `${report.source}:${report.error.line}:${report.error.column}  not JSON: ${report.error.message}`;
    }
    const out: string[] = report.valid ? [`${where}  OK`] : [];
    for (const f of report.findings ?? []) {
      const pointer = f.pointer === '' ? '""' : f.pointer;
      out.push(`${where}  ${f.severity}  ${f.rule}  ${pointer}  ${f.message}`);
    }
    return out.join('\n');
  }

  summary(): void {
    if (this.json || this.envelopes <= 1) return;
    const valid = this.envelopes - this.invalid - this.notJson;
    const parts = [`${valid} valid`, `${this.invalid} invalid`];
    if (this.notJson > 0) parts.push(`${this.notJson} not JSON`);
    println(this.io.stderr, `${this.envelopes} envelopes: ${parts.join(', ')}`);
  }

  exitCode(): number {
    if (this.notJson > 0) return 2;
    return this.invalid > 0 ? 1 : 0;
  }
}

async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text + '\n')) await once(stream, 'drain');
}

/** The report of one parsed envelope (numbers a double cannot hold are errors: see validateText). */
function reportOf(checked: TextValidation & { ok: true }, source: string, line: number | null): EnvelopeReport {
  return { source, line, valid: checked.valid, findings: checked.findings };
}

/** Where a text that JSON.parse refused stops being JSON. */
function notJson(source: string, line: number | null, text: string, lineOffset: number): EnvelopeReport {
  const parsed = parseJson(text);
  const at = parsed.ok ? { message: 'not JSON', line: 1, column: 1 } : parsed;
  const hint = text.includes('\u0000') ? ' (the input holds NUL bytes: UTF-16 without a byte order mark, or binary data?)' : '';
  return {
    source,
    line,
    valid: false,
    error: { code: 'NOT_JSON', message: at.message + hint, line: at.line + lineOffset, column: at.column },
  };
}

/** A line whose bytes are not UTF-8, reported like text that is not JSON. */
function notUtf8(source: string, line: number | null, bytes: Buffer, bad: number, lineNo: number): EnvelopeReport {
  const column = bytes.subarray(0, bad).toString('utf8').length + 1;
  const message = `invalid UTF-8: byte 0x${(bytes[bad] as number).toString(16).padStart(2, '0')} starts no valid character`;
  return { source, line, valid: false, error: { code: 'NOT_JSON', message, line: lineNo, column } };
}

/**
 * Read `input` line by line. The first non-blank line decides the format: if it parses on its
 * own, the input is JSONL (two JSON values cannot form one document) and is streamed; if not,
 * the input is one multi-line document and must be read whole (up to the size limit).
 */
async function run(input: OpenedInput, profile: Profile, reporter: Reporter): Promise<void> {
  const { source } = input;
  let mode: 'detect' | 'jsonl' | 'document' = 'detect';
  const held: string[] = [];
  let heldBytes = 0;
  let badUtf8: EnvelopeReport | undefined;
  // Lines with invalid UTF-8 before the format is known, by line number: JSONL reports each.
  const badLines = new Map<number, EnvelopeReport>();
  // The first JSONL report waits for a second line: a one-line file is a plain document.
  let first: EnvelopeReport | undefined;
  try {
    for await (const { bytes: raw, number: lineNo } of readLines(input.chunks, MAX_JSON_BYTES, source)) {
      const bytes = lineNo === 1 ? skipUtf8Bom(raw, source) : raw;
      const bad = firstInvalidUtf8(bytes);
      if (bad !== -1) {
        const report = notUtf8(source, lineNo, bytes, bad, lineNo);
        if (mode === 'jsonl') {
          if (first !== undefined) await reporter.emit(first);
          first = undefined;
          await reporter.emit(report);
          continue;
        }
        // In a document the first bad byte is the report; in JSONL found out at the end, each bad
        // line is (its place is kept so the line numbers stay right).
        badUtf8 ??= { ...report, line: null };
        if (badLines.size < 10_000) badLines.set(lineNo, report);
        mode = 'document';
        heldBytes += 1;
        held.push('');
        continue;
      }
      const line = bytes.toString('utf8');
      if (mode === 'document') {
        heldBytes += bytes.length + 1;
        if (heldBytes > MAX_JSON_BYTES) throw new InputTooLargeError(`${source}: the document`, MAX_JSON_BYTES);
        held.push(line);
        continue;
      }
      if (line.trim() === '') {
        if (mode === 'detect') held.push(line);
        continue;
      }
      if (mode === 'detect') {
        const checked = validateText(line, { profile });
        if (!checked.ok) {
          mode = 'document';
          heldBytes += bytes.length + 1;
          held.push(line);
          continue;
        }
        mode = 'jsonl';
        held.length = 0;
        first = reportOf(checked, source, lineNo);
        continue;
      }
      if (first !== undefined) {
        await reporter.emit(first);
        first = undefined;
      }
      await reporter.emit(jsonlLine(line, lineNo, source, profile));
    }
  } catch (error) {
    // A later line too large (or unreadable) must not lose the report of the line before it.
    if (first !== undefined) await reporter.emit(first);
    throw error;
  }
  if (first !== undefined) await reporter.emit({ ...first, line: null });
  if (mode === 'jsonl') return;
  if (mode === 'detect') throw new InputError(`${source}: no envelope in the input (it is empty)`);
  if (badUtf8 !== undefined) {
    if (!looksLikeJsonl(held)) return reporter.emit(badUtf8);
    // JSONL with a line of invalid UTF-8: that line's report, and every other line's.
    for (const [i, l] of held.entries()) {
      const bad = badLines.get(i + 1);
      if (bad !== undefined) await reporter.emit(bad);
      else if (l.trim() !== '') await reporter.emit(jsonlLine(l, i + 1, source, profile));
    }
    return;
  }
  const text = held.join('\n');
  held.length = 0;
  const checked = validateText(text, { profile });
  if (checked.ok) {
    await reporter.emit(reportOf(checked, source, null));
  } else if (looksLikeJsonl(text.split('\n'))) {
    // JSONL whose first line is broken: report line by line rather than one document error.
    for (const [i, l] of text.split('\n').entries()) {
      if (l.trim() !== '') await reporter.emit(jsonlLine(l, i + 1, source, profile));
    }
  } else {
    await reporter.emit(notJson(source, null, text, 0));
  }
}

function jsonlLine(line: string, lineNo: number, source: string, profile: Profile): EnvelopeReport {
  const checked = validateText(line, { profile });
  return checked.ok ? reportOf(checked, source, lineNo) : notJson(source, lineNo, line, lineNo - 1);
}

/** Most non-blank lines (and at least two) are JSON objects on their own. */
function looksLikeJsonl(lines: readonly string[]): boolean {
  let objects = 0;
  let nonBlank = 0;
  for (const l of lines) {
    const t = l.trim();
    if (t === '') continue;
    nonBlank++;
    if (t.startsWith('{') && t.endsWith('}') && parseJson(t).ok) objects++;
  }
  return objects >= 2 && objects * 2 > nonBlank;
}

/** `trc validate`. */
export const command: Command = {
  name: 'validate',
  summary: 'check envelopes (a file or a JSONL stream) against the contract',
  help: HELP,
  async run(argv, io) {
    const parsed = parseFlags({
        args: [...argv],
        options: { json: { type: 'boolean', default: false }, minimal: { type: 'boolean', default: false } },
        allowPositionals: true,
        strict: true,
      });
    const { values, positionals } = parsed;
    const profile: Profile = values.minimal ? 'minimal' : 'full';
    const reporter = new Reporter(io, values.json);
    const files = positionals.length === 0 ? ['-'] : positionals;
    if (files.filter((f) => f === '-').length > 1) throw new UsageError('stdin ("-") can be read only once');
    // Every file is checked even when an earlier one cannot be read; the exit code is the worst.
    let ioFailed = false;
    for (const file of files) {
      let input;
      try {
        input = await openInput(file, io);
      } catch (cause) {
        println(io.stderr, `trc validate: ${(cause as Error).message}`);
        ioFailed = true;
        continue;
      }
      try {
        await run(input, profile, reporter);
      } catch (cause) {
        const message = cause instanceof InputError ? cause.message : `cannot read ${input.source}: ${(cause as Error).message}`;
        println(io.stderr, `trc validate: ${message}`);
        ioFailed = true;
      } finally {
        await input.close();
      }
    }
    if (ioFailed) return 2;
    reporter.summary();
    return reporter.exitCode();
  },
};
