/*
 * screenshot.exe: the Windows screen capture of the agent's single executable (agent/src/capture-screen.ts,
 * agent/README.md «Capturas de pantalla»).
 *
 *   screenshot.exe <file>   writes the whole virtual screen (every monitor) to <file> as an uncompressed
 *                           24-bit BMP (BITMAPFILEHEADER, BITMAPINFOHEADER, rows bottom-up padded to
 *                           4 bytes), and exits 0.
 *
 * GDI only: GetDC(NULL) of the virtual screen, BitBlt (with CAPTUREBLT, so layered windows are in it)
 * into a 24-bit DIB section, the process DPI-aware so the pixels are the monitors' own. The agent runs
 * as SYSTEM in session 0, which has no desktop the contestant sees: when this process is not in the
 * active console session, it starts itself there with the logged-in user's token (WTSQueryUserToken,
 * which only SYSTEM may call) on winsta0\default, handing it the open file as its standard output,
 * and waits for it (at most RELAY_WAIT_MS); with no user logged in it fails (a black screen of
 * session 0 would say nothing).
 *
 * Exit codes: 0 written; 2 usage; 3 the file cannot be created; 4 the screen cannot be read (no
 * desktop: a locked workstation's secure desktop); 5 no user session to capture; 6 the relay in the
 * user's session did not finish in time; otherwise the relay's own code.
 *
 * Built by agent/scripts/build.ts with Debian's MinGW-w64 (wtsapi32 is loaded at run time):
 *   x86_64-w64-mingw32-gcc -O2 -municode -s -Wl,--no-insert-timestamp -o screenshot.exe screenshot.c -lgdi32
 */
#define WIN32_LEAN_AND_MEAN
#ifndef UNICODE
#define UNICODE
#endif
#include <windows.h>

/* Longest wait for the copy started in the user's session (ms): within the agent's 5 s for a grab. */
#define RELAY_WAIT_MS 4000

/* The argument of the copy started in the user's session: write to standard output. */
static const wchar_t RELAY_ARGUMENT[] = L"--salida-estandar";

static BOOL write_all(HANDLE out, const void *bytes, DWORD length) {
  const char *at = (const char *)bytes;
  while (length > 0) {
    DWORD written = 0;
    if (!WriteFile(out, at, length, &written, NULL) || written == 0) return FALSE;
    at += written;
    length -= written;
  }
  return TRUE;
}

/* Reads the virtual screen and writes it to `out` as a 24-bit BMP; answers the exit code. */
static int capture(HANDLE out) {
  SetProcessDPIAware();
  int left = GetSystemMetrics(SM_XVIRTUALSCREEN);
  int top = GetSystemMetrics(SM_YVIRTUALSCREEN);
  int width = GetSystemMetrics(SM_CXVIRTUALSCREEN);
  int height = GetSystemMetrics(SM_CYVIRTUALSCREEN);
  if (width <= 0 || height <= 0) return 4;

  HDC screen = GetDC(NULL);
  if (screen == NULL) return 4;
  HDC memory = CreateCompatibleDC(screen);
  BITMAPINFO info;
  ZeroMemory(&info, sizeof(info));
  info.bmiHeader.biSize = sizeof(BITMAPINFOHEADER);
  info.bmiHeader.biWidth = width;
  info.bmiHeader.biHeight = height; /* positive: bottom-up, as BMP files are */
  info.bmiHeader.biPlanes = 1;
  info.bmiHeader.biBitCount = 24;
  info.bmiHeader.biCompression = BI_RGB;
  void *bits = NULL;
  HBITMAP bitmap = memory ? CreateDIBSection(screen, &info, DIB_RGB_COLORS, &bits, NULL, 0) : NULL;
  int code = 4;
  if (bitmap != NULL && bits != NULL) {
    HGDIOBJ previous = SelectObject(memory, bitmap);
    if (BitBlt(memory, 0, 0, width, height, screen, left, top, SRCCOPY | CAPTUREBLT)) {
      GdiFlush();
      DWORD stride = ((DWORD)width * 3 + 3) & ~3u;
      DWORD size = stride * (DWORD)height;
      BITMAPFILEHEADER file;
      ZeroMemory(&file, sizeof(file));
      file.bfType = 0x4D42; /* "BM" */
      file.bfOffBits = sizeof(BITMAPFILEHEADER) + sizeof(BITMAPINFOHEADER);
      file.bfSize = file.bfOffBits + size;
      info.bmiHeader.biSizeImage = size;
      code = write_all(out, &file, sizeof(file)) && write_all(out, &info.bmiHeader, sizeof(BITMAPINFOHEADER)) &&
                     write_all(out, bits, size)
                 ? 0
                 : 3;
    }
    SelectObject(memory, previous);
    DeleteObject(bitmap);
  }
  if (memory) DeleteDC(memory);
  ReleaseDC(NULL, screen);
  return code;
}

typedef BOOL(WINAPI *QueryUserToken)(ULONG, PHANDLE);

/*
 * When this process is not in the active console session (the agent's service in session 0), runs
 * a copy of itself there as the logged-in user, its standard output `out`; answers its exit code, or
 * -1 when this process is already in that session (capture here).
 */
static int relay(HANDLE out) {
  DWORD active = WTSGetActiveConsoleSessionId();
  DWORD mine = 0;
  if (active == 0xFFFFFFFF || !ProcessIdToSessionId(GetCurrentProcessId(), &mine) || mine == active)
    return -1;
  HMODULE wts = LoadLibraryW(L"wtsapi32.dll");
  QueryUserToken query = wts ? (QueryUserToken)(void *)GetProcAddress(wts, "WTSQueryUserToken") : NULL;
  HANDLE token = NULL;
  if (query == NULL || !query(active, &token)) return 5;

  wchar_t self[MAX_PATH + 1];
  DWORD length = GetModuleFileNameW(NULL, self, MAX_PATH);
  if (length == 0 || length >= MAX_PATH) {
    CloseHandle(token);
    return 5;
  }
  self[length] = 0;
  wchar_t line[MAX_PATH + 64];
  lstrcpyW(line, L"\"");
  lstrcatW(line, self);
  lstrcatW(line, L"\" ");
  lstrcatW(line, RELAY_ARGUMENT);

  SetHandleInformation(out, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  STARTUPINFOW startup;
  ZeroMemory(&startup, sizeof(startup));
  startup.cb = sizeof(startup);
  startup.lpDesktop = L"winsta0\\default";
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdOutput = out;
  PROCESS_INFORMATION process;
  BOOL started = CreateProcessAsUserW(token, self, line, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, NULL,
                                      &startup, &process);
  CloseHandle(token);
  if (!started) return 5;
  int code = 6;
  if (WaitForSingleObject(process.hProcess, RELAY_WAIT_MS) == WAIT_OBJECT_0) {
    DWORD exit_code = 6;
    GetExitCodeProcess(process.hProcess, &exit_code);
    code = (int)exit_code;
  } else {
    TerminateProcess(process.hProcess, 6);
  }
  CloseHandle(process.hThread);
  CloseHandle(process.hProcess);
  return code;
}

int wmain(int argc, wchar_t **argv) {
  if (argc == 2 && lstrcmpW(argv[1], RELAY_ARGUMENT) == 0) return capture(GetStdHandle(STD_OUTPUT_HANDLE));
  if (argc != 2) return 2;
  HANDLE file = CreateFileW(argv[1], GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
  if (file == INVALID_HANDLE_VALUE) return 3;
  int code = relay(file);
  if (code == -1) code = capture(file);
  CloseHandle(file);
  if (code != 0) DeleteFileW(argv[1]);
  return code;
}
