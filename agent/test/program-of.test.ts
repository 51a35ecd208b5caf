import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMatcher, renamedAs } from '../src/matcher.js';
import {
  linuxProgramOf,
  loaderProgramArg,
  programNames,
  runnerOf,
  scriptArg,
  splitWindowsCommandLine,
  windowsProgramOf,
  type RunnerFamily,
} from '../src/program-of.js';
import { cleanUp, tempDir } from './helpers/processes.js';

afterEach(cleanUp);

describe('runnerOf: which executables run another file', () => {
  it('knows loaders, interpreters and their versions, and nothing else', () => {
    expect(runnerOf('/lib64/ld-linux-x86-64.so.2')).toEqual({
      family: 'loader',
      via: 'ld-linux-x86-64.so.2',
    });
    expect(runnerOf('/lib/ld-musl-x86_64.so.1')?.family).toBe('loader');
    expect(runnerOf('/lib/ld-2.31.so')?.family).toBe('loader');
    expect(runnerOf('/usr/bin/python3.11')).toEqual({ family: 'python', via: 'python3' });
    expect(runnerOf('C:\\Python312\\python.exe')).toEqual({ family: 'python', via: 'python' });
    expect(runnerOf('pythonw.exe')?.family).toBe('python');
    expect(runnerOf('/usr/bin/node')).toEqual({ family: 'node', via: 'node' });
    expect(runnerOf('NODE.EXE')?.family).toBe('node');
    expect(runnerOf('/usr/lib/jvm/bin/java')).toEqual({ family: 'java', via: 'java' });
    expect(runnerOf('javaw.exe')).toEqual({ family: 'java', via: 'javaw' });
    expect(runnerOf('/usr/bin/perl5.36.0')).toEqual({ family: 'perl', via: 'perl' });
    expect(runnerOf('/usr/bin/ruby3.1')).toEqual({ family: 'ruby', via: 'ruby' });
    expect(runnerOf('/usr/bin/php8.2')).toEqual({ family: 'php', via: 'php' });
    for (const shell of ['sh', 'bash', 'dash', 'zsh'])
      expect(runnerOf(`/bin/${shell}`)).toEqual({ family: 'shell', via: shell });
    expect(runnerOf('powershell.exe')?.family).toBe('powershell');
    expect(runnerOf('pwsh')?.family).toBe('pwsh');
    expect(runnerOf('cscript.exe')).toEqual({ family: 'wsh', via: 'cscript' });
    expect(runnerOf('wscript.exe')).toEqual({ family: 'wsh', via: 'wscript' });
    for (const other of [
      '/usr/bin/sleep',
      'chrome.exe',
      'libc.so.6',
      'python-config',
      'nodemon',
      'bashful',
      'ld',
    ])
      expect(runnerOf(other)).toBeNull();
  });
});

describe('scriptArg: the file an interpreter runs, from its command line', () => {
  const cases: [RunnerFamily, string[], string | null][] = [
    ['python', ['python3', 'chatgpt.py', '--port', '80'], 'chatgpt.py'],
    ['python', ['python3', '-u', '-B', '-W', 'ignore', '-X', 'dev', './chatgpt.py'], './chatgpt.py'],
    ['python', ['python3', '-Wignore', '-OO', 'chatgpt.py'], 'chatgpt.py'],
    ['python', ['python3', '--check-hash-based-pycs', 'never', 'chatgpt.py'], 'chatgpt.py'],
    ['python', ['python3', '-c', 'import time; time.sleep(9)'], null],
    ['python', ['python3', '-uc', 'print(1)'], null],
    ['python', ['python3', '-m', 'http.server'], null],
    ['python', ['python3', '-'], null],
    ['python', ['python3'], null],
    ['python', ['python3', '--', '-raro.py'], '-raro.py'],
    ['node', ['node', '--inspect', '-r', 'dotenv/config', 'server.js'], 'server.js'],
    ['node', ['node', '--require=x', '--import', 'tsx', 'app.mjs'], 'app.mjs'],
    ['node', ['node', '-e', 'setTimeout(()=>{},9e3)'], null],
    ['node', ['node', '--eval=1'], null],
    ['node', ['node', '-p', '1+1'], null],
    ['node', ['node'], null],
    ['java', ['java', '-Xmx2g', '-cp', 'lib', '-jar', 'chatgpt.jar', 'x'], 'chatgpt.jar'],
    ['java', ['java', '-cp', 'a.jar', 'com.example.Main'], null],
    ['java', ['java', '-m', 'mod/com.example.Main'], null],
    ['java', ['java', '--source', '21', 'Chat.java'], 'Chat.java'],
    ['perl', ['perl', '-w', '-I', 'lib', 'chat.pl'], 'chat.pl'],
    ['perl', ['perl', '-Ilib', '-Mstrict', '-wl', 'chat.pl'], 'chat.pl'],
    ['perl', ['perl', '-wle', 'print 1'], null],
    ['perl', ['perl', '-E', 'say 1'], null],
    ['ruby', ['ruby', '-w', '-r', 'json', 'chat.rb'], 'chat.rb'],
    ['ruby', ['ruby', '-e', 'sleep 9'], null],
    ['php', ['php', '-d', 'memory_limit=1G', 'chat.php'], 'chat.php'],
    ['php', ['php', '-f', 'chat.php'], 'chat.php'],
    ['php', ['php', '-r', 'sleep(9);'], null],
    ['shell', ['bash', 'chat.sh', 'arg'], 'chat.sh'],
    ['shell', ['bash', '-x', '-o', 'pipefail', '--norc', 'chat.sh'], 'chat.sh'],
    ['shell', ['bash', '--rcfile', 'x', 'chat.sh'], 'chat.sh'],
    ['shell', ['sh', '-c', 'sleep 9'], null],
    ['shell', ['sh', '-ec', 'sleep 9', 'nombre'], null],
    ['shell', ['bash', '-s'], null],
    ['shell', ['-bash'], null],
    ['shell', ['zsh', '+o', 'nomatch', 'chat.zsh'], 'chat.zsh'],
    [
      'powershell',
      ['powershell', '-ExecutionPolicy', 'Bypass', '-File', 'C:\\x\\chat.ps1'],
      'C:\\x\\chat.ps1',
    ],
    ['powershell', ['powershell', '-ep', 'bypass', '-f', 'chat.ps1'], 'chat.ps1'],
    ['powershell', ['powershell', '/NoProfile', '/File', 'chat.ps1'], 'chat.ps1'],
    ['powershell', ['powershell', '-NoProfile', '-Command', 'Start-Sleep 9'], null],
    ['powershell', ['powershell', '-enc', 'UwB0AGEAcgB0AA=='], null],
    ['powershell', ['powershell', 'Start-Sleep', '9'], null],
    ['pwsh', ['pwsh', '-NoLogo', 'chat.ps1'], 'chat.ps1'],
    ['pwsh', ['pwsh', '-c', 'Start-Sleep 9'], null],
    ['wsh', ['cscript', '//nologo', '//E:vbscript', 'chat.vbs', 'x'], 'chat.vbs'],
    ['wsh', ['wscript'], null],
  ];
  it.each(cases)('%s %j → %s', (family, argv, expected) => {
    expect(scriptArg(family, argv)).toBe(expected);
  });

  it('a loader: its first operand after its own options; --list and --verify run nothing', () => {
    expect(loaderProgramArg(['/lib64/ld-linux-x86-64.so.2', './chatgpt', '-x'])).toBe('./chatgpt');
    expect(
      loaderProgramArg(['ld.so', '--library-path', '/tmp', '--argv0', 'otro', '--inhibit-cache', 'chatgpt']),
    ).toBe('chatgpt');
    expect(loaderProgramArg(['ld.so', '--list', 'chatgpt'])).toBeNull();
    expect(loaderProgramArg(['ld.so', '--verify', 'chatgpt'])).toBeNull();
    expect(loaderProgramArg(['ld.so'])).toBeNull();
  });
});

describe('Windows command lines (proclist.exe reads them for interpreters only)', () => {
  it('splits as the C runtime does', () => {
    expect(
      splitWindowsCommandLine('"C:\\Program Files\\Python\\python.exe" -u "C:\\a b\\chat.py" x'),
    ).toEqual(['C:\\Program Files\\Python\\python.exe', '-u', 'C:\\a b\\chat.py', 'x']);
    expect(splitWindowsCommandLine('node.exe  a\\\\"b c"  d\\"e "f""g" h\\\\i')).toEqual([
      'node.exe',
      'a\\b c',
      'd"e',
      'f"g',
      'h\\\\i',
    ]);
    expect(splitWindowsCommandLine('')).toEqual([]);
  });

  it('finds the script of each Windows interpreter, or nothing for inline code', () => {
    expect(windowsProgramOf('C:\\Python312\\python.exe', 'python.exe C:\\u\\chatgpt.py')).toEqual({
      path: 'C:\\u\\chatgpt.py',
      via: 'python',
    });
    expect(windowsProgramOf('C:\\j\\javaw.exe', '"C:\\j\\javaw.exe" -jar "D:\\usb\\chat gpt.jar"')).toEqual({
      path: 'D:\\usb\\chat gpt.jar',
      via: 'javaw',
    });
    expect(
      windowsProgramOf(
        'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        'powershell.exe -ExecutionPolicy Bypass -File .\\chat.ps1',
      ),
    ).toEqual({ path: '.\\chat.ps1', via: 'powershell' });
    expect(windowsProgramOf('C:\\Windows\\System32\\cscript.exe', 'cscript //nologo chat.vbs')).toEqual({
      path: 'chat.vbs',
      via: 'cscript',
    });
    expect(
      windowsProgramOf('C:\\Python312\\python.exe', 'python.exe ..\\usb\\chatgpt.py', 'D:\\trabajo\\'),
    ).toEqual({ path: 'D:\\usb\\chatgpt.py', via: 'python' });
    expect(windowsProgramOf('C:\\n\\node.exe', 'node.exe -e "setTimeout(()=>0,9e3)"')).toBeNull();
    expect(windowsProgramOf('C:\\Python312\\python.exe', 'python.exe -m pip install x')).toBeNull();
    expect(windowsProgramOf('C:\\x\\chrome.exe', 'chrome.exe chatgpt.py')).toBeNull();
  });
});

describe('programNames and matching a program by its name', () => {
  it('a program is judged by its file name with and without its extension', () => {
    expect(programNames({ path: '/home/e/chatgpt-red4.py', via: 'python3' })).toEqual([
      'chatgpt-red4.py',
      'chatgpt-red4',
    ]);
    expect(programNames({ path: 'D:\\usb\\Chat.JAR', via: 'java' })).toEqual(['Chat.JAR', 'Chat']);
    expect(programNames({ path: '/tmp/chatgpt-red4', via: 'ld-linux-x86-64.so.2' })).toEqual([
      'chatgpt-red4',
    ]);
    expect(programNames({ path: '/tmp/.bashrc', via: 'bash' })).toEqual(['.bashrc']);
  });

  it('the matcher blocks an interpreter for its program, its own name first', () => {
    const match = createMatcher(['chatgpt-red4', 'Discord.exe', 'python3.11']);
    const python = { name: 'python3.11', path: '/usr/bin/python3.11' };
    expect(match({ ...python, program: { path: '/tmp/chatgpt-red4.py', via: 'python3' } })).toBe(
      'python3.11',
    );
    const node = { name: 'node', path: '/usr/bin/node' };
    expect(match({ ...node, program: { path: '/tmp/chatgpt-red4.js', via: 'node' } })).toBe('chatgpt-red4');
    expect(match({ ...node, program: { path: '/tmp/discord.js', via: 'node' } })).toBe('Discord.exe');
    expect(match({ ...node, program: { path: '/tmp/notas.js', via: 'node' } })).toBeNull();
    // Only the program's own name: a folder or an argument named like a blocked program is nothing.
    expect(match({ ...node, program: { path: '/tmp/chatgpt-red4/notas.js', via: 'node' } })).toBeNull();
  });

  it('renamedAs names the program when it is not the blocked name', () => {
    const proc = { name: 'python3.11', path: '/usr/bin/python3.11' };
    expect(
      renamedAs('chatgpt-red4', { ...proc, program: { path: '/t/chatgpt-red4.py', via: 'python3' } }),
    ).toBe(undefined);
    expect(renamedAs('chatgpt-red4', { ...proc, program: { path: '/t/notas.py', via: 'python3' } })).toBe(
      'notas.py',
    );
  });
});

describe('linuxProgramOf: a fixture /proc', () => {
  async function fakeProc(
    pid: number,
    files: { cmdline: string[]; cwd: string; maps?: string; exe: string },
  ) {
    const root = await tempDir('agent-proc-');
    const dir = path.join(root, String(pid));
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'cmdline'), files.cmdline.join('\0') + '\0');
    await symlink(files.cwd, path.join(dir, 'cwd'));
    await symlink(files.exe, path.join(dir, 'exe'));
    await writeFile(path.join(dir, 'maps'), files.maps ?? '');
    return root;
  }

  it('resolves a relative script against the process working folder; inline code gives nothing', async () => {
    const root = await fakeProc(40, {
      cmdline: ['python3', '-u', 'sub/chat.py', 'x'],
      cwd: '/home/e',
      exe: '/usr/bin/python3.11',
    });
    const proc = { pid: 40, ppid: 1, name: 'python3.11', path: '/usr/bin/python3.11' };
    expect(linuxProgramOf(proc, root)).toEqual({ path: '/home/e/sub/chat.py', via: 'python3' });
    const inline = await fakeProc(41, {
      cmdline: ['python3', '-c', 'x'],
      cwd: '/',
      exe: '/usr/bin/python3.11',
    });
    expect(linuxProgramOf({ ...proc, pid: 41 }, inline)).toBeNull();
    expect(linuxProgramOf({ pid: 40, ppid: 1, name: 'sleep', path: '/usr/bin/sleep' }, root)).toBeNull();
  });

  it("a script read through the process's own descriptor is that descriptor's file, never the agent's", async () => {
    const bin = await tempDir('agent-bin-');
    const script = path.join(bin, 'chatgpt.sh');
    await writeFile(script, 'sleep 9');
    const root = await fakeProc(60, { cmdline: ['bash', '/dev/fd/3'], cwd: '/', exe: '/usr/bin/bash' });
    await mkdir(path.join(root, '60', 'fd'));
    await symlink(script, path.join(root, '60', 'fd', '3'));
    await symlink('pipe:[4242]', path.join(root, '60', 'fd', '4'));
    const proc = { pid: 60, ppid: 1, name: 'bash', path: '/usr/bin/bash' };
    expect(linuxProgramOf(proc, root)).toEqual({ path: script, via: 'bash' });
    await writeFile(path.join(root, '60', 'cmdline'), 'bash\0/proc/self/fd/4\0');
    expect(linuxProgramOf(proc, root)).toBeNull();
    await writeFile(path.join(root, '60', 'cmdline'), 'bash\0/proc/self/environ\0');
    expect(linuxProgramOf(proc, root)).toBeNull();
  });

  it('a loader: the mapped program even when its arguments were rewritten, never a library', async () => {
    const bin = await tempDir('agent-bin-');
    const program = path.join(bin, 'chatgpt-red4');
    await writeFile(program, 'x');
    const maps = [
      `00400000-00401000 r--p 00000000 08:01 11 ${program}`,
      `00401000-00402000 r-xp 00001000 08:01 11 ${program}`,
      '7f0000000000-7f0000001000 r-xp 00000000 08:01 22 /usr/lib/x86_64-linux-gnu/libc.so.6',
      '7f0000002000-7f0000003000 r-xp 00000000 08:01 33 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2',
      '7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0 [vdso]',
    ].join('\n');
    const loader = '/lib64/ld-linux-x86-64.so.2';
    const proc = { pid: 50, ppid: 1, name: 'ld-linux-x86-64.so.2', path: loader };
    const written = await fakeProc(50, { cmdline: [loader, './chatgpt-red4'], cwd: bin, exe: loader, maps });
    // Its bytes stay readable through the mapping even once the file is deleted.
    expect(linuxProgramOf(proc, written)).toEqual({
      path: program,
      via: 'ld-linux-x86-64.so.2',
      mapped: `${written}/50/map_files/00401000-00402000`,
    });
    const rewritten = await fakeProc(50, { cmdline: [loader, 'inocente'], cwd: '/', exe: loader, maps });
    expect(linuxProgramOf(proc, rewritten)).toEqual({
      path: program,
      via: 'ld-linux-x86-64.so.2',
      mapped: `${rewritten}/50/map_files/00401000-00402000`,
    });
    // Not mapped yet (a scan right after the start): the operand.
    const early = await fakeProc(50, {
      cmdline: [loader, './chatgpt-red4'],
      cwd: bin,
      exe: loader,
      maps: '',
    });
    expect(linuxProgramOf(proc, early)).toEqual({ path: program, via: 'ld-linux-x86-64.so.2' });
  });
});
