/*
 * proclist.exe: the Windows process list of the agent's single executable (issue 27), with what
 * fingerprints need and ps-list's fastlist does not give: each process's executable path.
 *
 * Prints one line per process, UTF-8, fields separated by tabs, lines ended by CRLF:
 *   pid <TAB> parent pid <TAB> start (ms since 1970-01-01 UTC, 0 when unknown) <TAB> name <TAB> path
 * The path is empty when the process cannot be opened (another session's protected process, without
 * rights). Nothing else about a process is read: never its command line.
 *
 * Toolhelp32 for the list, QueryFullProcessImageNameW and GetProcessTimes on a handle opened with
 * PROCESS_QUERY_LIMITED_INFORMATION (what an administrator's or SYSTEM's agent may open for any
 * process). Built by agent/scripts/build.ts with Debian's MinGW-w64:
 *   x86_64-w64-mingw32-gcc -O2 -municode -s -Wl,--no-insert-timestamp -o proclist.exe proclist.c
 */
#define WIN32_LEAN_AND_MEAN
#ifndef UNICODE
#define UNICODE
#endif
#include <windows.h>
#include <tlhelp32.h>

/* Seconds between 1601-01-01 (FILETIME) and 1970-01-01 (Unix), in 100 ns units. */
#define EPOCH_DIFFERENCE 116444736000000000ULL

static HANDLE out;
static char buffer[1 << 16];
static DWORD used;

static void flush_out(void) {
  DWORD written;
  if (used > 0) WriteFile(out, buffer, used, &written, NULL);
  used = 0;
}

static void put_bytes(const char *bytes, DWORD length) {
  if (used + length > sizeof(buffer)) flush_out();
  if (length > sizeof(buffer)) {
    DWORD written;
    WriteFile(out, bytes, length, &written, NULL);
    return;
  }
  CopyMemory(buffer + used, bytes, length);
  used += length;
}

static void put_text(const char *text) { put_bytes(text, lstrlenA(text)); }

static void put_number(ULONGLONG value) {
  char digits[24];
  int i = sizeof(digits);
  digits[--i] = 0;
  do {
    digits[--i] = (char)('0' + value % 10);
    value /= 10;
  } while (value > 0);
  put_text(digits + i);
}

/* A UTF-16 string as UTF-8; tabs and line breaks (never in a file name) become spaces. */
static void put_wide(const wchar_t *text) {
  static char utf8[4 * 32768];
  int length = WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8, sizeof(utf8), NULL, NULL);
  if (length <= 1) return;
  for (int i = 0; i < length - 1; i++) {
    if (utf8[i] == '\t' || utf8[i] == '\r' || utf8[i] == '\n') utf8[i] = ' ';
  }
  put_bytes(utf8, (DWORD)(length - 1));
}

int wmain(void) {
  out = GetStdHandle(STD_OUTPUT_HANDLE);
  HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snapshot == INVALID_HANDLE_VALUE) return 1;
  PROCESSENTRY32W entry;
  entry.dwSize = sizeof(entry);
  static wchar_t path[32768];
  for (BOOL more = Process32FirstW(snapshot, &entry); more; more = Process32NextW(snapshot, &entry)) {
    ULONGLONG start = 0;
    path[0] = 0;
    HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, entry.th32ProcessID);
    if (process != NULL) {
      DWORD size = sizeof(path) / sizeof(path[0]);
      if (!QueryFullProcessImageNameW(process, 0, path, &size)) path[0] = 0;
      FILETIME created, exited, kernel, user;
      if (GetProcessTimes(process, &created, &exited, &kernel, &user)) {
        ULONGLONG ticks = ((ULONGLONG)created.dwHighDateTime << 32) | created.dwLowDateTime;
        if (ticks > EPOCH_DIFFERENCE) start = (ticks - EPOCH_DIFFERENCE) / 10000;
      }
      CloseHandle(process);
    }
    put_number(entry.th32ProcessID);
    put_text("\t");
    put_number(entry.th32ParentProcessID);
    put_text("\t");
    put_number(start);
    put_text("\t");
    put_wide(entry.szExeFile);
    put_text("\t");
    put_wide(path);
    put_text("\r\n");
  }
  CloseHandle(snapshot);
  flush_out();
  return 0;
}
