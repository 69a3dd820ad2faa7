/**
 * How every command reads its input: files and stdin with one wording for what goes wrong,
 * a size limit on what must be held in memory, and one rule for byte order marks.
 */
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIO } from './io.js';
import { firstInvalidUtf8 } from '../contract/index.js';

export { firstInvalidUtf8 };

/**
 * The most the text readers (`trc validate`, `trc scan --jsonl`, `trc cite`) hold of one JSON
 * value — a document, or one JSON Lines line: 64 MiB. Parsing holds it about four times over
 * (bytes, text, parsed strings), so this keeps a run near 300 MB at worst.
 */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;

/** `n` bytes in binary units, as limits are named in messages (`256 MiB`). */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** Input that cannot be used: printed as one line, exit code 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** Input larger than a command's limit: one line naming the limit, exit code 2. */
export class InputTooLargeError extends InputError {
  constructor(what: string, readonly limit: number) {
    super(`${what} is larger than ${formatBytes(limit)}, the limit for it`);
  }
}

/**
 * Why a file could not be read, in the same words for every command.
 * @example describeFileError('rows.json', enoent) // 'cannot read rows.json: no such file'
 */
export function describeFileError(file: string, cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOENT' ? 'no such file'
    : code === 'EISDIR' ? 'it is a directory'
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : code === 'ENOTDIR' ? 'a part of the path is not a directory'
    : code === 'ELOOP' ? 'too many symbolic links'
    : code === 'ENAMETOOLONG' ? 'the name is too long'
    : ((cause as Error | undefined)?.message ?? String(cause));
  return `cannot read ${file}: ${why}`;
}

/** An opened input: its chunks, the name to print, and how to let go of it. */
export interface OpenedInput {
  readonly chunks: AsyncIterable<Buffer>;
  readonly source: string;
  /** Size in bytes for a regular file, else null (stdin, pipes). */
  readonly size: number | null;
  close(): Promise<void>;
}

/**
 * Open FILE (relative to the working directory), or stdin for "-". Throws {@link InputError}
 * with the shared wording when FILE cannot be read.
 */
export async function openInput(file: string, io: CliIO): Promise<OpenedInput> {
  if (file === '-') return { chunks: io.stdin as AsyncIterable<Buffer>, source: '<stdin>', size: null, close: async () => undefined };
  const path = resolve(io.cwd, file);
  let handle;
  try {
    handle = await open(path, 'r');
    const info = await handle.stat();
    if (info.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    const opened = handle;
    return {
      chunks: opened.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>,
      source: file,
      size: info.isFile() ? info.size : null,
      close: () => opened.close().catch(() => undefined),
    };
  } catch (cause) {
    await handle?.close().catch(() => undefined);
    throw new InputError(describeFileError(file, cause));
  }
}

/** Throw the shared "cannot read" error unless FILE exists and is not a directory. */
export async function requireFile(file: string, io: CliIO): Promise<string> {
  const path = resolve(io.cwd, file);
  try {
    if ((await stat(path)).isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
  } catch (cause) {
    throw new InputError(describeFileError(file, cause));
  }
  return path;
}

/** What the first bytes of a text say about its encoding. */
export type ByteOrderMark = 'utf-8' | 'utf-16le' | 'utf-16be' | null;

/** The byte order mark at the start of `bytes`, if any. */
export function byteOrderMark(bytes: Uint8Array): ByteOrderMark {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** The error for JSON text that is UTF-16: JSON between systems is UTF-8 (RFC 8259 §8.1). */
export function utf16Refusal(source: string, bom: 'utf-16le' | 'utf-16be'): InputError {
  return new InputError(
    `${source} is ${bom === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE'} (it starts with a byte order mark); JSON text must be UTF-8 (RFC 8259 §8.1): convert it first, e.g. iconv -f UTF-16 -t UTF-8`,
  );
}

/**
 * The first bytes of JSON text without a UTF-8 byte order mark (RFC 8259 §8.1 allows ignoring
 * it); UTF-16 is refused with an {@link InputError}.
 */
export function skipUtf8Bom<T extends Uint8Array>(bytes: T, source: string): T {
  const bom = byteOrderMark(bytes);
  if (bom === 'utf-16le' || bom === 'utf-16be') throw utf16Refusal(source, bom);
  return bom === 'utf-8' ? (bytes.subarray(3) as T) : bytes;
}


/**
 * Read all of `chunks` into one buffer, refusing more than `limit` bytes (it stops reading
 * there, so memory stays at the limit).
 */
export async function readAllLimited(chunks: AsyncIterable<Buffer | string>, limit: number, what: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > limit) throw new InputTooLargeError(what, limit);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

/**
 * Decode UTF-8 JSON text: a UTF-8 byte order mark is dropped, UTF-16 and bytes that are not
 * UTF-8 are refused with an {@link InputError} naming the offset.
 */
export function decodeJsonText(bytes: Buffer, source: string): string {
  const body = skipUtf8Bom(bytes, source);
  const bad = firstInvalidUtf8(body);
  if (bad !== -1) throw new InputError(`${source} is not UTF-8: byte 0x${(body[bad] as number).toString(16).padStart(2, '0')} at offset ${bad + bytes.length - body.length} starts no valid character`);
  return body.toString('utf8');
}
