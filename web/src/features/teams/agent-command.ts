import { agentExecutableFile } from '@concurso/shared';

/** Where the command saves the key: the user's home, so it works from any folder and stays out of the project. */
const AGENT_KEY_FILE = '~/concurso-agent.key';

/** `text` quoted for a POSIX shell: inside single quotes nothing is expanded. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The command an admin runs on a team's lab machine (docs/design.md section 6), with `origin` as the
 * server (see {@link serverOrigin}). The key never goes on the agent's command line (the process list would show it): the
 * command first saves it to `~/concurso-agent.key` readable only by its owner (`umask 077` in a
 * subshell, so the rest of the session keeps its umask; `printf` is a shell builtin, so the key does
 * not show in the process list either), then runs the agent with `--key-file`. One line, because the
 * dialog shows it in a one-line field; from a copy of the project (the lab's single executables:
 * `linuxExecutableCommand`, `windowsExecutableCommand`).
 */
export function agentCommand(origin: string, key: string): string {
  return (
    `(umask 077; printf '%s' ${shellQuote(key)} > ${AGENT_KEY_FILE}) && ` +
    `npm run agent -- --server ${origin} --key-file ${AGENT_KEY_FILE}`
  );
}

/** Where the Linux executable's key lives (agent/README.md: a root-only file). */
const LINUX_KEY_FILE = '/etc/concurso-agent/clave';
/** Where the Linux command installs the executable; the unit runs it from there. */
export const LINUX_EXECUTABLE = '/usr/local/bin/concurso-agent';
/** The Windows executable's folder: `SYSTEM` and the administrators only (agent/README.md). */
const WINDOWS_AGENT_DIR = 'C:\\ProgramData\\concurso-agent';
/** Where the Windows command copies the executable; the task runs it from there. */
export const WINDOWS_EXECUTABLE = `${WINDOWS_AGENT_DIR}\\concurso-agent.exe`;

/** The systemd unit and the Windows scheduled task that start the agent with the machine. */
const AGENT_SERVICE = 'concurso-agent';
const AGENT_TASK = 'Agente del concurso';

/**
 * The warning the key dialog shows when the server address is this very machine (`localhost`,
 * `127.x.x.x`, `::1`, `0.0.0.0`): an agent on a lab machine given it would look for the server on its
 * own machine and never connect.
 */
export const LOCAL_SERVER_WARNING =
  'Esta dirección solo funciona en este mismo equipo: escriba la dirección que las máquinas del laboratorio usan para llegar al servidor.';

/** What the key dialog says under an address it cannot use. */
export const BAD_SERVER_ADDRESS =
  'Escriba la dirección del servidor como http://192.168.1.10:3000 (http:// o https://, sin ruta).';

/**
 * The server address the admin typed (or `PUBLIC_URL`), as the origin the agent is given: `http://`
 * when no scheme is written (as the agent itself assumes, agent/README.md «Opciones»), nothing after
 * the host and port (the agent calls `/api/…` and `/socket.io` at the server's root). Null for
 * anything else, e.g. a path, a user name, another scheme. The origin only has letters, digits and
 * `.:-[]/`, so it goes into the shell, PowerShell and XML text below without quoting surprises.
 */
export function serverOrigin(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
    const plain =
      ['http:', 'https:'].includes(url.protocol) &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password;
    return plain ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether `origin` (from {@link serverOrigin}) names the machine it runs on: `localhost` (and
 * `*.localhost`), any `127.x.x.x`, `::1` (also as `::ffff:127.x.x.x`), `0.0.0.0` or `::`. A lab
 * machine given it looks for the server on itself.
 */
export function isLocalServer(origin: string): boolean {
  const host = new URL(origin).hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\./.test(host) ||
    host === '0.0.0.0' ||
    ['[::1]', '[::]', '[::ffff:0:0]'].includes(host) ||
    /^\[::ffff:7f[\da-f]{2}:[\da-f]{1,4}\]$/.test(host)
  );
}

/**
 * The systemd unit of the Linux executable (one line per element), talking to `server`:
 * - `Restart=always` with `RestartSec=5`: started again 5 s after it ends, for whatever reason;
 * - `StartLimitIntervalSec=0` (in `[Unit]`, where systemd reads it): no start limit, so an agent that
 *   ends again and again (a server not up yet) is never given up on (the default gives up after 5
 *   starts in 10 s);
 * - `Wants=` and `After=network-online.target`: the network is up before it starts (`After=` alone
 *   does not pull the target in, so it would not wait).
 * Checked with `systemd-analyze verify` in agent-command.test.ts.
 */
export function linuxUnit(server: string): string[] {
  return [
    '[Unit]',
    'Description=Agente del concurso',
    'Wants=network-online.target',
    'After=network-online.target',
    'StartLimitIntervalSec=0',
    '[Service]',
    `ExecStart=${LINUX_EXECUTABLE} --server ${server} --key-file ${LINUX_KEY_FILE}`,
    'Restart=always',
    'RestartSec=5',
    '[Install]',
    'WantedBy=multi-user.target',
  ];
}

/**
 * Installs the single executable on a Linux lab machine as a service, in a root shell opened in the
 * folder that holds the downloaded file (`sudo -s` keeps the folder), one line for the dialog's field:
 * 1. the file `npm run agent:build` made for `version` (`concurso-agent-<version>-linux-x64`, shared's
 *    `agentExecutableFile`) installed as `/usr/local/bin/concurso-agent`, mode 0755;
 * 2. the key saved to a root-only file (`umask 077`; `printf` is a shell builtin, so the key is never in
 *    the process list);
 * 3. the unit of {@link linuxUnit} written, enabled for the next boots and (re)started now: `restart`,
 *    so an agent already running with an old key or an old executable takes the new ones.
 * Stops at the first step that fails (`&&`).
 */
export function linuxExecutableCommand(server: string, key: string, version: string): string {
  return (
    `install -m 0755 ${agentExecutableFile(version, 'linux-x64')} ${LINUX_EXECUTABLE} && ` +
    `mkdir -p /etc/concurso-agent && (umask 077; printf '%s' ${shellQuote(key)} > ${LINUX_KEY_FILE}) && ` +
    `printf '%s\\n' ${linuxUnit(server).map(shellQuote).join(' ')} > /etc/systemd/system/${AGENT_SERVICE}.service && ` +
    `systemctl daemon-reload && systemctl enable ${AGENT_SERVICE} && systemctl restart ${AGENT_SERVICE}`
  );
}

/** `text` quoted for PowerShell: inside single quotes only `'` is special, written twice. */
const powerShellQuote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** `text` as XML character data or attribute value. */
const xmlText = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');

/**
 * The definition of the Windows scheduled task (Task Scheduler schema 1.2, what `schtasks /Create /XML`
 * reads), on one line for the dialog's field:
 * - a boot trigger that fires again every minute (`Repetition` `PT1M`, no `Duration`: for ever) with
 *   `MultipleInstancesPolicy` `IgnoreNew`: while the agent runs nothing happens; once it has ended, for
 *   whatever reason or exit code, it is started again within a minute;
 * - `RestartOnFailure` every `PT1M` (the schema's least) up to 255 times (`Count` is an unsigned byte in
 *   the schema, so 999 would be refused): a start that fails is tried again;
 * - as `SYSTEM` (`S-1-5-18`, a SID, so any Windows language) at the highest run level;
 * - `ExecutionTimeLimit` `PT0S`: no time limit (the default stops a task after 3 days);
 *   `StartWhenAvailable`; not held back nor stopped on batteries (a lab laptop unplugged);
 * - the action: the executable with `--server` and `--key-file` (the key never in the task).
 */
export function windowsTaskXml(server: string): string {
  const args = `--server ${server} --key-file ${WINDOWS_AGENT_DIR}\\clave.txt`;
  return [
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">',
    `<RegistrationInfo><Description>${xmlText(AGENT_TASK)}</Description></RegistrationInfo>`,
    '<Triggers><BootTrigger><Repetition><Interval>PT1M</Interval><StopAtDurationEnd>false</StopAtDurationEnd></Repetition><Enabled>true</Enabled></BootTrigger></Triggers>',
    '<Principals><Principal id="Author"><UserId>S-1-5-18</UserId><RunLevel>HighestAvailable</RunLevel></Principal></Principals>',
    '<Settings>',
    '<MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '<DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '<StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '<StartWhenAvailable>true</StartWhenAvailable>',
    '<Enabled>true</Enabled>',
    '<ExecutionTimeLimit>PT0S</ExecutionTimeLimit>',
    '<RestartOnFailure><Interval>PT1M</Interval><Count>255</Count></RestartOnFailure>',
    '</Settings>',
    `<Actions Context="Author"><Exec><Command>${xmlText(WINDOWS_EXECUTABLE)}</Command><Arguments>${xmlText(args)}</Arguments></Exec></Actions>`,
    '</Task>',
  ].join('');
}

/**
 * The one Spanish line the Windows command stops with when the folder, or anything in it, was not made by
 * the administrators (a contestant who made it first could open it again, read the key or swap the
 * program the task runs as `SYSTEM`).
 */
const WINDOWS_FOREIGN_DIR =
  `La carpeta ${WINDOWS_AGENT_DIR} (o algo dentro de ella) es de otra cuenta, no de los administradores: ` +
  'bórrela y vuelva a ejecutar este comando.';

/**
 * Installs the single executable on a Windows lab machine, in PowerShell as administrator opened in
 * the folder that holds the downloaded file (`concurso-agent-<version>-win-x64.exe`, shared's
 * `agentExecutableFile`). One line (the dialog's field), a script block of its own that stops on its
 * first error (`$ErrorActionPreference = 'Stop'` for PowerShell's own, `$LASTEXITCODE` after `icacls`
 * and `schtasks`). In order:
 * 0. The downloaded file must be in the current folder; otherwise it stops before changing anything.
 * 1. A folder that already exists must be a plain folder (no junction) owned by the administrators
 *    (`S-1-5-32-544`), `SYSTEM` (`S-1-5-18`) or the account running the command; otherwise it stops with
 *    `WINDOWS_FOREIGN_DIR` (its owner could give itself access again whatever the ACL says). A missing
 *    one is created.
 * 2. The folder is closed in one step (`Set-Acl`, SDDL `O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)`):
 *    owned by the administrators, nothing inherited, only `SYSTEM` and the administrators, full control,
 *    passed to everything inside.
 * 3. Now that nobody else can add files, everything inside must pass the same check (a file a contestant
 *    slipped in, e.g. a `clave.txt` held open, is theirs): otherwise it stops the same way.
 * 4. An agent the task already runs is stopped (it holds the executable open, and would keep an old key),
 *    and the downloaded file is copied in as `concurso-agent.exe`.
 * 5. Everything inside, the executable included, becomes the administrators' (`icacls /setowner /T`)
 *    with only the folder's ACL (`icacls /reset /T`: explicit entries removed).
 * 6. Only then the key is written (`Set-Content` runs inside PowerShell: never in the process list; a new
 *    file takes the folder's ACL), then the task's definition ({@link windowsTaskXml}, UTF-16 as its
 *    declaration says), registered with `schtasks /Create /XML` (replacing an older one) and started.
 * SIDs, not names, so it works in any Windows language. Unit-tested for its text only: not yet run on a
 * real Windows.
 */
export function windowsExecutableCommand(server: string, key: string, version: string): string {
  const dir = WINDOWS_AGENT_DIR;
  const refuse = `throw ${powerShellQuote(WINDOWS_FOREIGN_DIR)}`;
  const task = powerShellQuote(AGENT_TASK);
  const steps = [
    "$ErrorActionPreference = 'Stop'",
    'function Comprobar($paso) { if ($LASTEXITCODE) { throw "No se pudo $paso (código $LASTEXITCODE)." } }',
    // Whether any item `$lista` lists is not ours: a junction, or an owner other than `$ok` (one that
    // cannot even be read counts as another's). The first one found ends the listing.
    'function Ajeno($lista) { try { [bool](& $lista | Where-Object { ($_.Attributes -band [IO.FileAttributes]::ReparsePoint) -or ($ok -notcontains (Get-Acl -LiteralPath $_.FullName).GetOwner([Security.Principal.SecurityIdentifier]).Value) } | Select-Object -First 1) } catch { $true } }',
    `$exe = ${powerShellQuote(agentExecutableFile(version, 'win-x64'))}`,
    `if (-not (Test-Path -LiteralPath $exe -PathType Leaf)) { throw "No se encontró $exe en esta carpeta: abra PowerShell como administrador en la carpeta donde lo copió." }`,
    `$d = ${powerShellQuote(dir)}`,
    "$ok = 'S-1-5-32-544', 'S-1-5-18', [Security.Principal.WindowsIdentity]::GetCurrent().User.Value",
    `if (Test-Path -LiteralPath $d) { if (Ajeno { Get-Item -LiteralPath $d -Force }) { ${refuse} } } ` +
      'else { New-Item -ItemType Directory -Path $d | Out-Null }',
    '$acl = Get-Acl -LiteralPath $d',
    "$acl.SetSecurityDescriptorSddlForm('O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)', 'Owner, Access')",
    'Set-Acl -LiteralPath $d -AclObject $acl',
    `if (Ajeno { Get-ChildItem -LiteralPath $d -Force -Recurse }) { ${refuse} }`,
    `if (Get-ScheduledTask -TaskName ${task} -ErrorAction SilentlyContinue) { Stop-ScheduledTask -TaskName ${task} }`,
    'Copy-Item -LiteralPath $exe -Destination "$d\\concurso-agent.exe" -Force',
    "icacls $d /setowner '*S-1-5-32-544' /T /Q",
    "Comprobar 'dar la carpeta a los administradores'",
    'icacls "$d\\*" /reset /T /Q',
    "Comprobar 'dejar los archivos con los permisos de la carpeta'",
    `Set-Content -NoNewline -LiteralPath "$d\\clave.txt" -Value ${powerShellQuote(key)}`,
    `Set-Content -Encoding Unicode -LiteralPath "$d\\tarea.xml" -Value ${powerShellQuote(windowsTaskXml(server))}`,
    `schtasks /Create /F /TN ${task} /XML "$d\\tarea.xml" | Out-Null`,
    "Comprobar 'crear la tarea'",
    `schtasks /Run /TN ${task}`,
    "Comprobar 'iniciar la tarea'",
  ];
  // In a script block of its own: `Stop`, the helpers and the variables end with the command and do
  // not stay in the administrator's session.
  return `& { ${steps.join('; ')} }`;
}
