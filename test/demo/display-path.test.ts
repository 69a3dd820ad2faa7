import { describe, expect, it } from 'vitest';
import { displayPath } from '../../src/demo/run-demo.js';

describe('the store path the demo prints', () => {
  it('is relative to the working directory when it lies below it', () => {
    expect(displayPath('/home/ann/project', '/home/ann/project/.trc/demo.sqlite')).toBe('.trc/demo.sqlite');
  });

  it('is absolute when it lies elsewhere', () => {
    expect(displayPath('/home/ann/project', '/home/ann/.local/share/tool-result-contract/demo.sqlite')).toBe('/home/ann/.local/share/tool-result-contract/demo.sqlite');
  });

  it('is absolute when the working directory is the root of the file system', () => {
    expect(displayPath('/', '/root/.local/share/tool-result-contract/demo.sqlite')).toBe('/root/.local/share/tool-result-contract/demo.sqlite');
  });
});
