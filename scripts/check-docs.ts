// The docs name only what exists: every `trc` command and flag named in README.md, docs/*.md
// and the commands' --help texts is accepted by the CLI, and every repository path they name
// is in the repository. Run: `npx tsx scripts/check-docs.ts` (exit 1 with one line per
// problem); test/repo/docs-match.test.ts runs it in `npm test`.
//
// A command mention is `trc WORD …` in a markdown code span or code block, or on a line of a
// --help text; its flags are the `--flags` that follow on that span or line, up to a bare `--`
// (what follows belongs to the upstream server). A flag is checked by running the command
// in-process with `--flag=x --trc-no-such-flag`: the parser then names the no-such flag (the
// flag was accepted) or says the flag takes no value (a boolean it knows), never that the flag
// itself is unknown. Nothing runs past flag parsing.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.js';
import { COMMANDS } from '../src/cli/registry.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PATH_ROOTS = ['src', 'test', 'docs', 'examples', 'schema', 'scripts', 'bench', '.ci'];
const PATH_IN_TEXT = new RegExp(`(?<![\\w./-])(?:\\./)?((?:${PATH_ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[A-Za-z0-9_.*/-]*)`, 'gu');

/** One text to check: where it comes from and the snippets that may name commands. */
export interface DocText {
  readonly source: string;
  readonly text: string;
  /** Markdown (commands only in code) or a --help text (commands on any line). */
  readonly kind: 'markdown' | 'help';
}

/** A mention of a command with the flags after it, and where it was seen. */
interface Mention {
  readonly where: string;
  readonly command: string;
  readonly flags: readonly string[];
  readonly outside: readonly string[];
}

/** A markdown text with its fenced blocks blanked (line count kept). */
function withoutFences(markdown: string): { prose: string; fencedLines: { line: number; code: string }[] } {
  const fencedLines: { line: number; code: string }[] = [];
  let fenced = false;
  const prose = markdown
    .split('\n')
    .map((line, i) => {
      if (/^\s*```/u.test(line)) {
        fenced = !fenced;
        return '';
      }
      if (!fenced) return line;
      fencedLines.push({ line: i + 1, code: line });
      return '';
    })
    .join('\n');
  return { prose, fencedLines };
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The code of a markdown text: inline code spans (which may wrap) and the lines of fenced blocks. */
function codeOf(markdown: string): { line: number; code: string }[] {
  const { prose, fencedLines } = withoutFences(markdown);
  const spans = [...prose.matchAll(/`([^`]+)`/gu)].map((m) => ({ line: lineAt(prose, m.index), code: (m[1] as string).replace(/\s*\n\s*/gu, ' ') }));
  return [...fencedLines, ...spans];
}

/** Where a help line names a command: at its start, after "Usage:", or in quotes. */
const HELP_MENTION = /(?:^\s*(?:Usage:\s*|or:\s*)?|["`'(])trc ([a-z][a-z-]*)([^|;&"`']*)/gu;
/** Anywhere in a piece of markdown code. */
const CODE_MENTION = /(?<![\w./-])trc ([a-z][a-z-]*)([^|;&]*)/gu;

/** The `trc` commands (and their flags) named in one piece of code or one help line. */
function mentionsIn(code: string, where: string, pattern: RegExp): Mention[] {
  const out: Mention[] = [];
  for (const m of code.matchAll(pattern)) {
    const rest = (m[2] as string).split(/\s--(?:\s|$)/u)[0] as string;
    const flags = [...rest.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*)/gu)].map((f) => f[1] as string);
    // A user's clone has nothing beside it: no example may read from there.
    const outside = [...rest.matchAll(/(?<![\w./-])(\.\.\/[\w.*/-]+)/gu)].map((f) => f[1] as string);
    out.push({ where, command: m[1] as string, flags, outside });
  }
  return out;
}

function mentions(doc: DocText): Mention[] {
  if (doc.kind === 'help') {
    return doc.text.split('\n').flatMap((line, i) => mentionsIn(line, `${doc.source}:${i + 1}`, HELP_MENTION));
  }
  return codeOf(doc.text).flatMap(({ line, code }) => mentionsIn(code, `${doc.source}:${line}`, CODE_MENTION));
}

/** Files under `dir` (relative to the root) matching one glob segment list (`*`, `**`). */
function globExists(segments: readonly string[], dir = ROOT): boolean {
  if (segments.length === 0) return true;
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '') return rest.length === 0 || globExists(rest, dir);
  if (head === '**') return globExists(rest, dir) || subdirs(dir).some((d) => globExists(segments, d));
  if (!head.includes('*')) {
    const next = join(dir, head);
    return existsSync(next) && (rest.length === 0 || (statSync(next).isDirectory() && globExists(rest, next)));
  }
  const re = new RegExp(`^${head.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/gu, '\\$&')).join('.*')}$`, 'u');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  return readdirSync(dir).some((name) => re.test(name) && (rest.length === 0 || (statSync(join(dir, name)).isDirectory() && globExists(rest, join(dir, name)))));
}

function subdirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'node_modules').map((e) => join(dir, e.name));
}

/** Repository paths named in a text that do not exist. */
function missingPaths(doc: DocText): string[] {
  const out: string[] = [];
  doc.text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(PATH_IN_TEXT)) {
      const path = (m[1] as string).replace(/[.,:;)]+$/u, '');
      if (!globExists(path.split('/'))) out.push(`${doc.source}:${i + 1}: no ${path} in the repository`);
    }
    // Relative markdown links: [text](path) from the document's folder (not in code).
    if (doc.kind === 'markdown') {
      for (const m of line.replace(/`[^`]*`/gu, '').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/gu)) {
        const target = m[1] as string;
        if (/^[a-z]+:/u.test(target)) continue;
        const abs = resolve(dirname(join(ROOT, doc.source)), target);
        if (!existsSync(abs)) out.push(`${doc.source}:${i + 1}: the link ${target} leads nowhere`);
      }
    }
  });
  return out;
}

/** An in-memory CLI run: exit code and stderr. */
async function runCli(argv: readonly string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const sink = (collect: boolean) => new Writable({ write(chunk: Buffer, _e, done) { if (collect) stderr += chunk.toString('utf8'); done(); } });
  const { Readable } = await import('node:stream');
  const code = await main(argv, { stdin: Readable.from([]), stdout: sink(false), stderr: sink(true), env: {}, cwd: ROOT, isTTY: false });
  return { code, stderr };
}

const NO_SUCH = '--trc-no-such-flag';
const known = new Map<string, boolean>();

/** Whether `command` accepts `flag` (see the header). */
async function accepts(command: string, flag: string): Promise<boolean> {
  if (flag === '--help') return true;
  const key = `${command} ${flag}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const { stderr } = await runCli([command, `${flag}=x`, NO_SUCH]);
  const ok = stderr.includes(`unknown option ${NO_SUCH}`) || stderr.includes(`${flag} takes no value`);
  known.set(key, ok);
  return ok;
}

/** Every problem of the given texts: unknown commands, unknown flags, missing paths. */
export async function checkDocTexts(docs: readonly DocText[]): Promise<string[]> {
  const names = new Set(COMMANDS.map((c) => c.name));
  const problems: string[] = [];
  for (const doc of docs) {
    problems.push(...missingPaths(doc));
    for (const m of mentions(doc)) {
      if (!names.has(m.command)) {
        problems.push(`${m.where}: "trc ${m.command}" is not a command (trc --help lists them)`);
        continue;
      }
      for (const flag of m.flags) {
        if (!(await accepts(m.command, flag))) problems.push(`${m.where}: "trc ${m.command}" has no option ${flag}`);
      }
      for (const path of m.outside) problems.push(`${m.where}: "trc ${m.command}" reads ${path}, outside the repository`);
    }
  }
  return problems;
}

/** README.md, docs/*.md and every command's --help. */
export async function repositoryDocs(): Promise<DocText[]> {
  // Not CHANGELOG.md: its history names what later changed.
  const markdown = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const docs: DocText[] = markdown.map((source) => ({ source, text: readFileSync(join(ROOT, source), 'utf8'), kind: 'markdown' }));
  for (const entry of COMMANDS) {
    const { command } = await entry.load();
    docs.push({ source: `trc ${entry.name} --help`, text: command.help, kind: 'help' });
  }
  return docs;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = await checkDocTexts(await repositoryDocs());
  for (const p of problems) console.log(p);
  console.log(problems.length === 0 ? 'docs: every command, flag and path named exists' : `docs: ${problems.length} problem(s)`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}

