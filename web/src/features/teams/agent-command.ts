/** Where the command saves the key: the user's home, so it works from any folder and stays out of the project. */
export const AGENT_KEY_FILE = '~/concurso-agent.key';

/** `text` quoted for a POSIX shell: inside single quotes nothing is expanded. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The command an admin runs on a team's lab machine (DESIGN.md section 6), with this site's origin as
 * the server. The key never goes on the agent's command line (the process list would show it): the
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
export const LINUX_KEY_FILE = '/etc/concurso-agent/clave';
/** The Windows executable's folder: `SYSTEM` and the administrators only (agent/README.md). */
export const WINDOWS_AGENT_DIR = 'C:\\ProgramData\\concurso-agent';

/** The systemd unit and the Windows scheduled task that start the agent with the machine. */
export const AGENT_SERVICE = 'concurso-agent';
export const AGENT_TASK = 'Agente del concurso';

/**
 * Installs the single executable on a Linux lab machine as a service (issue 27), in a root shell, with
 * the executable already at `/usr/local/bin/concurso-agent` (agent/README.md): the key saved to a
 * root-only file (`umask 077`; `printf` is a shell builtin, so the key is never in the process list),
 * a systemd unit that runs the agent with `--key-file` at boot and again whenever it stops, enabled and
 * started at once.
 */
export function linuxExecutableCommand(origin: string, key: string): string {
  const unit = [
    '[Unit]',
    'Description=Agente del concurso',
    'After=network-online.target',
    '[Service]',
    `ExecStart=/usr/local/bin/concurso-agent --server ${origin} --key-file ${LINUX_KEY_FILE}`,
    'Restart=always',
    '[Install]',
    'WantedBy=multi-user.target',
  ];
  return (
    `mkdir -p /etc/concurso-agent && (umask 077; printf '%s' ${shellQuote(key)} > ${LINUX_KEY_FILE}) && ` +
    `printf '%s\\n' ${unit.map(shellQuote).join(' ')} > /etc/systemd/system/${AGENT_SERVICE}.service && ` +
    `systemctl daemon-reload && systemctl enable --now ${AGENT_SERVICE}`
  );
}

/** `text` quoted for PowerShell: inside single quotes only `'` is special, written twice. */
const powerShellQuote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The one Spanish line the Windows command stops with when the folder, or anything in it, was not made by
 * the administrators (a contestant who made it first could open it again, read the key or swap the
 * program the task runs as `SYSTEM`).
 */
export const WINDOWS_FOREIGN_DIR =
  `La carpeta ${WINDOWS_AGENT_DIR} (o algo dentro de ella) es de otra cuenta, no de los administradores: ` +
  'bórrela, copie de nuevo concurso-agent.exe y vuelva a ejecutar este comando.';

/**
 * Installs the single executable on a Windows lab machine (issue 27), in PowerShell as administrator,
 * with the executable already at `C:\ProgramData\concurso-agent\concurso-agent.exe` (agent/README.md).
 * One line (the dialog's field), a script block of its own that stops on its first error
 * (`$ErrorActionPreference = 'Stop'` for PowerShell's own, `$LASTEXITCODE` after `icacls` and
 * `schtasks`). In order:
 * 1. A folder that already exists must be a plain folder (no junction) owned by the administrators
 *    (`S-1-5-32-544`), `SYSTEM` (`S-1-5-18`) or the account running the command; otherwise it stops with
 *    `WINDOWS_FOREIGN_DIR` (its owner could give itself access again whatever the ACL says). A missing
 *    one is created.
 * 2. The folder is closed in one step (`Set-Acl`, SDDL `O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)`):
 *    owned by the administrators, nothing inherited, only `SYSTEM` and the administrators, full control,
 *    passed to everything inside.
 * 3. Now that nobody else can add files, everything inside must pass the same check (a file a contestant
 *    slipped in, e.g. a `clave.txt` held open, is theirs): otherwise it stops the same way.
 * 4. Everything inside, the executable included, becomes the administrators' (`icacls /setowner /T`)
 *    with only the folder's ACL (`icacls /reset /T`: explicit entries removed).
 * 5. Only then the key is written (`Set-Content` runs inside PowerShell: never in the process list; a new
 *    file takes the folder's ACL), and a scheduled task runs the agent as `SYSTEM` at boot with
 *    `--key-file`, started at once.
 * SIDs, not names, so it works in any Windows language. Unit-tested for its text only: not yet run on a
 * real Windows.
 */
export function windowsExecutableCommand(origin: string, key: string): string {
  const dir = WINDOWS_AGENT_DIR;
  const run = `${dir}\\concurso-agent.exe --server ${origin} --key-file ${dir}\\clave.txt`;
  const refuse = `throw ${powerShellQuote(WINDOWS_FOREIGN_DIR)}`;
  const steps = [
    "$ErrorActionPreference = 'Stop'",
    'function Comprobar($paso) { if ($LASTEXITCODE) { throw "No se pudo $paso (código $LASTEXITCODE)." } }',
    // Whether any item `$lista` lists is not ours: a junction, or an owner other than `$ok` (one that
    // cannot even be read counts as another's). The first one found ends the listing.
    'function Ajeno($lista) { try { [bool](& $lista | Where-Object { ($_.Attributes -band [IO.FileAttributes]::ReparsePoint) -or ($ok -notcontains (Get-Acl -LiteralPath $_.FullName).GetOwner([Security.Principal.SecurityIdentifier]).Value) } | Select-Object -First 1) } catch { $true } }',
    `$d = ${powerShellQuote(dir)}`,
    "$ok = 'S-1-5-32-544', 'S-1-5-18', [Security.Principal.WindowsIdentity]::GetCurrent().User.Value",
    `if (Test-Path -LiteralPath $d) { if (Ajeno { Get-Item -LiteralPath $d -Force }) { ${refuse} } } ` +
      'else { New-Item -ItemType Directory -Path $d | Out-Null }',
    '$acl = Get-Acl -LiteralPath $d',
    "$acl.SetSecurityDescriptorSddlForm('O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)', 'Owner, Access')",
    'Set-Acl -LiteralPath $d -AclObject $acl',
    `if (Ajeno { Get-ChildItem -LiteralPath $d -Force -Recurse }) { ${refuse} }`,
    "icacls $d /setowner '*S-1-5-32-544' /T /Q",
    "Comprobar 'dar la carpeta a los administradores'",
    'if (Get-ChildItem -LiteralPath $d -Force) { icacls "$d\\*" /reset /T /Q; Comprobar \'dejar los archivos con los permisos de la carpeta\' }',
    `Set-Content -NoNewline -LiteralPath "$d\\clave.txt" -Value ${powerShellQuote(key)}`,
    `schtasks /Create /F /TN '${AGENT_TASK}' /SC ONSTART /RU SYSTEM /RL HIGHEST /TR ${powerShellQuote(run)} | Out-Null`,
    "Comprobar 'crear la tarea'",
    `schtasks /Run /TN '${AGENT_TASK}'`,
    "Comprobar 'iniciar la tarea'",
  ];
  // In a script block of its own: `Stop`, the helpers and the variables end with the command and do
  // not stay in the administrator's session.
  return `& { ${steps.join('; ')} }`;
}
