/**
 * The process list on Windows, with each process's executable path, so fingerprints,
 * observing and renamed copies work there as on Linux. ps-list's fastlist gives only names; the single
 * executable of `npm run agent:build` carries its own helper instead, `proclist.exe` (agent/native/
 * proclist.c: Toolhelp32, `QueryFullProcessImageNameW`, `GetProcessTimes`), writes it into the agent's
 * data folder (the service account's profile: only it and the administrators may write there, so a
 * contestant cannot swap the program the agent runs as SYSTEM) and runs it there on each scan. Only
 * an interpreter's command line and working folder are read (program-of.ts: its script is the
 * program judged); they are handed to `windowsProgramOf` at once and only the script's path is kept.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { windowsProgramOf } from './program-of.js';
import type { ProcessLister, RunningProcess } from './scanner.js';

const run = promisify(execFile);

/** The helper's file name, as `npm run agent:build` embeds it and the agent writes it. */
export const PROCLIST_EXE = 'proclist.exe';

/**
 * proclist's answer: one `pid\tparent pid\tstart ms\tname\tpath` line per process (UTF-8, CRLF), and
 * for an interpreter `\tcommand line\tworking folder`, of which only the program it runs is kept
 * (`program`, program-of.ts). The start is kept in whole seconds, like the other listers (an instance
 * keeps its key whichever lister saw it); an empty path (a process the agent may not open) and a 0
 * start are left out. Lines not understood are skipped.
 */
export function parseProclist(stdout: string): RunningProcess[] {
  const result: RunningProcess[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const [pid, ppid, start, name, file, commandLine, folder] = line.split('\t');
    if (!name || !/^\d+$/.test(pid ?? '') || !/^\d+$/.test(ppid ?? '') || !/^\d+$/.test(start ?? ''))
      continue;
    const startMs = Math.floor(Number(start) / 1000) * 1000;
    const program = file && commandLine ? windowsProgramOf(file, commandLine, folder ?? '') : null;
    result.push({
      pid: Number(pid),
      ppid: Number(ppid),
      name,
      ...(file ? { path: file } : {}),
      ...(startMs > 0 ? { startTime: new Date(startMs) } : {}),
      ...(program ? { program } : {}),
    });
  }
  return result;
}

/** A lister running proclist at `helper` (10 MB of output at most, no window). */
function proclistLister(helper: string): ProcessLister {
  return async () => {
    const { stdout } = await run(helper, { maxBuffer: 10_000_000, windowsHide: true, encoding: 'utf8' });
    return parseProclist(stdout);
  };
}

/**
 * In the single executable on Windows, the lister of its embedded proclist, written to `dataDir` when
 * missing or different; elsewhere null (the default lister of scanner.ts applies: `/proc` on Linux,
 * ps-list elsewhere).
 * @throws the file system's error when `dataDir` cannot be written.
 */
export async function embeddedWindowsLister(dataDir: string): Promise<ProcessLister | null> {
  if (process.platform !== 'win32') return null;
  const sea = await import('node:sea');
  if (!sea.isSea()) return null;
  const bytes = Buffer.from(sea.getAsset(PROCLIST_EXE));
  const helper = path.join(dataDir, PROCLIST_EXE);
  const current = await readFile(helper).catch(() => null);
  if (!current?.equals(bytes)) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(helper, bytes);
  }
  return proclistLister(helper);
}
