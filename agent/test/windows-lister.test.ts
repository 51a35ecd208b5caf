import { describe, expect, it } from 'vitest';
import { parseProclist } from '../src/windows-lister.js';

describe('proclist, the Windows process list with paths', () => {
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

  it('an interpreter: keeps only the program its command line runs, resolved against its folder', () => {
    // As proclist.exe printed it under Wine for a `python.exe` started with a relative script and a
    // program that is no interpreter (no command line read).
    const stdout =
      '32\t0\t1795766631105\tpython.exe\tZ:\\tmp\\po\\python.exe\t"Z:\\tmp\\po\\python.exe" -u "chat gpt.py" x\tZ:\\tmp\\\r\n' +
      '40\t0\t1795766631110\tnotpython.exe\tZ:\\tmp\\po\\notpython.exe\r\n' +
      '44\t0\t1795766631110\tnode.exe\tC:\\n\\node.exe\tnode.exe -e "secreto()"\tC:\\\r\n';
    const [python, other, node] = parseProclist(stdout);
    expect(python).toEqual({
      pid: 32,
      ppid: 0,
      name: 'python.exe',
      path: 'Z:\\tmp\\po\\python.exe',
      startTime: new Date(1795766631000),
      program: { path: 'Z:\\tmp\\chat gpt.py', via: 'python' },
    });
    // Nothing of a command line is kept: not its arguments, not inline code.
    expect(JSON.stringify([python, other, node])).not.toMatch(/-u|secreto|"x"/);
    expect(other).not.toHaveProperty('program');
    expect(node).not.toHaveProperty('program');
  });
});
