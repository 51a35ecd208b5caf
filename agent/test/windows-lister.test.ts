import { describe, expect, it } from 'vitest';
import { parseProclist } from '../src/windows-lister.js';

describe('proclist, the Windows process list with paths (issue 27)', () => {
  it('reads pid, parent, start (whole seconds), name and path; leaves out what it could not read', () => {
    // As proclist.exe printed it under Wine (agent/native/proclist.c), CRLF included.
    const stdout =
      '32\t0\t1795717937539\tforbidden x2 é.exe\tZ:\\tmp\\forbidden x2 é.exe\r\n' +
      '56\t40\t1795717937139\tservices.exe\tC:\\windows\\system32\\services.exe\r\n' +
      '4\t0\t0\tSystem\t\r\n' +
      '\r\nbasura\r\n';
    expect(parseProclist(stdout)).toEqual([
      {
        pid: 32,
        ppid: 0,
        name: 'forbidden x2 é.exe',
        path: 'Z:\\tmp\\forbidden x2 é.exe',
        startTime: new Date(1795717937000),
      },
      {
        pid: 56,
        ppid: 40,
        name: 'services.exe',
        path: 'C:\\windows\\system32\\services.exe',
        startTime: new Date(1795717937000),
      },
      { pid: 4, ppid: 0, name: 'System' },
    ]);
  });
});
