/**
 * The real program of a process whose executable only runs another file (agent/src/README.md,
 * "Loaders and interpreters"): the dynamic loader (`/lib64/ld-linux-x86-64.so.2 ./programa`) runs
 * the ELF file it maps, an interpreter (`python3 programa.py`, `java -jar programa.jar`, `bash
 * programa.sh`, `powershell -File programa.ps1`) runs its script or jar. Such a process is judged by
 * that file: its name against the blocked names, its bytes against the fingerprints (sweeper.ts).
 *
 * Privacy (scanner.ts): the command line is read here and nowhere else, and only the program's path
 * leaves this module; every other argument is dropped where it was read.
 */
import { readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { instanceKey } from './instance-key.js';
import type { RunningProcess } from './scanner.js';
import { ownedBySystem } from './system-files.js';

/** The file a loader or an interpreter runs, and what runs it. */
export interface ProgramRef {
  /**
   * The program's file: an absolute path when it could be resolved against the process's working
   * folder; a relative one (Windows, a folder proclist.exe could not read) is judged by its name only.
   */
  path: string;
  /** What runs it, as shown in «programa (vía python3)»: `python3`, `node`, `java`, `ld-linux-x86-64.so.2`. */
  via: string;
  /**
   * Where the very file a loader maps can be read even once `path` is deleted or replaced (Linux:
   * `/proc/<pid>/map_files/<range>`, root only); absent for scripts.
   */
  mapped?: string;
  /**
   * False when the runner's own executable is not the system's (Linux: not owned by root, or writable
   * by its group or others: a copy anyone could have made, e.g. a blocked program renamed `python3`):
   * its program is then judged by name only and the runner by its own bytes. Absent: true.
   */
  judgeBytes?: boolean;
}

/**
 * Whether the file a process runs (its fingerprint and similarity digest) is its program's rather
 * than its own executable's: a program found, and a runner of the system (`judgeBytes`).
 */
export function bytesOfProgram(proc: { program?: ProgramRef }): proc is { program: ProgramRef } {
  return proc.program !== undefined && proc.program.judgeBytes !== false;
}

/** The kinds of runner whose command line says which file they run. */
export type RunnerFamily =
  'loader' | 'python' | 'node' | 'java' | 'perl' | 'ruby' | 'php' | 'shell' | 'powershell' | 'pwsh' | 'wsh';

/** A runner recognised by its executable's file name, with the name shown after «vía». */
export interface Runner {
  family: RunnerFamily;
  via: string;
}

/**
 * What kind of runner an executable is, from its file name (case-insensitive, with or without
 * `.exe`), or null for any other program. Versions are folded into the family's name shown
 * (`python3.11` → `python3`, `perl5.36.0` → `perl`, `php8.2` → `php`); a loader keeps its file name.
 */
export function runnerOf(executable: string): Runner | null {
  const name = (executable.split(/[\\/]/).pop() ?? '').trim().toLowerCase();
  if (/^ld-linux[\w.-]*\.so(\.\d+)*$/.test(name) || /^ld-musl[\w.-]*\.so(\.\d+)*$/.test(name))
    return { family: 'loader', via: name };
  if (/^ld-[\d.]+\.so$/.test(name) || name === 'ld.so') return { family: 'loader', via: name };
  const base = name.replace(/\.exe$/, '');
  let match = /^(python|pythonw|pypy)(\d?)(\.\d+)*[dmtu]?$/.exec(base);
  if (match) return { family: 'python', via: `${match[1] === 'pythonw' ? 'python' : match[1]}${match[2]}` };
  if (base === 'node' || base === 'nodejs') return { family: 'node', via: 'node' };
  if (base === 'java' || base === 'javaw') return { family: 'java', via: base };
  if (/^perl(\d+(\.\d+)*)?$/.test(base)) return { family: 'perl', via: 'perl' };
  if (/^ruby(\d+(\.\d+)*)?$/.test(base)) return { family: 'ruby', via: 'ruby' };
  if (/^php(\d+(\.\d+)*)?(-cli)?$/.test(base)) return { family: 'php', via: 'php' };
  match = /^(sh|bash|dash|zsh|ksh|mksh)$/.exec(base);
  if (match) return { family: 'shell', via: match[1]! };
  if (base === 'powershell' || base === 'powershell_ise') return { family: 'powershell', via: 'powershell' };
  if (base === 'pwsh') return { family: 'pwsh', via: 'pwsh' };
  if (base === 'wscript' || base === 'cscript') return { family: 'wsh', via: base };
  return null;
}

/** How a family's short options read: which letters are code, take a value, or end the cluster. */
interface ShortOptions {
  /** Letters whose value is code on the command line (`-c`, `-e`): no file runs. */
  inline: string;
  /** Letters that take the rest of the cluster or, when last, the next argument (`-W x`, `-Ix`). */
  valued: string;
  /** Letters that take the rest of the cluster only, never the next argument (perl's `-l`, `-0`). */
  attached?: string;
  /** Letters followed by optional digits only, after which the cluster goes on (perl's `-l`, `-0`). */
  digits?: string;
}

/**
 * Walks one cluster of short options (`-uBc`, `-wle`): answers how many arguments it used (1 or 2),
 * or 'inline' when it holds code.
 */
function cluster(arg: string, options: ShortOptions): number | 'inline' {
  for (let i = 1; i < arg.length; i++) {
    const letter = arg[i]!;
    if (options.inline.includes(letter)) return 'inline';
    if (options.valued.includes(letter)) return i === arg.length - 1 ? 2 : 1;
    if (options.attached?.includes(letter)) return 1;
    if (options.digits?.includes(letter))
      while (/[0-9a-fA-Fx]/.test(arg[i + 1] ?? '') && !options.inline.includes(arg[i + 1]!)) i++;
  }
  return 1;
}

/**
 * The first operand of a POSIX-style command line after the options: long options in `longValued`
 * take the next argument unless written `--x=y`; short clusters follow `cluster`. `--` ends the
 * options; `-` alone (standard input) and inline code answer null.
 */
function firstOperand(
  args: readonly string[],
  short: ShortOptions,
  longValued: ReadonlySet<string>,
  longInline: ReadonlySet<string> = new Set(),
): string | null {
  for (let i = 0; i < args.length;) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1] ?? null;
    if (arg === '-') return null;
    if (arg.startsWith('--')) {
      const name = arg.split('=')[0]!;
      if (longInline.has(name)) return null;
      i += longValued.has(name) && !arg.includes('=') ? 2 : 1;
      continue;
    }
    if (arg.startsWith('-')) {
      const used = cluster(arg, short);
      if (used === 'inline') return null;
      i += used;
      continue;
    }
    return arg;
  }
  return null;
}

const NODE_LONG_VALUED = new Set([
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '--title',
  '--env-file',
  '--input-type',
  '--inspect-port',
  '--redirect-warnings',
  '--icu-data-dir',
  '--openssl-config',
  '--diagnostic-dir',
  '--report-dir',
  '--disable-warning',
  '--watch-path',
  '--experimental-policy',
  '--cpu-prof-dir',
  '--heap-prof-dir',
]);

const LOADER_LONG_VALUED = new Set([
  '--library-path',
  '--inhibit-rpath',
  '--audit',
  '--preload',
  '--argv0',
  '--glibc-hwcaps-prefix',
  '--glibc-hwcaps-mask',
]);

/**
 * The program a dynamic loader's command line names (`ld-linux-x86-64.so.2 [options] programa
 * [args]`), as written, or null (`--list`, `--verify`, `--help`: nothing runs; no operand).
 * `argv[0]` is the loader itself.
 */
export function loaderProgramArg(argv: readonly string[]): string | null {
  const args = argv.slice(1);
  for (let i = 0; i < args.length;) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1] ?? null;
    if (!arg.startsWith('--')) return arg;
    if (['--list', '--verify', '--help', '--version', '--list-tunables', '--list-diagnostics'].includes(arg))
      return null;
    i += LOADER_LONG_VALUED.has(arg) ? 2 : 1;
  }
  return null;
}

/**
 * The script or jar an interpreter's command line runs, as written, or null when it runs none from
 * a file (inline code `-c`/`-e`/`-r`/`-Command`, a module `python -m`, standard input, an
 * interactive session, `java` with a class). `argv[0]` is the interpreter itself. Pure: tested with
 * fixtures for every family.
 */
export function scriptArg(family: RunnerFamily, argv: readonly string[]): string | null {
  const args = argv.slice(1);
  switch (family) {
    case 'loader':
      return loaderProgramArg(argv);
    case 'python':
      // -c code, -m module: no file. -W and -X take a value.
      return firstOperand(args, { inline: 'cm', valued: 'WX' }, new Set(['--check-hash-based-pycs']));
    case 'node':
      return firstOperand(
        args,
        { inline: 'ep', valued: 'rC' },
        NODE_LONG_VALUED,
        new Set(['--eval', '--print']),
      );
    case 'perl':
      // -e/-E code; -I takes a folder (attached or next); -M, -m, -x, -i, -C, -d, -D, -V take what
      // follows them in the cluster only; -l and -0 take digits and the cluster goes on (`-wle`).
      return firstOperand(args, { inline: 'eE', valued: 'I', attached: 'MmxiCdDV', digits: 'l0' }, new Set());
    case 'ruby':
      return firstOperand(
        args,
        { inline: 'e', valued: 'IrCE', attached: 'FxKW0T' },
        new Set(['--encoding', '--external-encoding', '--internal-encoding', '--enable', '--disable']),
      );
    case 'php':
      return phpScript(args);
    case 'shell':
      return shellScript(args);
    case 'java':
      return javaProgram(args);
    case 'powershell':
    case 'pwsh':
      return powershellScript(args, family === 'pwsh');
    case 'wsh':
      // `cscript //nologo //E:vbscript programa.vbs args`: host options start with `//`.
      return args.find((arg) => !arg.startsWith('//')) ?? null;
  }
}

/** `php [options] [-f] programa.php`: `-r`/`-B`/`-R`/`-E` are code, `-c -d -z -t -S -F` take a value. */
function phpScript(args: readonly string[]): string | null {
  for (let i = 0; i < args.length;) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1] ?? null;
    if (arg === '-f' || arg === '--file') return args[i + 1] ?? null;
    if (['-r', '-B', '-R', '-E', '--run', '--process-begin', '--process-code', '--process-end'].includes(arg))
      return null;
    if (
      /^-[cdztSF]$/.test(arg) ||
      ['--php-ini', '--define', '--zend-extension', '--rf', '--rc', '--re', '--ri'].includes(arg)
    ) {
      i += 2;
      continue;
    }
    if (arg.startsWith('-')) {
      i += 1;
      continue;
    }
    return arg;
  }
  return null;
}

/** `bash [options] programa.sh`: `-c` is code, `-s` standard input, `-o`/`-O` take a name. */
function shellScript(args: readonly string[]): string | null {
  for (let i = 0; i < args.length;) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') return arg === '--' ? (args[i + 1] ?? null) : null;
    if (arg === '--rcfile' || arg === '--init-file') {
      i += 2;
      continue;
    }
    if (arg.startsWith('--')) {
      i += 1;
      continue;
    }
    if (arg.startsWith('-') || arg.startsWith('+')) {
      const letters = arg.slice(1);
      if (arg.startsWith('-') && (letters.includes('c') || letters.includes('s'))) return null;
      i += letters.endsWith('o') || letters.endsWith('O') ? 2 : 1;
      continue;
    }
    return arg;
  }
  return null;
}

/**
 * `java [options] -jar programa.jar`, or a single source file `java Programa.java` (Java 11 and
 * later); a class name runs no file of its own: null.
 */
function javaProgram(args: readonly string[]): string | null {
  const valued = new Set([
    '-cp',
    '-classpath',
    '--class-path',
    '-p',
    '--module-path',
    '--add-modules',
    '--source',
  ]);
  for (let i = 0; i < args.length;) {
    const arg = args[i]!;
    if (arg === '-jar') return args[i + 1] ?? null;
    if (arg === '-m' || arg === '--module' || arg.startsWith('--module=')) return null;
    if (arg.startsWith('-')) {
      i += valued.has(arg) ? 2 : 1;
      continue;
    }
    return /\.java$/i.test(arg) ? arg : null;
  }
  return null;
}

/**
 * `powershell.exe [-ExecutionPolicy Bypass] -File programa.ps1`: parameter names are
 * case-insensitive, start with `-` or `/` and may be shortened (`-f`, `-fi`, `-ex`). `-Command`
 * and `-EncodedCommand` are code: null. A bare first operand is a script for `pwsh` (its default is
 * `-File`) and code for Windows PowerShell (its default is `-Command`).
 */
function powershellScript(args: readonly string[], pwsh: boolean): string | null {
  const valued = [
    'executionpolicy',
    'ep',
    'windowstyle',
    'version',
    'psconsolefile',
    'inputformat',
    'outputformat',
    'configurationname',
    'workingdirectory',
    'wd',
    'custompipename',
    'settingsfile',
  ];
  for (let i = 0; i < args.length;) {
    const arg = args[i]!;
    if (!/^[-/]/.test(arg)) return pwsh ? arg : null;
    const name = arg.slice(1).toLowerCase().split(':')[0]!;
    if (name === '') return null;
    if ('file'.startsWith(name)) return args[i + 1] ?? null;
    if ('command'.startsWith(name) || 'encodedcommand'.startsWith(name) || name === 'ec' || name === 'enc')
      return null;
    i +=
      valued.some((full) => full.startsWith(name)) || ['ex', 'w', 'v', 'if', 'of', 'o'].includes(name)
        ? 2
        : 1;
  }
  return null;
}

/**
 * Splits a Windows command line the way programs built with the Microsoft C runtime read it
 * (`CommandLineToArgvW`): spaces and tabs separate, double quotes group, `\"` is a quote, `""`
 * inside quotes is a quote, backslashes are literal unless they come before a quote (2n backslashes
 * and a quote: n backslashes and a grouping quote; 2n+1: n backslashes and a literal quote). The
 * first argument (the program) ends at the first space or closing quote, backslashes literal.
 */
export function splitWindowsCommandLine(line: string): string[] {
  const argv: string[] = [];
  let i = 0;
  // argv[0]: quoted or up to the first blank, backslashes literal.
  while (i < line.length && /[ \t]/.test(line[i]!)) i++;
  if (i >= line.length) return argv;
  let first = '';
  if (line[i] === '"') {
    i++;
    while (i < line.length && line[i] !== '"') first += line[i++];
    i++;
  } else {
    while (i < line.length && !/[ \t]/.test(line[i]!)) first += line[i++];
  }
  argv.push(first);
  for (;;) {
    while (i < line.length && /[ \t]/.test(line[i]!)) i++;
    if (i >= line.length) return argv;
    let arg = '';
    let quoted = false;
    while (i < line.length && (quoted || !/[ \t]/.test(line[i]!))) {
      const c = line[i]!;
      if (c === '\\') {
        let slashes = 0;
        while (line[i] === '\\') {
          slashes++;
          i++;
        }
        if (line[i] === '"') {
          arg += '\\'.repeat(Math.floor(slashes / 2));
          if (slashes % 2 === 1) {
            arg += '"';
            i++;
          }
        } else {
          arg += '\\'.repeat(slashes);
        }
        continue;
      }
      if (c === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i += 2;
          continue;
        }
        quoted = !quoted;
        i++;
        continue;
      }
      arg += c;
      i++;
    }
    argv.push(arg);
  }
}

/**
 * The program of a Windows process from its executable's path, its command line and its working
 * folder (windows-lister.ts: proclist.exe reads them for interpreters only): the script or jar an
 * interpreter runs, made absolute against `folder` when relative (kept as written without a folder:
 * then only its name is judged), or null. Pure; the command line goes no further than here.
 */
export function windowsProgramOf(
  executablePath: string,
  commandLine: string,
  folder = '',
): ProgramRef | null {
  const runner = runnerOf(executablePath);
  if (!runner || runner.family === 'loader') return null;
  const script = scriptArg(runner.family, splitWindowsCommandLine(commandLine));
  if (!script) return null;
  const absolute = path.win32.isAbsolute(script) && /^([a-z]:|\\\\)/i.test(script);
  const file = absolute || folder === '' ? script : path.win32.resolve(folder, script);
  return { path: file, via: runner.via };
}

/** The file names a program is judged by: its own, and without its extension (`programa.py` → `programa`). */
export function programNames(program: ProgramRef): string[] {
  const file = (program.path.split(/[\\/]/).pop() ?? '').trim();
  const bare = file.replace(/(.)\.[^.]*$/, '$1');
  return bare !== file ? [file, bare] : [file];
}

/** The arguments of `/proc/<pid>/cmdline` (NUL-separated), or null when it cannot be read. */
function readArgv(root: string, pid: number): string[] | null {
  try {
    const raw = readFileSync(`${root}/${pid}/cmdline`, 'utf8');
    const argv = raw.split('\0');
    if (argv.at(-1) === '') argv.pop();
    return argv;
  } catch {
    return null;
  }
}

/**
 * `file` made absolute against the process's working folder; null when that cannot be read. A file
 * named through the process's own descriptors (`bash /dev/fd/3`, `/proc/self/fd/3`, `/dev/stdin`) is
 * what that descriptor of the process holds (`<root>/<pid>/fd/<n>`): a file's path, or null for a
 * pipe, a socket or an anonymous file; any other path through `/proc/self` would be the agent's own,
 * so it is null too.
 */
function resolveIn(root: string, pid: number, file: string): string | null {
  let absolute: string;
  try {
    absolute = path.isAbsolute(file)
      ? path.normalize(file)
      : path.resolve(readlinkSync(`${root}/${pid}/cwd`), file);
  } catch {
    return null;
  }
  const descriptor =
    /^\/(?:dev\/fd|proc\/self\/fd|proc\/thread-self\/fd)\/(\d+)$/.exec(absolute)?.[1] ??
    { '/dev/stdin': '0', '/dev/stdout': '1', '/dev/stderr': '2' }[absolute];
  if (descriptor !== undefined) {
    try {
      const target = readlinkSync(`${root}/${pid}/fd/${descriptor}`).replace(/ \(deleted\)$/, '');
      return target.startsWith('/') && !target.startsWith('/memfd:') ? target : null;
    } catch {
      return null;
    }
  }
  return /^\/proc\/(self|thread-self)(\/|$)/.test(absolute) ? null : absolute;
}

/** A shared library's file name (`libc.so.6`, `libfoo.so`): mapped by the loader, never the program. */
const SHARED_LIBRARY = /\.so(\.[\w.-]+)?$/;

/**
 * The executable files mapped by a process (`/proc/<pid>/maps`, executable mappings only), in
 * address order, each once, as `{ path, inode }`.
 */
function mappedExecutables(root: string, pid: number): { path: string; inode: number; range: string }[] {
  let maps: string;
  try {
    maps = readFileSync(`${root}/${pid}/maps`, 'utf8');
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const result: { path: string; inode: number; range: string }[] = [];
  for (const line of maps.split('\n')) {
    // address perms offset dev inode path
    const match = /^(\S+)\s+(\S{4})\s+\S+\s+\S+\s+(\d+)\s+(\/.*)$/.exec(line);
    if (!match || !match[2]!.includes('x')) continue;
    const file = match[4]!.replace(/ \(deleted\)$/, '');
    if (seen.has(file)) continue;
    seen.add(file);
    result.push({ path: file, inode: Number(match[3]), range: match[1]! });
  }
  return result;
}

/**
 * The program a loader process runs: the operand of its command line when the loader maps that
 * file (or has not mapped anything yet: a scan right after its start), else the first executable
 * file it maps that is neither the loader nor a shared library (a program that rewrote its
 * arguments), else the operand as written.
 */
function loaderProgram(
  root: string,
  pid: number,
  argv: readonly string[] | null,
): { path: string; mapped?: string } | null {
  const written = argv ? loaderProgramArg(argv) : null;
  const resolved = written ? resolveIn(root, pid, written) : null;
  let real: string | null = null;
  try {
    real = resolved ? realpathSync(resolved) : null;
  } catch {
    real = null;
  }
  let loaderInode = -1;
  try {
    loaderInode = statSync(`${root}/${pid}/exe`).ino;
  } catch {
    // gone
  }
  const mapped = mappedExecutables(root, pid).filter((m) => m.inode !== loaderInode);
  const program =
    (real ? mapped.find((m) => m.path === real) : undefined) ??
    mapped.find((m) => !SHARED_LIBRARY.test(path.basename(m.path)));
  if (program) return { path: program.path, mapped: `${root}/${pid}/map_files/${program.range}` };
  const operand = real ?? resolved;
  return operand ? { path: operand } : null;
}

/**
 * The program of a Linux process (`proc.path` is its executable) read from `root` (`/proc`): null
 * when its executable is neither a loader nor an interpreter, or it runs no file of its own.
 */
export function linuxProgramOf(proc: RunningProcess, root = '/proc'): ProgramRef | null {
  if (!proc.path) return null;
  const runner = runnerOf(proc.path);
  if (!runner) return null;
  const argv = readArgv(root, proc.pid);
  if (runner.family === 'loader') {
    const program = loaderProgram(root, proc.pid, argv);
    return program ? { ...program, via: runner.via } : null;
  }
  if (!argv) return null;
  const script = scriptArg(runner.family, argv);
  const resolved = script ? resolveIn(root, proc.pid, script) : null;
  return resolved ? { path: resolved, via: runner.via } : null;
}

/** Most process instances remembered; `attach` keeps only the running ones anyway. */
const PROGRAM_CACHE_MAX = 20_000;

/**
 * Finds each listed process's program once per instance (pid, start time and executable: a process
 * that execs another program is looked at again) and sets it as `proc.program`. On Linux the
 * command line is read only for loaders and interpreters; elsewhere a lister that already set
 * `program` (from a command line it read) is left as it is.
 */
export class ProgramFinder {
  private readonly known = new Map<string, ProgramRef | null>();
  /**
   * Executable path → null when it is no loader or interpreter, else whether it is the system's
   * (`judgeBytes`); a few hundred paths on a machine.
   */
  private readonly runners = new Map<string, boolean | null>();

  constructor(private readonly root: string | null = process.platform === 'linux' ? '/proc' : null) {}

  /** Sets `program` on each process that runs one, and forgets instances no longer listed. */
  attach(processes: RunningProcess[]): void {
    const live = new Set<string>();
    for (const proc of processes) {
      if (proc.program || !this.root || !proc.path) continue;
      const system = this.runnerOwnedBySystem(proc.path);
      if (system === null) continue;
      const key = `${instanceKey(proc)}\n${proc.path}`;
      live.add(key);
      let program = this.known.get(key);
      if (program === undefined) {
        program = linuxProgramOf(proc, this.root);
        if (program && !system) program.judgeBytes = false;
        if (this.known.size < PROGRAM_CACHE_MAX) this.known.set(key, program);
      }
      if (program) proc.program = program;
    }
    for (const key of this.known.keys()) if (!live.has(key)) this.known.delete(key);
  }

  /**
   * Null when `file` is no loader or interpreter; else whether it is the system's: owned by root and
   * writable by no one else (only root can make such a file, so a contestant's renamed copy never is).
   * Remembered per path, so a scan tests no pattern and stats no file it already knows.
   */
  private runnerOwnedBySystem(file: string): boolean | null {
    let known = this.runners.get(file);
    if (known === undefined) {
      known = null;
      if (runnerOf(file) !== null) {
        try {
          const info = statSync(file);
          known = ownedBySystem(info);
        } catch {
          known = false;
        }
      }
      if (this.runners.size >= PROGRAM_CACHE_MAX) this.runners.clear();
      this.runners.set(file, known);
    }
    return known;
  }
}
