import { describe, expect, it } from 'vitest';
import { installNewest, type NpmRunner } from './install-newest.js';

const failure = (stderr: string): Error => Object.assign(new Error('Command failed: npm install'), { stderr });

/** A runner that answers each call with the next scripted outcome and records the args. */
function scripted(outcomes: (string | Error)[]): { npm: NpmRunner; calls: string[][] } {
  const calls: string[][] = [];
  const npm: NpmRunner = (args) => {
    calls.push([...args]);
    const next = outcomes.shift();
    if (next instanceof Error) throw next;
    return next ?? '';
  };
  return { npm, calls };
}

describe('installNewest', () => {
  it('steps a latest spec down within its major when the registry does not list the tagged version yet', () => {
    const { npm, calls } = scripted([failure('npm error notarget No matching version found for @langchain/core@1.5.0.'), 'ok']);
    const used = installNewest(npm, ['/tmp/x.tgz', 'ai@latest', '@langchain/core@latest'], '/tmp');
    expect(used).toEqual(['/tmp/x.tgz', 'ai@latest', '@langchain/core@>=1.0.0 <1.5.0']);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(['install', ...used]);
  });

  it('throws an error that is neither a missing version nor the network, at once', () => {
    const { npm, calls } = scripted([failure('npm error code ERESOLVE could not resolve')]);
    expect(() => installNewest(npm, ['ai@latest'], '/tmp')).toThrow(/npm install/u);
    expect(calls).toHaveLength(1);
  });

  it('gives up after the allowed tries', () => {
    const miss = (): Error => failure('No matching version found for ai@7.2.0.');
    const { npm, calls } = scripted([miss(), miss(), miss()]);
    expect(() => installNewest(npm, ['ai@latest'], '/tmp', 3)).toThrow();
    expect(calls).toHaveLength(3);
  });
});
