/*
 * proclist.exe: the Windows process list of the agent's single executable, with what
 * fingerprints need and ps-list's fastlist does not give: each process's executable path.
 *
 * Prints one line per process, UTF-8, fields separated by tabs, lines ended by CRLF:
 *   pid <TAB> parent pid <TAB> start (ms since 1970-01-01 UTC, 0 when unknown) <TAB> name <TAB> path
 * and, for an interpreter only (python*, node, java, javaw, powershell, pwsh, wscript, cscript, perl,
 * ruby, php: its script is the program the agent judges, agent/src/program-of.ts), <TAB> command line
 * <TAB> working folder (read from the process's PEB; the agent keeps only the script's path).
 * The path is empty when the process cannot be opened (another session's protected process, without
 * rights). Nothing else about a process is read: no other program's command line.
 *
 * Toolhelp32 for the list, QueryFullProcessImageNameW and GetProcessTimes on a handle opened with
 * PROCESS_QUERY_LIMITED_INFORMATION (what an administrator's or SYSTEM's agent may open for any
 * process); for an interpreter, NtQueryInformationProcess and ReadProcessMemory of its PEB's process
 * parameters (PROCESS_QUERY_INFORMATION | PROCESS_VM_READ). Built by agent/scripts/build.ts with Debian's MinGW-w64:
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

/* Whether a process's executable name is an interpreter whose script the agent judges. */
static BOOL is_interpreter(const wchar_t *name) {
  static const wchar_t *names[] = {L"node.exe",   L"java.exe",    L"javaw.exe",   L"powershell.exe",
                                   L"pwsh.exe",   L"wscript.exe", L"cscript.exe", L"perl.exe",
                                   L"ruby.exe",   L"php.exe",     NULL};
  for (int i = 0; names[i] != NULL; i++) {
    if (lstrcmpiW(name, names[i]) == 0) return TRUE;
  }
  /* python.exe, pythonw.exe, python3.exe, python3.12.exe */
  wchar_t prefix[7];
  lstrcpynW(prefix, name, 7);
  return lstrcmpiW(prefix, L"python") == 0;
}

/* NtQueryInformationProcess, from ntdll (no import library needed). */
typedef LONG(NTAPI *QueryInformation)(HANDLE, ULONG, PVOID, ULONG, PULONG);

/* x64 layouts: PROCESS_BASIC_INFORMATION's PEB address, PEB.ProcessParameters, and in
   RTL_USER_PROCESS_PARAMETERS the UNICODE_STRINGs CurrentDirectory.DosPath and CommandLine. */
#define PEB_PROCESS_PARAMETERS 0x20
#define PARAMETERS_CURRENT_DIRECTORY 0x38
#define PARAMETERS_COMMAND_LINE 0x70

/* Reads a UNICODE_STRING of another process at `at` into `text` (empty when it cannot). */
static void read_string(HANDLE process, ULONG_PTR at, wchar_t *text, DWORD capacity) {
  struct {
    USHORT length;
    USHORT maximum;
    ULONG padding;
    ULONG_PTR buffer;
  } string;
  SIZE_T got = 0;
  text[0] = 0;
  if (!ReadProcessMemory(process, (LPCVOID)at, &string, sizeof(string), &got) || got != sizeof(string))
    return;
  DWORD count = string.length / sizeof(wchar_t);
  if (string.buffer == 0 || count + 1 > capacity) return;
  if (!ReadProcessMemory(process, (LPCVOID)string.buffer, text, count * sizeof(wchar_t), &got)) return;
  text[got / sizeof(wchar_t)] = 0;
}

/* The command line and working folder of an interpreter's process, from its PEB (empty when they
   cannot be read: a process of another session without rights). */
static void command_line(DWORD pid, QueryInformation query, wchar_t *line, wchar_t *folder, DWORD capacity) {
  line[0] = 0;
  folder[0] = 0;
  if (query == NULL) return;
  HANDLE process = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, FALSE, pid);
  if (process == NULL) return;
  ULONG_PTR basic[6];
  ULONG length = 0;
  ULONG_PTR parameters = 0;
  SIZE_T got = 0;
  if (query(process, 0, basic, sizeof(basic), &length) >= 0 &&
      ReadProcessMemory(process, (LPCVOID)(basic[1] + PEB_PROCESS_PARAMETERS), &parameters, sizeof(parameters),
                        &got) &&
      parameters != 0) {
    read_string(process, parameters + PARAMETERS_COMMAND_LINE, line, capacity);
    read_string(process, parameters + PARAMETERS_CURRENT_DIRECTORY, folder, capacity);
  }
  CloseHandle(process);
}

int wmain(void) {
  out = GetStdHandle(STD_OUTPUT_HANDLE);
  HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snapshot == INVALID_HANDLE_VALUE) return 1;
  PROCESSENTRY32W entry;
  entry.dwSize = sizeof(entry);
  static wchar_t path[32768];
  static wchar_t line[32768];
  static wchar_t folder[32768];
  QueryInformation query =
      (QueryInformation)(void *)GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtQueryInformationProcess");
  for (BOOL more = Process32FirstW(snapshot, &entry); more; more = Process32NextW(snapshot, &entry)) {
    ULONGLONG start = 0;
    path[0] = 0;
    line[0] = 0;
    folder[0] = 0;
    BOOL interpreter = is_interpreter(entry.szExeFile);
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
    if (interpreter) command_line(entry.th32ProcessID, query, line, folder, sizeof(line) / sizeof(line[0]));
    put_number(entry.th32ProcessID);
    put_text("\t");
    put_number(entry.th32ParentProcessID);
    put_text("\t");
    put_number(start);
    put_text("\t");
    put_wide(entry.szExeFile);
    put_text("\t");
    put_wide(path);
    if (line[0] != 0) {
      put_text("\t");
      put_wide(line);
      put_text("\t");
      put_wide(folder);
    }
    put_text("\r\n");
  }
  CloseHandle(snapshot);
  flush_out();
  return 0;
}
