/**
 * A result that repeats what the call sent it (a search answering `{"query": …}`, a lookup
 * answering the address it was asked about) is no evidence for that text: the text is in the
 * result *because* the agent sent it. When the call's arguments carried untrusted content, such
 * an echo must not become trusted text of the run, or one read through a trusted tool would
 * launder an attacker's value (SPEC T3): the later write naming it would no longer be held.
 */
import { resolvePointer } from '../contract/index.js';
import { trustedReadings, type Taint } from './taint.js';
import { taintForms, taintViews } from './taint-normalize.js';

/**
 * The call's tainted arguments in taint form (the whole argument, not just its traced run).
 * @example taintedArgumentForms([{ argument: '/q', value: 'Drop.Box@evil.test', … }], { q: 'Drop.Box@evil.test' }) // ['dropboxeviltest']
 */
export function taintedArgumentForms(taint: readonly Taint[], args: unknown): string[] {
  const forms = new Set<string>();
  for (const t of taint) {
    // `value` is cut at 120 characters; the leaf itself is whole (a map key's taint has only `value`).
    const leaf = resolvePointer(args, t.argument);
    const text = leaf.ok && (typeof leaf.value === 'string' || typeof leaf.value === 'number') ? String(leaf.value) : t.value;
    // An argument the model wrote encoded (`drop.box%40…`) is echoed decoded as often as not.
    for (const form of taintViews(text)) if (form !== '') forms.add(form);
  }
  return [...forms];
}

/**
 * Whether a leaf of a result repeats one of those arguments, or a piece of one (what the tool
 * picked out of it), in any reading by which trusted text vouches for a value: a pagination link
 * that URL-encodes the query (`?q=drop.box%40evil.test`) echoes it as much as the plain text.
 * @example echoesArgument('No contact matches drop.box@evil.test', ['dropboxeviltest']) // true
 */
export function echoesArgument(leaf: string, forms: readonly string[]): boolean {
  if (forms.length === 0) return false;
  return taintForms(trustedReadings(leaf)).some((form) => form !== '' && forms.some((a) => form.includes(a) || a.includes(form)));
}
