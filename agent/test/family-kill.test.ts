/**
 * The whole family of a blocked program ends (agent/src/README.md, «Una familia entera»), with the
 * real agent: programs this test compiles with gcc into a temp folder, under names of their own (an
 * agent running as root on a shared machine must never end a real program). Each vector prints its
 * times; the assertions are what happened (gone, attempts counted, the honest sibling alive), never
 * a duration (speed goes to bench/).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent, type AgentHandle } from '../src/agent.js';
import { procLister } from '../src/proc-lister.js';
import type { ProcessLister } from '../src/scanner.js';
import { startFakeServer, type FakeServer } from './helpers/fake-server.js';
import {
  blockedBinary,
  cleanUp,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
  type Spawned,
} from './helpers/processes.js';

const run = promisify(execFile);
const servers: FakeServer[] = [];
const agents: AgentHandle[] = [];
/** Pids this test started outside `spawnProcess` (chains, restarts), killed at the end if left. */
const strays = new Set<string>();
/** The desks running (`desk` below): ended with SIGTERM, so every process of them is reaped. */
const desks: Spawned[] = [];

afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  // A desk ends its own processes and reaps them; killed outright, its orphans would go to pid 1.
  await Promise.all(
    desks.splice(0).map(async (desk) => {
      desk.child.kill('SIGTERM');
      await within(5_000, desk.exited, 'el escritorio de prueba termina');
    }),
  );
  for (const exe of strays) for (const pid of alivePids(exe)) killQuietly(pid);
  strays.clear();
  await cleanUp();
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/** The C sources: each notes `<what> <pid> <ms since epoch>` lines in the file given as first argument. */
const NOTE = `
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static const char *logpath;
static void note(const char *what) {
  struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts);
  char buf[96];
  int n = snprintf(buf, sizeof buf, "%s %d %lld\\n", what, (int)getpid(),
                   (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
  int fd = open(logpath, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd >= 0) { if (write(fd, buf, n) < 0) {} close(fd); }
}
`;
const SOURCES = {
  /** Sleeps; on SIGTERM forks a child that goes on, and exits. */
  forkOnTerm: `${NOTE}
static void on_term(int sig) { (void)sig; note("term"); pid_t c = fork(); if (c > 0) _exit(0); if (c == 0) note("fork"); }
int main(int argc, char **argv) { (void)argc; logpath = argv[1];
  struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = on_term; sigaction(SIGTERM, &sa, 0);
  note("start"); for (;;) pause(); }`,
  /**
   * Every millisecond forks, and the parent exits: a new pid each millisecond, its ppid link broken.
   * Every tenth link notes "gen<N>" (a listing of /proc is too slow to see it alive: this is how the
   * test knows when it stopped).
   */
  forkChain: `${NOTE}
int main(int argc, char **argv) { (void)argc; logpath = argv[1]; note("start"); long n = 0;
  for (;;) {
    usleep(1000); pid_t c = fork(); if (c > 0) _exit(0);
    if (c == 0) { n++; if (n == 1) note("fork"); if (n % 10 == 0) { char w[32]; snprintf(w, sizeof w, "gen%ld", n); note(w); } }
  } }`,
  /**
   * A desktop in small: this process is the user's manager (a subreaper in a session of its own, as
   * systemd --user), reaping every orphan, so nothing of the test is left to pid 1 (which on this
   * machine does not reap). It starts a "terminal shell" (a session of its own), which starts an
   * honest sibling (argv[2], unless "-") and the program (argv[3..]), in the shell's process group
   * ("shared", argv[1]) or a group of its own (a terminal job, "job"), and stays. On SIGTERM it kills
   * its children until none is left, reaps them and exits.
   */
  desk: `
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile sig_atomic_t stop = 0;
static void on_term(int sig) { (void)sig; stop = 1; }
/* SIGKILL to every child of this process (the shell, and the orphans it adopted). */
static void kill_children(void) {
  DIR *d = opendir("/proc"); if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    int pid = atoi(e->d_name); if (pid <= 0) continue;
    char path[64], buf[512]; snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r"); if (!f) continue;
    size_t k = fread(buf, 1, sizeof buf - 1, f); fclose(f); buf[k] = 0;
    char *p = strrchr(buf, ')'); if (!p) continue;
    char state; int ppid;
    int pgrp;
    if (sscanf(p + 2, "%c %d %d", &state, &ppid, &pgrp) == 3 && ppid == (int)getpid()) {
      /* Its whole group too (one call reaches a fork chain's next link), never this desk's own. */
      if (pgrp != (int)getpgrp() && pgrp > 1) kill(-pgrp, SIGKILL);
      kill(pid, SIGKILL);
    }
  }
  closedir(d);
}
int main(int argc, char **argv) {
  (void)argc;
  prctl(PR_SET_CHILD_SUBREAPER, 1); setsid();
  struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = on_term; sigaction(SIGTERM, &sa, 0);
  pid_t shell = fork();
  if (shell == 0) {
    setsid();
    if (strcmp(argv[2], "-") != 0 && fork() == 0) { execl(argv[2], argv[2], "100", (char *)0); _exit(127); }
    pid_t prog = fork();
    if (prog == 0) { if (strcmp(argv[1], "job") == 0) setpgid(0, 0); execv(argv[3], argv + 3); _exit(127); }
    for (;;) pause();
  }
  while (!stop) { if (waitpid(-1, 0, 0) < 0 && errno == ECHILD) break; }
  for (int round = 0; round < 5000; round++) {
    kill(-shell, SIGKILL);
    kill_children();
    pid_t w; while ((w = waitpid(-1, 0, WNOHANG)) > 0) {}
    if (w < 0 && errno == ECHILD) return 0;
    usleep(1000);
  }
  return 0;
}`,
  /** Notes its start and sleeps. */
  victim: `${NOTE}
int main(int argc, char **argv) { (void)argc; logpath = argv[1]; note("start"); for (;;) pause(); }`,
  /**
   * A restart loop that never reaps: starts argv[2] N times (argv[3]), each when the last one ended
   * (a zombie), noting "dead"; the zombies stay until this ends.
   */
  restarter: `${NOTE}
int main(int argc, char **argv) { (void)argc; logpath = argv[1]; int n = atoi(argv[3]);
  for (int i = 0; i < n; i++) {
    pid_t c = fork();
    if (c == 0) { execl(argv[2], argv[2], argv[1], (char *)0); _exit(127); }
    char path[64]; snprintf(path, sizeof path, "/proc/%d/stat", (int)c);
    for (;;) {
      usleep(1000);
      FILE *f = fopen(path, "r"); if (!f) break;
      char buf[512]; size_t k = fread(buf, 1, sizeof buf - 1, f); fclose(f); buf[k] = 0;
      char *p = strrchr(buf, ')'); if (p && (p[2] == 'Z' || p[2] == 'X')) break;
    }
    char what[32]; snprintf(what, sizeof what, "dead%d", (int)c); note(what);
  }
  note("done"); for (;;) pause(); }`,
} as const;

/** Compiles one of the sources into a temp folder under a name of its own (≤ 15 chars: its comm). */
async function compile(source: keyof typeof SOURCES, base: string): Promise<string> {
  const dir = await tempDir('agent-family-');
  const file = path.join(dir, uniqueName(base));
  await writeFile(`${file}.c`, SOURCES[source]);
  await run('gcc', ['-O1', '-o', file, `${file}.c`]);
  // A desk is ended by SIGTERM only (it then ends and reaps what runs under it).
  if (source !== 'desk') strays.add(file);
  return file;
}

/** Live pids (not zombies: those have no executable) running `exe`, read from /proc. */
function alivePids(exe: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (readlinkSync(`/proc/${pid}/exe`) === exe) pids.push(pid);
    } catch {
      // gone, or a zombie
    }
  }
  return pids;
}

/** Zombie children of `ppid` (state Z in /proc/<pid>/stat). */
function zombieChildren(ppid: number): number[] {
  const result: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' && Number(fields[1]) === ppid) result.push(pid);
    } catch {
      // gone
    }
  }
  return result;
}

/**
 * Resolves with the time (ms since epoch) from which no process runs `exe` any more, looking every
 * 5 ms: gone for 300 ms in a row (one look may fall between a chain's exiting parent and its child).
 */
async function goneAt(exe: string, withinMs: number, what: string): Promise<number> {
  const deadline = Date.now() + withinMs;
  let since: number | null = null;
  for (;;) {
    const now = Date.now();
    if (alivePids(exe).length > 0) since = null;
    else since ??= now;
    if (since !== null && now - since >= 300) return since;
    if (now > deadline) throw new Error(`${what}: no ocurrió en ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The `<what> <pid> <ms>` lines a program noted. */
async function notes(file: string): Promise<{ what: string; pid: number; at: number }[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [what, pid, at] = line.split(' ');
      return { what: what!, pid: Number(pid), at: Number(at) };
    });
}

/** The real agent, blocking `blocked`, scanning only the processes of this test's own folders. */
async function agentFor(blocked: string[], dirs: string[]) {
  const server = await startFakeServer(blocked);
  servers.push(server);
  const all = procLister();
  const lister: ProcessLister = async () =>
    (await all()).filter((p) => dirs.some((dir) => p.path?.startsWith(`${dir}/`)));
  const lines: string[] = [];
  /** When each line was logged (ms since epoch): a kill's line comes when its family is gone. */
  const loggedAt: number[] = [];
  const handle = await startAgent({
    server: server.url,
    key: server.key,
    dataDir: await tempDir(),
    lister,
    push: false,
    log: (line) => {
      lines.push(line);
      loggedAt.push(Date.now());
    },
  });
  agents.push(handle);
  /** When the agent logged its first kill, or null. */
  const firstKillAt = () => {
    const index = lines.findIndex((l) => l.startsWith('Proceso bloqueado terminado'));
    return index < 0 ? null : loggedAt[index]!;
  };
  return { server, handle, lines, firstKillAt };
}

/**
 * Starts `program` (with `args`) from a terminal shell of a small desktop (`desk` above), in the
 * shell's group (`shared`) or a group of its own (`job`), next to an honest sibling: a copy of sleep
 * under a name of its own, in the shell's group and session. Answers the sibling's file.
 */
async function onDesk(mode: 'shared' | 'job', program: string, args: string[]): Promise<{ sibling: string }> {
  const desk = await compile('desk', 'desk');
  const sibling = await blockedBinary(uniqueName('honesto'));
  strays.add(sibling);
  desks.push(await spawnProcess(desk, [mode, sibling, program, ...args]));
  return { sibling };
}

/** Waits past the rescans after the last kill, then sends what is queued; answers the attempts. */
async function settledAttempts(server: FakeServer, handle: AgentHandle) {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await handle.flush();
  return [...server.stored.values()];
}

/** Whether this test process's parent (the agent runs in it: its ancestors) still runs. */
function ancestorsAlive(): boolean {
  try {
    process.kill(process.ppid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
  "a blocked program's whole family ends (real agent, root)",
  () => {
    it('(a) a program that forks a child on SIGTERM is gone, counted as one attempt; the honest sibling in its group lives', async () => {
      const exe = await compile('forkOnTerm', 'fterm');
      const log = `${exe}.log`;
      const { server, handle } = await agentFor([path.basename(exe)], [path.dirname(exe)]);
      const startedAt = Date.now();
      const { sibling } = await onDesk('shared', exe, [log]);
      const gone = await goneAt(exe, 5_000, 'el programa que se bifurca con SIGTERM termina');
      const noted = await notes(log);
      const attempts = await settledAttempts(server, handle);

      const firstTerm = noted.find((n) => n.what === 'term')!;
      console.log(
        `[familia] (a) fork con SIGTERM: desde el inicio ${gone - startedAt} ms, desde el primer SIGTERM ` +
          `${gone - firstTerm.at} ms; hijos creados ${noted.filter((n) => n.what === 'fork').length}; ` +
          `intentos ${attempts.length}`,
      );
      expect(alivePids(exe)).toEqual([]);
      expect(noted.filter((n) => n.what === 'term')).toHaveLength(1);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ process: path.basename(exe), killed: true });
      expect(alivePids(sibling)).toHaveLength(1);
      expect(ancestorsAlive()).toBe(true);
    });

    for (const mode of ['shared', 'job'] as const) {
      it(`(b) a chain forking every 1 ms, its parents exiting (${mode === 'shared' ? "in its shell's group, with an honest sibling" : 'a terminal job, its own group'}): gone, a handful of attempts, the sibling lives`, async () => {
        const exe = await compile('forkChain', 'chain');
        const log = `${exe}.log`;
        const { server, handle, firstKillAt } = await agentFor([path.basename(exe)], [path.dirname(exe)]);
        const startedAt = Date.now();
        const { sibling } = await onDesk(mode, exe, [log]);
        await within(10_000, chainStopped(log), 'la cadena de bifurcaciones termina');
        const noted = await notes(log);
        const firstFork = noted.find((n) => n.what === 'fork')!;
        const last = noted.at(-1)!;
        const attempts = await settledAttempts(server, handle);

        console.log(
          `[familia] (b) cadena cada 1 ms (${mode === 'shared' ? 'grupo compartido' : 'grupo propio'}): ` +
            `última señal de vida ${last.at - firstFork.at} ms después de la primera bifurcación ` +
            `(${last.at - startedAt} ms desde el inicio; ${last.what}); el agente anotó su primer fin a ` +
            `${(firstKillAt() ?? NaN) - firstFork.at} ms; intentos ${attempts.length}`,
        );
        // Nothing more noted since, and nothing of it alive.
        expect((await notes(log)).at(-1)).toEqual(last);
        expect(alivePids(exe)).toEqual([]);
        expect(attempts.length).toBeGreaterThanOrEqual(1);
        expect(attempts.length).toBeLessThanOrEqual(3);
        expect(alivePids(sibling)).toHaveLength(1);
        expect(ancestorsAlive()).toBe(true);
      });
    }

    it('(c) a restart loop that never reaps: each start ended, attempts = starts, its zombies never counted', async () => {
      const victim = await compile('victim', 'again');
      const restarter = await compile('restarter', 'loop');
      const log = `${victim}.log`;
      const starts = 6;
      const { server, handle, lines } = await agentFor([path.basename(victim)], [path.dirname(victim)]);
      await onDesk('shared', restarter, [log, victim, String(starts)]);
      await within(15_000, waitForNote(log, 'done'), 'el bucle de reinicio termina sus arranques');
      const loopPid = (await notes(log)).find((n) => n.what === 'done')!.pid;
      const zombies = zombieChildren(loopPid);
      const noted = await notes(log);
      const attempts = await settledAttempts(server, handle);

      const begun = noted.filter((n) => n.what === 'start');
      const lives = begun.map((s) => noted.find((n) => n.what === `dead${s.pid}`)!.at - s.at);
      console.log(
        `[familia] (c) bucle de reinicio: ${begun.length} arranques, vida de cada copia ${lives.join(', ')} ms ` +
          `(la primera espera el sondeo); intentos ${attempts.length}; zombis presentes ${zombies.length}`,
      );
      expect(begun).toHaveLength(starts);
      expect(zombies.length).toBe(starts);
      expect(attempts).toHaveLength(starts);
      expect(lines.filter((l) => l.startsWith('Proceso bloqueado terminado'))).toHaveLength(starts);
      expect(alivePids(restarter)).toHaveLength(1);
    });

    it('(c) a shell loop restarting the program: each start ended, attempts = starts', async () => {
      const victim = await compile('victim', 'again');
      const log = `${victim}.log`;
      const starts = 5;
      const { server, handle } = await agentFor([path.basename(victim)], [path.dirname(victim)]);
      await onDesk('shared', '/bin/sh', [
        '-c',
        `i=0; while [ $i -lt ${starts} ]; do "$0" "$1"; i=$((i+1)); done; echo "done $$ 0" >> "$1"`,
        victim,
        log,
      ]);
      await within(15_000, waitForNote(log, 'done'), 'el bucle de shell termina');
      const noted = (await notes(log)).filter((n) => n.what === 'start');
      const attempts = await settledAttempts(server, handle);
      console.log(
        `[familia] (c) bucle de shell: ${noted.length} arranques, intentos ${attempts.length}; ` +
          `del primer al último arranque ${noted.at(-1)!.at - noted[0]!.at} ms`,
      );
      expect(noted).toHaveLength(starts);
      expect(attempts).toHaveLength(starts);
    });
  },
);

/** Resolves when the chain noted nothing for 300 ms (it notes every 10 ms while it runs). */
async function chainStopped(log: string): Promise<void> {
  let last = '';
  let since = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = await readFile(log, 'utf8').catch(() => '');
    if (text !== last) {
      last = text;
      since = Date.now();
    } else if (text !== '' && Date.now() - since >= 300) return;
  }
}

async function waitForNote(log: string, what: string): Promise<void> {
  for (;;) {
    if ((await notes(log)).some((n) => n.what === what)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
