import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectInstructions } from '../../src/trust/index.js';

// Our own benign texts that look like attacks: persona requests, numbered instructions, docs full
// of trigger words, e-mails, leet gamer tags, pig latin, ROT13 spoilers, hashes, base64 images,
// HTML, escapes, German and French, RFC wording, tool descriptions, spaced headings.
const BENIGN = JSON.parse(readFileSync(new URL('./fixtures/benign-lookalikes.json', import.meta.url), 'utf8')) as string[];

describe('instruction detector — benign look-alikes stay unflagged', () => {
  it.each(BENIGN.map((t) => [t.slice(0, 60), t]))('leaves alone %j', (_label, text) => {
    const d = detectInstructions(text);
    expect(d.instructional, JSON.stringify(d.spans)).toBe(false);
  });
});
