/**
 * The docs name only what exists (scripts/check-docs.ts): commands, flags and repository paths
 * in README.md, docs/*.md and every --help text.
 */
import { describe, expect, it } from 'vitest';
import { checkDocTexts, repositoryDocs } from '../../scripts/check-docs.js';

describe('README, docs and --help', () => {
  it('name only commands, flags and repository paths that exist', async () => {
    expect(await checkDocTexts(await repositoryDocs())).toEqual([]);
  }, 60_000);

  it('would catch an unknown command, an unknown flag, a missing path and an example reading outside the repository', async () => {
    const doc = [
      'Run `trc pages CURSOR` to page.',
      '```sh',
      'trc fit rows.json --max-token 20 --principal alice',
      'trc scan --jsonl ../corpus/rows.jsonl',
      '```',
      'Fixtures live in `test/nowhere/fixtures/` and [the guide](docs/none.md).',
      'The trc store keeps audit records; `trc gateway --http 8808 -- node server.js --port 9`.',
    ].join('\n');
    const help = ['Usage: trc validate [FILE] --jsn', '  --store PATH   the trc store', 'Examples:', '  trc sweep --store x.sqlite --dry-run'].join('\n');
    const problems = await checkDocTexts([
      { source: 'probe.md', text: doc, kind: 'markdown' },
      { source: 'trc probe --help', text: help, kind: 'help' },
    ]);
    expect(problems).toEqual([
      'probe.md:6: no test/nowhere/fixtures/ in the repository',
      'probe.md:6: no docs/none.md in the repository',
      'probe.md:6: the link docs/none.md leads nowhere',
      'probe.md:3: "trc fit" has no option --max-token',
      'probe.md:4: "trc scan" reads ../corpus/rows.jsonl, outside the repository',
      'probe.md:1: "trc pages" is not a command (trc --help lists them)',
      'trc probe --help:1: "trc validate" has no option --jsn',
      'trc probe --help:4: "trc sweep" has no option --dry-run',
    ]);
  });
});
