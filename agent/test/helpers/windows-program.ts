/**
 * A small Windows program of the test's own, with a version resource that names it: compiled by
 * Debian's MinGW-w64 (`x86_64-w64-mingw32-gcc` and `windres`, installed by scripts/test-env.sh for the
 * agent's Windows executable). It waits 5 minutes and exits, so a test blocks only a program it made
 * and a name it made up, never a real one.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './processes.js';

const run = promisify(execFile);

const GCC = 'x86_64-w64-mingw32-gcc';
const WINDRES = 'x86_64-w64-mingw32-windres';

/** Whether MinGW-w64's compiler and resource compiler are installed. */
export const mingwInstalled = (): boolean =>
  existsSync(`/usr/bin/${GCC}`) && existsSync(`/usr/bin/${WINDRES}`);

/** The strings of the program's version resource (absent: left out). */
export interface VersionStrings {
  OriginalFilename?: string;
  InternalName?: string;
  ProductName?: string;
  CompanyName?: string;
  FileDescription?: string;
}

/** A resource script string: quotes doubled, as windres reads them. */
const rcString = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * Compiles the waiting program into a fresh temp folder as `fileName`, with `strings` as its version
 * resource (English, Unicode); answers its path. 15 KB or so, plus `randomData` bytes of random data
 * it carries (default 0): its bytes are then its own, unlike any other small MinGW program (the
 * agent's own `proclist.exe` among them) to a similarity digest.
 */
export async function windowsProgram(
  fileName: string,
  strings: VersionStrings,
  randomData = 0,
): Promise<string> {
  const dir = await tempDir('agent-winprog-');
  const source = path.join(dir, 'programa.c');
  const script = path.join(dir, 'version.rc');
  const object = path.join(dir, 'version.o');
  const exe = path.join(dir, fileName);
  const data = [...randomBytes(randomData)].join(',');
  await writeFile(
    source,
    [
      '#include <windows.h>',
      randomData > 0 ? `volatile const unsigned char datos[] = {${data}};` : '',
      'int main(void) { Sleep(300000); return 0; }',
      '',
    ].join('\n'),
  );
  const values = Object.entries(strings)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `      VALUE ${rcString(key)}, ${rcString(value!)}`)
    .join('\n');
  await writeFile(
    script,
    [
      '1 VERSIONINFO',
      'FILEVERSION 1,0,0,0',
      'PRODUCTVERSION 1,0,0,0',
      'FILETYPE 1',
      'BEGIN',
      '  BLOCK "StringFileInfo"',
      '  BEGIN',
      '    BLOCK "040904b0"',
      '    BEGIN',
      values,
      '    END',
      '  END',
      '  BLOCK "VarFileInfo"',
      '  BEGIN',
      '    VALUE "Translation", 0x409, 1200',
      '  END',
      'END',
      '',
    ].join('\n'),
  );
  await run(WINDRES, [script, '-O', 'coff', '-o', object]);
  await run(GCC, ['-O2', '-s', '-o', exe, source, object]);
  return exe;
}
