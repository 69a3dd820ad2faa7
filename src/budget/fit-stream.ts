/**
 * `fitStream(readable, budget, ctx)`: fit a result far larger than memory (SPEC Z7). Raw bytes
 * are spooled to the store as they arrive; a top-level array is split at element boundaries;
 * the first elements the budget can use are kept (parsed); the rest are only validated and
 * scanned for counts and column statistics, never turned into objects.
 */
import { NUMBER_KEPT_AS_TEXT, TrcError, describeInexact, firstInvalidUtf8, findInexactNumbers, keepExactDigits, type Envelope, type InexactNumber, type Warning } from '../contract/index.js';
import type { ResourceWriter } from '../store/types.js';
import { resolveBudget, type Budget } from './budget.js';
import type { FitContext } from './context.js';
import type { Spool } from './externalize.js';
import { fitCore } from './fit-core.js';
import { DEFAULT_HANDLE_TTL_MS } from './handles.js';
import { JsonArraySplitter, byteSize, notJson, type ElementMark, type ElementSink, type SourcePosition } from './json-array-splitter.js';
import { JSONL_MIME_TYPE, JsonLinesSplitter } from './json-lines-splitter.js';
import { JsonElementScanner } from './json-element-scanner.js';
import { findJsonError } from './json-error-position.js';
import { ListStats } from './list-stats.js';
import { toEnvelope } from './wrap.js';

/** What `fitStream` needs of a splitter: a JSON array's or JSON Lines'. */
interface StreamSplitter {
  readonly isArray: boolean | undefined;
  push(chunk: Uint8Array): void;
  end(): void;
  elementMark(): ElementMark;
  positionOf(mark: ElementMark): SourcePosition;
}

/** Extra options of the streaming path. */
export interface StreamOptions extends FitContext {
  /** Called with the number of bytes read so far (for progress bars). */
  readonly onProgress?: (bytesRead: number) => void;
  /** Input that is not a top-level array is parsed whole; refuse it beyond this size (default 256 MiB). */
  readonly maxBufferBytes?: number;
  /**
   * `json` (default): one JSON value; a top-level array is streamed element by element.
   * `jsonl`: JSON Lines (NDJSON), one value per line, treated as a list of them.
   */
  readonly format?: 'json' | 'jsonl';
}

const encoder = new TextEncoder();

const text = (bytes: Uint8Array, from: number, to: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('utf8');

/**
 * Parse one element (or a whole document), or throw `INPUT_NOT_JSON` with line and column.
 * Numbers a double cannot hold keep their exact digits as strings and are passed to `inexact`.
 */
function parseAt(bytes: Uint8Array, from: number, to: number, where: () => SourcePosition, inexact?: (found: InexactNumber[]) => void): unknown {
  const bad = firstInvalidUtf8(bytes.subarray(from, to));
  if (bad !== -1) notJson(`invalid UTF-8: byte 0x${(bytes[from + bad] as number).toString(16).padStart(2, '0')} starts no valid character`, advance(where(), text(bytes, from, from + bad), bad));
  const source = text(bytes, from, to);
  try {
    const value: unknown = JSON.parse(source);
    const found = findInexactNumbers(source);
    if (found.length === 0) return value;
    inexact?.(found);
    return keepExactDigits(value, found);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const e = findJsonError(source) ?? { offset: 0, line: 1, column: 1, message: 'invalid JSON' };
    const at = where();
    const sameLine = e.line === 1;
    notJson(e.message, {
      offset: at.offset + Buffer.byteLength(source.slice(0, e.offset)),
      line: at.line + e.line - 1,
      column: sameLine ? at.column + e.column - 1 : e.column,
      ...(sameLine && at.columnUnit !== undefined ? { columnUnit: at.columnUnit } : {}),
    });
  }
}

/** The position `before` (valid text of `bytes` bytes) further on from `at`. */
function advance(at: SourcePosition, before: string, bytes: number): SourcePosition {
  const nl = before.lastIndexOf('\n');
  if (nl === -1) return { ...at, offset: at.offset + bytes, column: at.column + (at.columnUnit === 'byte' ? bytes : [...before].length) };
  let lines = 0;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) lines++;
  return { offset: at.offset + bytes, line: at.line + lines, column: [...before.slice(nl + 1)].length + 1 };
}

/** Warnings listed one by one before the rest are counted in one more. */
const LISTED_NUMBER_WARNINGS = 20;

/** One warning per number kept as its exact digits (the first 20, then a count). */
function numberWarnings(found: readonly InexactNumber[], base: string): Warning[] {
  const out: Warning[] = found.slice(0, LISTED_NUMBER_WARNINGS).map((f) => ({ code: NUMBER_KEPT_AS_TEXT, message: describeInexact(f), pointer: base + f.pointer }));
  const more = found.length - LISTED_NUMBER_WARNINGS;
  if (more > 0) out.push({ code: NUMBER_KEPT_AS_TEXT, message: `${more} more number(s) a double cannot hold were kept as their exact digits (strings)` });
  return out;
}

/**
 * Fit a byte stream holding one JSON value. Chunks may be views of one reused buffer (nothing
 * is kept past the step that reads it), so `fileChunks(path)` is the lean way to stream a file. Memory stays bounded for a top-level array of any
 * length (each element must fit in memory); other values are parsed whole up to
 * `maxBufferBytes`. Not-JSON input throws `INPUT_NOT_JSON` with line and column, and nothing
 * is left in the store.
 * @example
 * const env = await fitStream(createReadStream('big.json'), { maxTokens: 8000 }, { store, principal: 'alice', tool: 'export' });
 */
export async function fitStream(source: AsyncIterable<Uint8Array | string>, budget: Budget = {}, ctx: StreamOptions = {}): Promise<Envelope> {
  const resolved = resolveBudget(budget);
  const now = ctx.now?.() ?? new Date();
  const expiresAt = new Date(now.getTime() + (ctx.ttlMs ?? DEFAULT_HANDLE_TTL_MS)).toISOString();
  const principal = ctx.principal ?? 'anonymous';
  const tool = ctx.tool ?? 'unknown_tool';
  const maxBuffer = ctx.maxBufferBytes ?? 256 * 1024 * 1024;
  // Keep at most maxItems elements, and stop early once they are far beyond the byte budget.
  const keepBytes = Math.max(resolved.maxBytes, resolved.maxTokens * 16) * 2;

  const jsonl = ctx.format === 'jsonl';
  // Numbers kept as their exact digits, with pointers into the value read (see parseAt).
  const inexact: InexactNumber[] = [];
  const under = (prefix: string) => (found: InexactNumber[]) => {
    for (const f of found) inexact.push({ ...f, pointer: prefix + f.pointer });
  };
  const writer: ResourceWriter | null = ctx.store === undefined ? null : await ctx.store.createResource({ principal, tool, mimeType: jsonl ? JSONL_MIME_TYPE : 'application/json', expiresAt });
  const kept: unknown[] = [];
  let keptBytes = 0;
  let total = 0;
  const omitted = new ListStats();
  const scanner = new JsonElementScanner();
  const onElement: ElementSink = (bytes, from, to) => {
    total++;
    if (kept.length < resolved.maxItems && (keptBytes < keepBytes || kept.length === 0)) {
      const mark = splitter.elementMark();
      kept.push(parseAt(bytes, from, to, () => splitter.positionOf(mark), under(`/${kept.length}`)));
      keptBytes += to - from;
      return;
    }
    // Omitted elements only feed the statistics: scan them, building nothing.
    if (scanner.scan(bytes, from, to) === -1) {
      omitted.addScanned(scanner);
      return;
    }
    // Let JSON.parse have the last word and give the exact error (with line and column).
    const mark = splitter.elementMark();
    omitted.add(parseAt(bytes, from, to, () => splitter.positionOf(mark)));
  };
  // Each element is held whole while it is split off, so it gets the same cap as a document.
  const splitter: StreamSplitter = jsonl ? new JsonLinesSplitter(onElement, maxBuffer) : new JsonArraySplitter(onElement, maxBuffer);

  let whole: Uint8Array[] = [];
  let wholeBytes = 0;
  let read = 0;
  let spool: Spool | null = null;
  try {
    for await (const part of source) {
      const chunk = typeof part === 'string' ? encoder.encode(part) : part;
      read += chunk.length;
      // The writer copies what it keeps, so a source that reuses its buffer is fine.
      if (writer !== null) await writer.write(chunk);
      splitter.push(chunk);
      if (splitter.isArray !== true) {
        // Until the first non-blank byte it is unknown whether this is an array; keep the blanks.
        wholeBytes += chunk.length;
        if (wholeBytes > maxBuffer) {
          throw new TrcError('STREAM_TOO_LARGE', `input that is not a top-level array is parsed whole, and it is larger than ${byteSize(maxBuffer)}, the limit for it`, { data: { limit: maxBuffer } });
        }
        whole.push(chunk.slice()); // a copy: the source may reuse its buffer
      }
      ctx.onProgress?.(read);
    }
    const start = { offset: 0, line: 1, column: 1 };
    let value: unknown;
    if (splitter.isArray === false) {
      const all = Buffer.concat(whole);
      whole = [];
      value = parseAt(all, 0, all.length, () => start, under(''));
    } else {
      splitter.end();
      value = kept;
    }
    const wrappedEnv = toEnvelope(value, { ...ctx, tool }, inexact.some((f) => f.pointer === '/data' || f.pointer.startsWith('/data/')));
    const { wrapped } = wrappedEnv;
    const env = inexact.length === 0 ? wrappedEnv.env : { ...wrappedEnv.env, warnings: [...wrappedEnv.env.warnings, ...numberWarnings(inexact, wrapped ? '/data' : '')] };
    if (writer !== null) spool = { commit: () => writer.commit(), abort: () => writer.abort() };
    const root = splitter.isArray === true ? { total, omitted } : undefined;
    return await fitCore({ env, wrapped, spool, ...(root === undefined ? {} : { root }) }, resolved, { ...ctx, tool, principal });
  } catch (error) {
    // Nothing half-written: the spooled bytes go unless the fit committed them.
    await writer?.abort().catch(() => undefined);
    throw error;
  }
}

