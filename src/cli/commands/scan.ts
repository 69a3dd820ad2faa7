/**
 * `trc scan [FILE|-] [--jsonl] [--summary] [--by FIELD]`: run the instruction detector (T7).
 */
import { TextDecoder } from 'node:util';
import { NUMBER_KEPT_AS_TEXT, describeInexact, escapePointerToken, findInexactNumbers, keepExactDigits } from '../../contract/index.js';
import { detectInstructions, detectorRuleIds, ignoreListProblems, type Detection } from '../../trust/index.js';
import { type Command, UsageError, println } from '../io.js';
import { parseFlags } from '../flags.js';
import { InputError, MAX_JSON_BYTES, byteOrderMark, firstInvalidUtf8, formatBytes, openInput, skipUtf8Bom, type OpenedInput } from '../input.js';
import { readLines } from '../line-reader.js';
import { WindowedScan } from '../windowed-scan.js';

const HELP = `Usage: trc scan [FILE|-] [--jsonl] [--summary] [--by FIELD] [--text-field NAME] [--ignore RULE]...
       trc scan --list-rules

Detect instruction-like text (prompt injection) in untrusted text: web pages, mail, tickets,
tool output. The detector is deterministic and linear-time (no model, no network). It
normalizes the text first (NFKC, zero-width and bidi controls removed, Unicode tag characters
decoded, look-alike letters folded, whitespace collapsed) and reports the attack families that
fired with their character spans in the original text:

  override          "ignore previous instructions", "your new task is", prompt-leak requests
  role_marker       <|im_start|>, [INST], <<SYS>>, ###(system_message), fake Assistant:/User:
  addressed_to_ai   text written to the AI reading it ("note to the AI assistant ...")
  task_hijack       redirecting the task or the reply ("before you answer ...", "in your reply")
  tool_call         tool-call lookalikes: {"name":…,"arguments":…}, <tool_call>, ReAct Action:
  hidden_unicode    tag characters, bidi overrides, zero-width characters inside words
  exfiltration      markdown/HTML image links that carry data out in their query
  encoded_payload   base64/hex runs whose decoded text is itself instruction-like

A strong rule flags text on its own; weak rules flag it only when two different ones fire.
Flagged text is still only data: the defence is isolation and call policy, this is a signal.

Input (FILE, or stdin when FILE is "-" or absent):
  default    the whole input is one text, of any length: UTF-8 (bytes that are not UTF-8
             read as U+FFFD), or UTF-16 with a byte order mark. Text longer than 1 Mi
             characters is scanned in windows of 1 Mi that overlap by 64 Ki characters,
             so memory stays flat; a weak rule then pairs only with one in its window.
  --jsonl    one JSON object per line with a "text" field (blank lines skipped); other
             fields pass through as "id" (if present) and feed --by. A line may hold up to
             ${formatBytes(MAX_JSON_BYTES)}. A number in "id" or the --by field that a double cannot hold keeps
             its exact digits, as a string, with a NUMBER_KEPT_AS_TEXT warning.

Output: one JSON verdict per input, per line:
  {"line":3,"id":"x","instructional":true,"families":["override"],
   "spans":[{"family":"override","rule":"override.dismiss-prior","start":0,"end":32}]}

Options:
  --jsonl              read JSONL instead of one text
  --text-field NAME    JSONL field holding the text (default "text")
  --summary            print only the counts: inputs, flagged, flagged rate, per family
  --by FIELD           with --summary: also count per value of this JSONL field
                       (e.g. --by form prints recall per form of a labelled corpus)
  --ignore RULE        leave out a rule id, or every rule under a prefix ending in "."
                       (repeatable): try the ignoreDetectorRules of a tool before you set
                       it; a name no rule has is refused, with the nearest id
  --list-rules         print every rule id the detector can report, one per line
  -h, --help           show this help

Exit codes:
  0  no input was flagged
  1  at least one input is instruction-like
  2  usage error, unreadable input, a JSONL line that is not JSON, not UTF-8, without the
     text field or larger than ${formatBytes(MAX_JSON_BYTES)}

Examples:
  trc scan page.txt
  curl -s https://example.com | trc scan -
  trc scan --jsonl --summary --by form test/trust/fixtures/injections.jsonl
  trc scan --jsonl --summary test/trust/fixtures/benign.jsonl`;

interface Counts { inputs: number; flagged: number; families: Record<string, number> }

function bump(c: Counts, d: Detection): void {
  c.inputs++;
  if (!d.instructional) return;
  c.flagged++;
  for (const f of d.families) c.families[f] = (c.families[f] ?? 0) + 1;
}

function verdict(d: Detection): Record<string, unknown> {
  return {
    instructional: d.instructional,
    families: d.families,
    spans: d.spans.map((s) => ({ family: s.family, rule: s.rule, start: s.start, end: s.end })),
  };
}

type Scanner = () => WindowedScan;

/** Scan one text of any length. */
function detect(newScan: Scanner, text: string): Detection {
  const scan = newScan();
  scan.push(text);
  return scan.end();
}

/** The whole input as one text, decoded piece by piece (UTF-8, or UTF-16 by its byte order mark). */
async function scanWhole(newScan: Scanner, input: OpenedInput): Promise<Detection> {
  const scan = newScan();
  let decoder: TextDecoder | null = null;
  let head = Buffer.alloc(0);
  for await (const chunk of input.chunks) {
    if (decoder !== null) {
      scan.push(decoder.decode(chunk, { stream: true }));
      continue;
    }
    // The byte order mark needs the first three bytes; a pipe may deliver fewer.
    head = Buffer.concat([head, chunk]);
    if (head.length < 3) continue;
    decoder = new TextDecoder(byteOrderMark(head) ?? 'utf-8');
    scan.push(decoder.decode(head, { stream: true }));
  }
  if (decoder === null) {
    decoder = new TextDecoder(byteOrderMark(head) ?? 'utf-8');
    scan.push(decoder.decode(head, { stream: true }));
  }
  scan.push(decoder.decode());
  return scan.end();
}

/** What one JSONL line gave: a row with its text, or an error to print. */
type Row =
  | { readonly ok: true; readonly row: Record<string, unknown>; readonly text: string; readonly warnings: readonly Record<string, string>[] }
  | { readonly ok: false; readonly code: 'NOT_JSON' | 'NOT_UTF8' | 'NO_TEXT'; readonly message: string };

/** Parse one JSONL line; numbers in the echoed fields keep their exact digits. */
function readRow(bytes: Buffer, textField: string, echoed: readonly string[]): Row {
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) return { ok: false, code: 'NOT_UTF8', message: `byte 0x${(bytes[bad] as number).toString(16).padStart(2, '0')} at offset ${bad} starts no valid UTF-8 character` };
  const raw = bytes.toString('utf8');
  let row: unknown;
  try {
    row = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'NOT_JSON', message: 'line is not JSON' };
  }
  const text = row !== null && typeof row === 'object' && !Array.isArray(row) ? (row as Record<string, unknown>)[textField] : undefined;
  if (typeof text !== 'string') return { ok: false, code: 'NO_TEXT', message: `no string field "${textField}"` };
  const pointers = new Set(echoed.map((f) => '/' + escapePointerToken(f)));
  const inexact = findInexactNumbers(raw).filter((f) => pointers.has(f.pointer));
  keepExactDigits(row, inexact);
  const warnings = inexact.map((f) => ({ code: NUMBER_KEPT_AS_TEXT, pointer: f.pointer, message: describeInexact(f) }));
  return { ok: true, row: row as Record<string, unknown>, text, warnings };
}

export const command: Command = {
  name: 'scan',
  summary: 'detect instruction-like text (prompt injection) in untrusted text',
  help: HELP,
  async run(argv, io) {
    const parsed = parseFlags({
        args: [...argv],
        allowPositionals: true,
        options: {
          jsonl: { type: 'boolean', default: false },
          summary: { type: 'boolean', default: false },
          by: { type: 'string' },
          'text-field': { type: 'string' },
          ignore: { type: 'string', multiple: true },
          'list-rules': { type: 'boolean', default: false },
        },
      });
    const { values, positionals } = parsed;
    if (values['list-rules']) {
      if (positionals.length > 0) throw new UsageError('--list-rules reads no input');
      for (const id of [...detectorRuleIds()].sort()) println(io.stdout, id);
      return 0;
    }
    const ignoreRules = values.ignore ?? [];
    const refused = ignoreListProblems(ignoreRules, '/ignore');
    if (refused !== null) throw new UsageError(`--ignore: ${refused.map((p) => p.message).join('; ')}`);
    const newScan: Scanner = () => new WindowedScan((t) => detectInstructions(t, { ignoreRules }));
    if (positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${positionals.length}`);
    if (values.by !== undefined && !values.jsonl) throw new UsageError('--by needs --jsonl (it groups by a JSONL field)');
    if (values['text-field'] !== undefined && !values.jsonl) throw new UsageError('--text-field needs --jsonl (it names the JSONL field that holds the text)');
    if (values.by !== undefined && !values.summary) throw new UsageError('--by only applies to --summary');
    const total: Counts = { inputs: 0, flagged: 0, families: {} };
    const groups = new Map<string, Counts>();
    let badLines = 0;
    const input = await openInput(positionals[0] ?? '-', io);
    const { source } = input;
    try {
      if (!values.jsonl) {
        const d = await scanWhole(newScan, input);
        bump(total, d);
        if (!values.summary) println(io.stdout, JSON.stringify({ source, ...verdict(d) }));
      } else {
        const echoed = ['id', ...(values.by === undefined ? [] : [values.by])];
        for await (const { bytes: raw, number: line } of readLines(input.chunks, MAX_JSON_BYTES, source)) {
          const bytes = line === 1 ? skipUtf8Bom(raw, source) : raw;
          if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)) continue;
          const r = readRow(bytes, values['text-field'] ?? 'text', echoed);
          if (!r.ok) {
            badLines++;
            println(io.stdout, JSON.stringify({ line, error: { code: r.code, message: r.message } }));
            continue;
          }
          const d = detect(newScan, r.text);
          bump(total, d);
          if (values.by !== undefined) {
            const key = String(r.row[values.by] ?? '(none)');
            const g = groups.get(key) ?? { inputs: 0, flagged: 0, families: {} };
            bump(g, d);
            groups.set(key, g);
          }
          if (!values.summary) {
            const id = r.row['id'];
            println(io.stdout, JSON.stringify({ line, ...(id !== undefined ? { id } : {}), ...verdict(d), ...(r.warnings.length > 0 ? { warnings: r.warnings } : {}) }));
          }
        }
      }
    } catch (error) {
      if (error instanceof InputError) throw error;
      println(io.stderr, `trc scan: cannot read ${source}: ${(error as Error).message}`);
      return 2;
    } finally {
      await input.close();
    }
    if (values.summary) {
      const rate = (c: Counts): number => (c.inputs === 0 ? 0 : Math.round((c.flagged / c.inputs) * 10_000) / 10_000);
      const summary: Record<string, unknown> = { source, inputs: total.inputs, flagged: total.flagged, flagged_rate: rate(total), families: total.families };
      if (values.by !== undefined) {
        summary['by'] = { field: values.by, groups: Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [k, { inputs: c.inputs, flagged: c.flagged, flagged_rate: rate(c) }])) };
      }
      println(io.stdout, JSON.stringify(summary));
    }
    if (badLines > 0) return 2;
    return total.flagged > 0 ? 1 : 0;
  },
};
