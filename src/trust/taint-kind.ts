/**
 * What kind of value a tainted argument looks like — an address, an IBAN, a URL, a phone or
 * account number — so a confirmation can name it in words a user recognizes.
 */

/** What kind of value a tainted argument looks like (for the words of a confirmation). */
export type TaintKind = 'email' | 'iban' | 'url' | 'phone' | 'account_number' | 'text';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[a-z]{2,24}$/i;
const URL_RE = /^[a-z][a-z0-9+.-]{1,20}:\/\//i;
const IBAN = /^[a-z]{2}\d{2}[a-z0-9]{10,30}$/i;

/**
 * The kind of an argument's value.
 * @example taintKindOf('DE89 3704 0044 0532 0130 00') // 'iban'
 */
export function taintKindOf(value: string): TaintKind {
  const t = value.trim();
  if (EMAIL.test(t)) return 'email';
  if (URL_RE.test(t)) return 'url';
  const compact = t.replace(/[\s-]/g, '');
  if (IBAN.test(compact)) return 'iban';
  if (/^\+?[\d ().-]{8,24}$/.test(t) && t.startsWith('+')) return 'phone';
  if (/^\d{6,}$/.test(compact)) return 'account_number';
  return 'text';
}
