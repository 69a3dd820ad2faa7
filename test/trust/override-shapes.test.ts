import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectInstructions } from '../../src/trust/index.js';
import { compilePhrases, findPhrases, mergeGroups, tokenize } from '../../src/trust/phrase-matcher.js';

interface Shapes {
  attacks: [string, string[]][];
  ordinary: string[];
}
const load = (name: string): Shapes => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Shapes;

describe.each([
  ['attacks without the usual override words', load('override-shapes.json')],
  ['an agent asked for its setup, to run code, or told exactly what to answer', load('agent-actions.json')],
  ['text that hails its reader, voids its rules or claims to be its user', load('reader-directives.json')],
])('instruction detector — %s', (_, SHAPES) => {
  it.each(SHAPES.attacks.map(([text, rules]) => [rules.join(' + '), text, rules]))('%s flag %j', (_, text, rules) => {
    const d = detectInstructions(text as string);
    for (const rule of rules as string[]) expect(d.spans.map((s) => s.rule)).toContain(rule);
    expect(d.instructional).toBe(true);
  });

  it.each(SHAPES.ordinary.map((t) => [t]))('leaves alone %j', (text) => {
    expect(detectInstructions(text).instructional).toBe(false);
  });
});

describe('phrase word groups of several rule modules', () => {
  it('refuses a group name defined twice, which would replace the first list for its rules', () => {
    expect(() => mergeGroups({ actVerb: ['send'] }, { obey: ['follow'] }, { actVerb: ['rank'] })).toThrow('phrase group @actVerb is defined twice');
  });

  it('keeps every list of distinct names as it was given', () => {
    expect(mergeGroups({ a: ['x'] }, { b: ['y', 'z'] })).toEqual({ a: ['x'], b: ['y', 'z'] });
  });
});

describe('phrase rules and inflections', () => {
  it('match an inflection of a rule word even when another rule spells that inflection out', () => {
    const rules = [
      { id: 'a', family: 'override', strong: true, source: 'ignore ~2 key' },
      { id: 'b', family: 'override', strong: true, source: 'lost keys' },
    ];
    const m = compilePhrases({}, rules);
    const ids = (text: string) => findPhrases(m, tokenize(m, text)).map((h) => h.rule.id);
    expect(ids('ignore the keys')).toEqual(['a']);
    expect(ids('ignore the key')).toEqual(['a']);
    expect(ids('lost keys')).toEqual(['b']);
    // A form no rule names reads as its base, as before.
    expect(ids('ignore the keyed')).toEqual(['a']);
  });
});
