/**
 * No test reads outside the repository: a user's clone has nothing beside it (the development
 * corpus and the seed document sit next to the repository on our machines only). Every
 * relative path a test names, resolved from the test's own folder, stays inside the
 * repository, and no test names the shared folder. `npm run bench` may read the corpus.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(path);
    return /\.(?:[cm]?[jt]s)$/u.test(e.name) ? [path] : [];
  });
}

/** Paths named in a source text that lead out of the repository, with their line numbers. */
export function outsideReads(path: string, text: string, root = ROOT): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const where = `${relative(root, path)}:${i + 1}`;
    for (const m of line.matchAll(/(['"`])(\.\.?\/[^'"`\s]*)\1/gu)) {
      const target = resolve(dirname(path), m[2] as string);
      if (target !== root.replace(/[\\/]$/u, '') && !target.startsWith(root.endsWith(sep) ? root : root + sep)) found.push(`${where}: ${m[2]} leads out of the repository`);
    }
    if (/shared[\\/](?:corpora|seed)|\/work\//u.test(line)) found.push(`${where}: names a folder outside the repository`);
  });
  return found;
}

describe('tests are self-contained', () => {
  it('name no path outside the repository', () => {
    // This file names such paths on purpose, to show the check catches them.
    const own = fileURLToPath(import.meta.url);
    const problems = files(join(ROOT, 'test')).filter((f) => f !== own).flatMap((f) => outsideReads(f, readFileSync(f, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('would catch a test that reads the corpus beside the repository', () => {
    const probe = join(ROOT, 'test/budget/x.test.ts');
    // Assembled here, so this file holds no such path as one literal.
    const corpus = ['..', '..', '..', 'shared', 'corpora', 'injection'].join('/');
    expect(outsideReads(probe, `const dir = path.resolve(here, '${corpus}');`)).toHaveLength(2);
    expect(outsideReads(probe, "readFileSync(new URL('../../../elsewhere/data.json', import.meta.url))")).toHaveLength(1);
    expect(outsideReads(probe, "readFileSync(new URL('./fixtures/rows.json', import.meta.url))")).toEqual([]);
  });
});
