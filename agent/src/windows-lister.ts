/**
 * The process list on Windows (issue 27). ps-list runs the helper it vendors, fastlist (Toolhelp32:
 * pid, parent pid, name), from a folder beside its own code; the single executable of
 * `npm run agent:build` has no such folder, so it carries the helper inside (a SEA asset), writes it
 * into the agent's data folder (the service account's profile: only it and the administrators may
 * write there, so a contestant cannot swap the program the agent runs as SYSTEM) and runs it from
 * there. No command line is ever read.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ProcessLister, RunningProcess } from './scanner.js';

const run = promisify(execFile);

/** The helper's file name, as ps-list vendors it and as `npm run agent:build` embeds it. */
export const FASTLIST_EXE = 'fastlist-0.3.0-x64.exe';

/** fastlist's answer: one `pid\tppid\tname` line per process (CRLF); lines not understood are skipped. */
export function parseFastlist(stdout: string): RunningProcess[] {
  const result: RunningProcess[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const [pid, ppid, name] = line.split('\t');
    if (!name || !/^\d+$/.test(pid ?? '') || !/^\d+$/.test(ppid ?? '')) continue;
    result.push({ name, pid: Number(pid), ppid: Number(ppid) });
  }
  return result;
}

/** A lister running fastlist at `helper` (ps-list's limits: 10 MB of output, no window). */
export function fastlistLister(helper: string): ProcessLister {
  return async () => {
    const { stdout } = await run(helper, { maxBuffer: 10_000_000, windowsHide: true, encoding: 'utf8' });
    return parseFastlist(stdout);
  };
}

/**
 * In the single executable on Windows, the lister of its embedded fastlist, written to `dataDir` when
 * missing or different; elsewhere null (the default lister of scanner.ts applies).
 * @throws the file system's error when `dataDir` cannot be written.
 */
export async function embeddedWindowsLister(dataDir: string): Promise<ProcessLister | null> {
  if (process.platform !== 'win32') return null;
  const sea = await import('node:sea');
  if (!sea.isSea()) return null;
  const bytes = Buffer.from(sea.getAsset(FASTLIST_EXE));
  const helper = path.join(dataDir, FASTLIST_EXE);
  const current = await readFile(helper).catch(() => null);
  if (!current?.equals(bytes)) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(helper, bytes);
  }
  return fastlistLister(helper);
}
