/**
 * Argument taint (SPEC T3/T4): a value in a tool call's arguments that the session saw only
 * inside untrusted content (an e-mail address or IBAN quoted from a web page) is tainted. For a
 * high-risk call the policy then asks for confirmation, naming the argument and the content id.
 */
import { formatPointer, type UntrustedContent } from '../contract/index.js';
import { stringLeaves } from './pointer-glob.js';

/** One tainted argument value. */
export interface Taint {
  /** JSON Pointer into the call's arguments, e.g. `/to`. */
  readonly argument: string;
  /** The value (or the part of it) that came from untrusted content. */
  readonly value: string;
  readonly content_id: string;
  readonly kind: TaintKind;
}

/** What kind of value was found. */
export type TaintKind = 'email' | 'iban' | 'url' | 'phone' | 'account_number';

const EMAIL = /[\w.%+-]{1,64}@[A-Z0-9.-]{1,253}\.[A-Z]{2,24}/gi;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const URL_RE = /\bhttps?:\/\/[^\s"'<>()]{1,2048}/g;
const PHONE = /\+?\d[\d ().-]{7,20}\d/g;

/** Canonical form used for comparison: case- and space-insensitive. */
function canon(kind: TaintKind, v: string): string {
  const s = v.trim().toLowerCase();
  if (kind === 'iban' || kind === 'account_number') return s.replace(/\s+/g, '');
  if (kind === 'phone') return s.replace(/[^\d+]/g, '');
  if (kind === 'url') { let e = s.length; while (e > 0 && s.charCodeAt(e - 1) === 0x2f) e--; return s.slice(0, e); }
  return s;
}

/** Values of interest inside one argument string; the whole string counts too when it is short. */
function valuesIn(s: string): { kind: TaintKind; value: string }[] {
  const out: { kind: TaintKind; value: string }[] = [];
  for (const m of s.matchAll(EMAIL)) out.push({ kind: 'email', value: m[0] });
  // IBANs are matched case-insensitively (same offsets in the upper-cased copy).
  for (const m of s.toUpperCase().matchAll(IBAN)) out.push({ kind: 'iban', value: s.slice(m.index, m.index + m[0].length) });
  for (const m of s.matchAll(URL_RE)) out.push({ kind: 'url', value: m[0] });
  for (const m of s.matchAll(PHONE)) if (m[0].replace(/\D/g, '').length >= 8) out.push({ kind: 'phone', value: m[0] });
  if (out.length === 0 && s.trim().length >= 6 && s.length <= 256 && /\d{6,}/.test(s.replace(/[\s-]/g, ''))) out.push({ kind: 'account_number', value: s });
  return out;
}

/** An index of the values each piece of text carries, for repeated look-ups. */
export interface ValueIndex {
  has(kind: TaintKind, value: string): string | undefined;
}

/**
 * Index the values (e-mails, IBANs, URLs, phone and account numbers) of texts by id.
 * @example indexValues([{ id: 'uc_1', text: 'mail me at a@b.co' }]).has('email', 'A@b.co') // 'uc_1'
 */
export function indexValues(texts: readonly { id: string; text: string }[]): ValueIndex {
  const map = new Map<string, string>();
  const plain: { id: string; lower: string }[] = [];
  for (const t of texts) {
    for (const v of valuesIn(t.text)) {
      const key = `${v.kind === 'account_number' ? 'iban' : v.kind}:${canon(v.kind, v.value)}`;
      if (!map.has(key)) map.set(key, t.id);
    }
    plain.push({ id: t.id, lower: t.text.toLowerCase().replace(/\s+/g, '') });
  }
  return {
    has(kind, value) {
      const k = kind === 'account_number' ? 'iban' : kind;
      const hit = map.get(`${k}:${canon(kind, value)}`);
      if (hit !== undefined) return hit;
      // Account numbers and IBANs may be written with other spacing in the source.
      if (kind === 'account_number' || kind === 'iban') {
        const needle = canon(kind, value);
        return plain.find((p) => p.lower.includes(needle))?.id;
      }
      return undefined;
    },
  };
}

/**
 * Find argument values that appear in untrusted content and nowhere trusted.
 * @param trustedTexts what the user (or trusted tools) said in the session; a value found there is not tainted.
 * @example findTaint({ to: 'x@evil.test' }, [{ content_id: 'uc_1', text: 'send to x@evil.test', … }], [])
 */
export function findTaint(args: unknown, untrusted: readonly UntrustedContent[], trustedTexts: readonly string[] = []): Taint[] {
  const fromUntrusted = indexValues(untrusted.map((u) => ({ id: u.content_id, text: u.text })));
  const fromTrusted = indexValues(trustedTexts.map((text, i) => ({ id: `trusted_${i}`, text })));
  const taints: Taint[] = [];
  for (const leaf of stringLeaves(args, [])) {
    for (const v of valuesIn(leaf.value)) {
      const contentId = fromUntrusted.has(v.kind, v.value);
      if (contentId === undefined || fromTrusted.has(v.kind, v.value) !== undefined) continue;
      taints.push({ argument: formatPointer(leaf.path), value: v.value, content_id: contentId, kind: v.kind });
    }
  }
  return taints;
}
