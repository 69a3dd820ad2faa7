/**
 * The terminal rendering of a demo transcript: per step the calls, what the model would read
 * (boxed, long texts cut with a pointer to `--json`), a verdict line; then the closing table.
 * Colour only when asked for (a TTY without NO_COLOR).
 */
import type { DemoCall, DemoStep, DemoTranscript } from './transcript.js';

/** Options of {@link renderText}. */
export interface RenderOptions {
  readonly color: boolean;
  /** Lines of model-facing text shown per call before cutting the middle (default 28). */
  readonly maxLines?: number;
}

interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  good(s: string): string;
  bad(s: string): string;
}

function paint(color: boolean): Paint {
  const wrap = (code: string) => (s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { bold: wrap('1'), dim: wrap('2'), good: wrap('32'), bad: wrap('31') };
}

function modelBox(text: string, maxLines: number, p: Paint): string[] {
  const lines = text.split('\n');
  const bar = p.dim('  │ ');
  // Cutting only pays off when it hides a real run of lines.
  if (lines.length <= maxLines + 8) return lines.map((l) => bar + l);
  // Keep the head (status, first facts) and the tail (summary, completeness, external content).
  const head = Math.ceil(maxLines * 0.4);
  const tail = maxLines - head;
  return [
    ...lines.slice(0, head).map((l) => bar + l),
    p.dim(`  │ … ${lines.length - maxLines} more lines (the full text is in --json)`),
    ...lines.slice(-tail).map((l) => bar + l),
  ];
}

function renderCall(c: DemoCall, maxLines: number, p: Paint): string[] {
  return [
    `${p.bold('→ ' + c.tool)} ${JSON.stringify(c.args)}  ${p.dim(c.call_id)}`,
    `  ${p.dim('status')} ${c.status}  ${p.dim('completeness')} ${c.completeness}  ${p.dim('— what the model reads:')}`,
    ...modelBox(c.model_sees, maxLines, p),
  ];
}

function renderStep(s: DemoStep, maxLines: number, p: Paint): string[] {
  const out = ['', p.bold(`━━ Step ${s.step} · ${s.title}`)];
  for (const c of s.calls) out.push(...renderCall(c, maxLines, p));
  for (const n of s.notes) out.push(`  ${p.dim('·')} ${n}`);
  out.push(s.ok ? p.good(`✓ ${s.verdict}`) : p.bad(`✗ ${s.verdict}`));
  return out;
}

/** Error and warning codes of a call, for the table rows after a step's first. */
function callCodes(c: DemoCall): string {
  const codes = c.envelope.warnings.map((w) => (typeof w === 'string' ? '' : w.code)).filter((w) => w !== '');
  if (c.envelope.error) codes.unshift(`${c.envelope.error.code}${c.envelope.error.retryable ? ' (retryable)' : ''}`);
  return codes.join(', ');
}

/** Rows of the closing table: one per call, the step's key facts on its first row. */
function tableRows(t: DemoTranscript): string[][] {
  const rows: string[][] = [];
  for (const s of t.steps) {
    if (s.calls.length === 0) rows.push([String(s.step), 'checkAnswer', '-', '-', s.key_facts]);
    s.calls.forEach((c, i) => rows.push([i === 0 ? String(s.step) : '', c.tool, c.status, c.completeness, i === 0 ? s.key_facts : callCodes(c)]));
  }
  return rows;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/**
 * Render a transcript for a terminal.
 * @example io.stdout.write(renderText(transcript, { color: false }))
 */
export function renderText(t: DemoTranscript, options: RenderOptions): string {
  const p = paint(options.color);
  const maxLines = options.maxLines ?? 28;
  const out = [
    p.bold(`trc demo — a scripted agent session, no LLM (run ${t.run_id})`),
    `${p.dim('trc store:')} ${t.store_path}`,
    `${p.dim('business database:')} ${t.world_path}`,
  ];
  for (const s of t.steps) out.push(...renderStep(s, maxLines, p));
  out.push('', p.bold('━━ Summary'), ...table(['step', 'tool', 'status', 'completeness', 'key facts'], tableRows(t)));
  const passed = t.steps.filter((s) => s.ok).length;
  out.push('', t.ok ? p.good(`${passed}/${t.steps.length} steps behaved as expected (${t.duration_ms} ms)`) : p.bad(`${passed}/${t.steps.length} steps behaved as expected (${t.duration_ms} ms)`));
  out.push('', 'The audit of every call stays in the trc store. Inspect it with:', ...t.inspect.map((c) => `  ${c.command}  ${p.dim('# ' + c.purpose)}`), '');
  return out.join('\n');
}
