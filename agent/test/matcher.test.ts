import { describe, expect, it } from 'vitest';
import {
  createMatcher,
  executableName,
  indexFingerprints,
  normaliseExecutableName,
  renamedAs,
} from '../src/matcher.js';

describe('normaliseExecutableName', () => {
  it.each([
    ['Discord.exe', 'discord'],
    ['discord', 'discord'],
    ['DISCORD.EXE', 'discord'],
    ['C:\\Program Files\\Discord\\Discord.exe', 'discord'],
    ['/usr/lib/firefox/firefox', 'firefox'],
    ['C:/Apps/AnyDesk.exe', 'anydesk'],
    ['  chrome.exe  ', 'chrome'],
    ['app.exe.exe', 'app.exe'],
    ['notepad++.exe', 'notepad++'],
    ['python3.11', 'python3.11'],
    ['', ''],
    ['/usr/bin/', ''],
  ])('%j → %j', (input, expected) => {
    expect(normaliseExecutableName(input)).toBe(expected);
  });

  it('strips .exe only at the end', () => {
    expect(normaliseExecutableName('exe-runner')).toBe('exe-runner');
    expect(normaliseExecutableName('my.exe.backup')).toBe('my.exe.backup');
  });
});

describe('executableName', () => {
  it('prefers the basename of the path over the (maybe truncated) name', () => {
    expect(executableName({ name: 'Web Content', path: '/usr/lib/firefox/firefox' })).toBe('firefox');
    expect(executableName({ name: 'teamviewer-long', path: '/opt/tv/teamviewer-longname-bin' })).toBe(
      'teamviewer-longname-bin',
    );
  });

  it('falls back to the name when there is no path (Windows, or no permission)', () => {
    expect(executableName({ name: 'Discord.exe' })).toBe('Discord.exe');
    expect(executableName({ name: 'discord', path: '' })).toBe('discord');
  });
});

describe('createMatcher', () => {
  const matcher = createMatcher(['Discord.exe', 'chrome.exe', 'firefox', 'AnyDesk.exe']);

  it('matches case-insensitively, with or without .exe, answering the configured name', () => {
    expect(matcher({ name: 'discord', path: '/opt/discord/Discord' })).toBe('Discord.exe');
    expect(matcher({ name: 'Discord.exe' })).toBe('Discord.exe');
    expect(matcher({ name: 'CHROME.EXE' })).toBe('chrome.exe');
    expect(matcher({ name: 'chrome', path: '/opt/google/chrome/chrome' })).toBe('chrome.exe');
    expect(matcher({ name: 'firefox.exe' })).toBe('firefox');
    expect(matcher({ name: 'x', path: 'C:\\Program Files\\AnyDesk\\AnyDesk.exe' })).toBe('AnyDesk.exe');
  });

  it('matches the executable file name, not a substring or the process title', () => {
    expect(matcher({ name: 'discord-helper', path: '/opt/discord/discord-helper' })).toBeNull();
    expect(matcher({ name: 'chromedriver' })).toBeNull();
    expect(matcher({ name: 'mychrome.exe' })).toBeNull();
    // The path decides: a renamed title does not hide the executable, nor frame an innocent one.
    expect(matcher({ name: 'bash', path: '/tmp/x/discord' })).toBe('Discord.exe');
    expect(matcher({ name: 'discord', path: '/usr/bin/bash' })).toBeNull();
  });

  it('never matches on an empty blocked entry or an empty name', () => {
    const m = createMatcher(['', '   ', '.exe', 'zoom']);
    expect(m({ name: '' })).toBeNull();
    expect(m({ name: '.exe' })).toBeNull();
    expect(m({ name: 'Zoom.exe' })).toBe('zoom');
  });

  it('with an empty blocked list matches nothing', () => {
    expect(createMatcher([])({ name: 'discord' })).toBeNull();
  });

  it('keeps the first of two entries that normalise alike', () => {
    expect(createMatcher(['Discord.exe', 'discord'])({ name: 'DISCORD' })).toBe('Discord.exe');
  });
});

describe('indexFingerprints and renamedAs', () => {
  const a = 'a'.repeat(64);
  const b = 'b'.repeat(64);

  it('indexes fingerprints by SHA-256; the first blocked name of a repeated one wins', () => {
    const index = indexFingerprints([
      { process: 'chrome.exe', sha256: a },
      { process: 'Discord.exe', sha256: b },
      { process: 'otro.exe', sha256: a },
    ]);
    expect(index.get(a)).toBe('chrome.exe');
    expect(index.get(b)).toBe('Discord.exe');
    expect(index.get('c'.repeat(64))).toBeUndefined();
    expect(indexFingerprints([]).size).toBe(0);
  });

  it('names the file a renamed copy ran as, and nothing when it runs under the blocked name', () => {
    expect(renamedAs('chrome.exe', { name: 'notepad', path: 'C:\\Windows\\notepad.exe' })).toBe(
      'notepad.exe',
    );
    expect(renamedAs('chrome.exe', { name: 'notas', path: '/tmp/x/notas' })).toBe('notas');
    expect(renamedAs('chrome.exe', { name: 'chrome', path: '/opt/google/chrome/chrome' })).toBeUndefined();
    expect(renamedAs('chrome.exe', { name: 'CHROME.EXE' })).toBeUndefined();
  });
});
