import { describe, expect, it } from 'vitest';
import { compileGlob, matchGlob } from '../../src/trust/index.js';

const m = (glob: string, path: string[]): boolean => matchGlob(compileGlob(glob), path);

describe('pointer globs', () => {
  it('matches one token with * and any number with **', () => {
    expect(m('/data/items/*/body', ['data', 'items', '3', 'body'])).toBe(true);
    expect(m('/data/items/*/body', ['data', 'items', 'body'])).toBe(false);
    expect(m('/data/**/note', ['data', 'note'])).toBe(true);
    expect(m('/data/**/note', ['data', 'a', 'b', 'note'])).toBe(true);
    expect(m('/data/**', ['data'])).toBe(true);
    expect(m('/data/**/note', ['data', 'a', 'notes'])).toBe(false);
  });

  it('reads RFC 6901 escapes and ~2 as a literal star', () => {
    expect(m('/data/a~1b/~0c', ['data', 'a/b', '~c'])).toBe(true);
    expect(m('/data/~2', ['data', '*'])).toBe(true);
    expect(m('/data/~2', ['data', 'x'])).toBe(false);
  });

  it('refuses malformed globs with a stable code', () => {
    expect(() => compileGlob('data/x')).toThrow(expect.objectContaining({ code: 'TRUST_BAD_GLOB' }));
    expect(() => compileGlob('/data/~3')).toThrow(expect.objectContaining({ code: 'TRUST_BAD_GLOB' }));
  });
});
