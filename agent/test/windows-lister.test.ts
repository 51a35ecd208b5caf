import { describe, expect, it } from 'vitest';
import { parseFastlist } from '../src/windows-lister.js';

describe('fastlist, the Windows process list (issue 27)', () => {
  it('reads its lines as pid, parent pid and name, skipping what it does not understand', () => {
    // As fastlist printed it under Wine, CRLF included.
    const stdout =
      '32\t0\tforbidden-x1.exe\r\n56\t40\tservices.exe\r\n\r\nbasura\r\n272\t0\tfastlist-0.3.0-x64.exe\r\n';
    expect(parseFastlist(stdout)).toEqual([
      { pid: 32, ppid: 0, name: 'forbidden-x1.exe' },
      { pid: 56, ppid: 40, name: 'services.exe' },
      { pid: 272, ppid: 0, name: 'fastlist-0.3.0-x64.exe' },
    ]);
  });
});
