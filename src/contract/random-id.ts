import { randomBytes } from 'node:crypto';

/**
 * 128 random bits, base64url (22 characters), never starting with "-": every id the store and
 * the budget mint (resources, handles, cursors) is typed on command lines (`trc page <cursor>`),
 * where a leading "-" reads as an option. Redrawing costs 1/64 of a bit of entropy.
 * @example randomId().length // 22
 */
export function randomId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
