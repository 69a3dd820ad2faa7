/**
 * `trc scan [FILE|-] [--jsonl] [--summary] [--by FIELD]`: run the instruction detector (T7).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { detectInstructions, type Detection } from '../../trust/index.js';
import { type CliIO, type Command, UsageError, println } from '../io.js';
import { parseFlags } from '../flags.js';

const HELP = `Usage: trc scan [FILE|-] [--jsonl] [--summary] [--by FIELD] [--text-field NAME]

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
  default    the whole input is one text
  --jsonl    one JSON object per line with a "text" field (blank lines skipped); other
             fields pass through as "id" (if present) and feed --by

Output: one JSON verdict per input, per line:
  {"line":3,"id":"x","instructional":true,"families":["override"],
   "spans":[{"family":"override","rule":"override.dismiss-prior","start":0,"end":32}]}

Options:
  --jsonl              read JSONL instead of one text
  --text-field NAME    JSONL field holding the text (default "text")
  --summary            print only the counts: inputs, flagged, flagged rate, per family
  --by FIELD           with --summary: also count per value of this JSONL field
                       (e.g. --by form prints recall per form of a labelled corpus)
  -h, --help           show this help

Exit codes:
  0  no input was flagged
  1  at least one input is instruction-like
  2  usage error, unreadable input, or a JSONL line without the text field

Examples:
  trc scan page.txt
  curl -s https://example.com | trc scan -
  trc scan --jsonl --summary --by form ../shared/corpora/injection/injections.jsonl
  trc scan --jsonl --summary ../shared/corpora/injection/benign.jsonl`;

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

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function openInput(file: string | undefined, io: CliIO): Readable {
  if (file === undefined || file === '-') return io.stdin;
  return createReadStream(file);
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
          'text-field': { type: 'string', default: 'text' },
        },
      });
    const { values, positionals } = parsed;
    if (positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${positionals.length}`);
    if (values.by !== undefined && !values.jsonl) throw new UsageError('--by needs --jsonl (it groups by a JSONL field)');
    if (values.by !== undefined && !values.summary) throw new UsageError('--by only applies to --summary');
    const file = positionals[0];
    const source = file === undefined || file === '-' ? '<stdin>' : file;
    const total: Counts = { inputs: 0, flagged: 0, families: {} };
    const groups = new Map<string, Counts>();
    let badLines = 0;
    const input = openInput(file, io);
    try {
      if (!values.jsonl) {
        const d = detectInstructions(await readAll(input));
        bump(total, d);
        if (!values.summary) println(io.stdout, JSON.stringify({ source, ...verdict(d) }));
      } else {
        const lines = createInterface({ input, crlfDelay: Infinity });
        let line = 0;
        for await (const raw of lines) {
          line++;
          if (raw.trim() === '') continue;
          let row: unknown;
          try { row = JSON.parse(raw); } catch (e) { row = undefined; void e; }
          const text = row !== null && typeof row === 'object' ? (row as Record<string, unknown>)[values['text-field']] : undefined;
          if (typeof text !== 'string') {
            badLines++;
            println(io.stdout, JSON.stringify({ line, error: { code: row === undefined ? 'NOT_JSON' : 'NO_TEXT', message: row === undefined ? 'line is not JSON' : `no string field "${values['text-field']}"` } }));
            continue;
          }
          const d = detectInstructions(text);
          bump(total, d);
          const rec = row as Record<string, unknown>;
          if (values.by !== undefined) {
            const key = String(rec[values.by] ?? '(none)');
            const g = groups.get(key) ?? { inputs: 0, flagged: 0, families: {} };
            bump(g, d);
            groups.set(key, g);
          }
          if (!values.summary) {
            println(io.stdout, JSON.stringify({ line, ...(rec['id'] !== undefined ? { id: rec['id'] } : {}), ...verdict(d) }));
          }
        }
      }
    } catch (error) {
      println(io.stderr, `trc scan: cannot read ${source}: ${(error as Error).message}`);
      return 2;
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
