import { describe, expect, it } from 'vitest';
import { defaultStorePath, userDataDir } from '../../src/store/index.js';

describe('the default store location', () => {
  it('is XDG_DATA_HOME on Linux, else ~/.local/share', () => {
    expect(userDataDir({ platform: 'linux', env: { HOME: '/home/ada', XDG_DATA_HOME: '/data' } })).toBe('/data/tool-result-contract');
    expect(userDataDir({ platform: 'linux', env: { HOME: '/home/ada' } })).toBe('/home/ada/.local/share/tool-result-contract');
    expect(defaultStorePath({ platform: 'freebsd', env: { HOME: '/home/ada', XDG_DATA_HOME: '' } })).toBe('/home/ada/.local/share/tool-result-contract/trc.sqlite');
  });

  it('ignores a relative XDG_DATA_HOME, as the XDG spec says', () => {
    expect(userDataDir({ platform: 'linux', env: { HOME: '/home/ada', XDG_DATA_HOME: 'rel/data' } })).toBe('/home/ada/.local/share/tool-result-contract');
  });

  it('is ~/Library/Application Support on macOS', () => {
    expect(defaultStorePath({ platform: 'darwin', env: { HOME: '/Users/ada', XDG_DATA_HOME: '/ignored' } })).toBe('/Users/ada/Library/Application Support/tool-result-contract/trc.sqlite');
  });

  it('is %LOCALAPPDATA% on Windows, else the profile\'s AppData\\Local', () => {
    expect(defaultStorePath({ platform: 'win32', env: { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' } })).toBe('C:\\Users\\ada\\AppData\\Local\\tool-result-contract\\trc.sqlite');
    expect(userDataDir({ platform: 'win32', env: { USERPROFILE: 'C:\\Users\\ada' } })).toBe('C:\\Users\\ada\\AppData\\Local\\tool-result-contract');
  });

  it('falls back to the home directory the OS reports when HOME is unset', () => {
    expect(userDataDir({ platform: 'linux', env: {}, home: '/var/lib/svc' })).toBe('/var/lib/svc/.local/share/tool-result-contract');
  });

  it('never depends on the working directory', () => {
    const before = defaultStorePath({ env: { HOME: '/home/ada' }, platform: 'linux' });
    const cwd = process.cwd();
    process.chdir('/');
    try {
      expect(defaultStorePath({ env: { HOME: '/home/ada' }, platform: 'linux' })).toBe(before);
    } finally {
      process.chdir(cwd);
    }
  });
});
