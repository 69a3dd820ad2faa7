/**
 * Where bytes stop being UTF-8, for the readers that name the offending byte of bad input.
 */
import { isUtf8 } from 'node:buffer';

/**
 * The offset of the first byte of the first sequence in `bytes` that is not UTF-8, or -1 when
 * all of it is. Linear: one `isUtf8` over the whole, then a walk only when that fails.
 * @example firstInvalidUtf8(Buffer.from([0x61, 0xff])) // 1
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    const length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    // isUtf8 on the one sequence also rules out overlong forms and surrogates.
    if (length === 0 || i + length > bytes.length || !isUtf8(bytes.subarray(i, i + length))) return i;
    i += length;
  }
  return -1;
}
