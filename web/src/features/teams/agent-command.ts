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
 * Installs the single executable on a Windows lab machine (issue 27), in PowerShell as administrator,
 * with the executable already at `C:\ProgramData\concurso-agent\concurso-agent.exe` (agent/README.md):
 * the folder closed to everyone but `SYSTEM` and the administrators (their SIDs, the same in any Windows
 * language: a contestant can neither read the key nor swap the program), the key saved there
 * (`Set-Content` runs inside PowerShell: never in the process list), and a scheduled task that runs the
 * agent as `SYSTEM` at boot with `--key-file`, started at once.
 */
export function windowsExecutableCommand(origin: string, key: string): string {
  const dir = WINDOWS_AGENT_DIR;
  const run = `${dir}\\concurso-agent.exe --server ${origin} --key-file ${dir}\\clave.txt`;
  return (
    `New-Item -ItemType Directory -Force ${dir} | Out-Null; ` +
    `icacls ${dir} /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null; ` +
    `Set-Content -NoNewline -Path ${dir}\\clave.txt -Value ${powerShellQuote(key)}; ` +
    `schtasks /Create /F /TN '${AGENT_TASK}' /SC ONSTART /RU SYSTEM /RL HIGHEST /TR ${powerShellQuote(run)} | Out-Null; ` +
    `schtasks /Run /TN '${AGENT_TASK}'`
  );
}
