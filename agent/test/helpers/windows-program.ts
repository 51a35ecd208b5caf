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

/**
 * A Windows program filling the screen with the colour `RRGGBB` of its first argument (default
 * magenta) until ended: a window titled «ventana de color», above every other window when `topmost`.
 */
const colourWindowSource = (topmost: boolean) => `#include <windows.h>
#include <stdlib.h>
static LRESULT CALLBACK on(HWND w, UINT m, WPARAM wp, LPARAM lp) {
  if (m == WM_DESTROY) { PostQuitMessage(0); return 0; }
  return DefWindowProcW(w, m, wp, lp);
}
int wmain(int argc, wchar_t **argv) {
  unsigned long c = argc > 1 ? wcstoul(argv[1], NULL, 16) : 0xff00ff;
  WNDCLASSW k = {0};
  k.lpfnWndProc = on;
  k.hInstance = GetModuleHandleW(NULL);
  k.lpszClassName = L"color";
  k.hbrBackground = CreateSolidBrush(RGB((c >> 16) & 255, (c >> 8) & 255, c & 255));
  RegisterClassW(&k);
  HWND w = CreateWindowExW(${topmost ? 'WS_EX_TOPMOST' : '0'}, L"color", L"ventana de color", WS_POPUP | WS_VISIBLE, 0, 0,
                           GetSystemMetrics(SM_CXSCREEN), GetSystemMetrics(SM_CYSCREEN), NULL, NULL, k.hInstance, NULL);
  UpdateWindow(w);
  MSG msg;
  while (GetMessageW(&msg, NULL, 0, 0) > 0) DispatchMessageW(&msg);
  return 0;
}
`;

/**
 * Compiles the colour window (above) into a fresh temp folder as `ventana.exe`; answers its path. A
 * capture test shows it full screen and reads its colour in the capture. `topmost`: above the agent's
 * own windows too (the captures' notice), for a test that reads the screen's centre.
 */
export async function colourWindow(topmost: boolean): Promise<string> {
  const dir = await tempDir('agent-colour-');
  const source = path.join(dir, 'ventana.c');
  const exe = path.join(dir, 'ventana.exe');
  await writeFile(source, colourWindowSource(topmost));
  await run(GCC, ['-O2', '-municode', '-mwindows', '-o', exe, source]);
  return exe;
}
