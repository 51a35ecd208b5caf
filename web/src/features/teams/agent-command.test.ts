import { describe, expect, it } from 'vitest';
import { agentCommand, linuxExecutableCommand, windowsExecutableCommand } from './agent-command';

describe('agentCommand (DESIGN.md section 6)', () => {
  it('saves the key to an owner-only file, then runs the agent with --key-file and this site as server', () => {
    expect(agentCommand('http://192.168.1.10:3000', 'ag_abc123')).toBe(
      "(umask 077; printf '%s' 'ag_abc123' > ~/concurso-agent.key) && " +
        'npm run agent -- --server http://192.168.1.10:3000 --key-file ~/concurso-agent.key',
    );
  });

  it('never puts the key on the agent command line, and quotes it for the shell', () => {
    const command = agentCommand('http://srv', "ag_it's");
    expect(command).toContain(`printf '%s' 'ag_it'\\''s' >`);
    expect(command.slice(command.indexOf('npm run agent'))).not.toContain('ag_it');
  });

  it('installs the Linux executable as a systemd service with its key in a root-only file (issue 27)', () => {
    const command = linuxExecutableCommand('http://srv:3000', "ag_it's");
    expect(command).toBe(
      "mkdir -p /etc/concurso-agent && (umask 077; printf '%s' 'ag_it'\\''s' > /etc/concurso-agent/clave) && " +
        "printf '%s\\n' '[Unit]' 'Description=Agente del concurso' 'After=network-online.target' '[Service]' " +
        "'ExecStart=/usr/local/bin/concurso-agent --server http://srv:3000 --key-file /etc/concurso-agent/clave' " +
        "'Restart=always' '[Install]' 'WantedBy=multi-user.target' > /etc/systemd/system/concurso-agent.service && " +
        'systemctl daemon-reload && systemctl enable --now concurso-agent',
    );
    // The key is only in the builtin printf to its file, never in the service's command line.
    expect(command.slice(command.indexOf('/etc/concurso-agent/clave)'))).not.toContain('ag_it');
  });

  it('installs the Windows executable as a SYSTEM task, its key in a folder only SYSTEM and the administrators reach (issue 27)', () => {
    const command = windowsExecutableCommand('http://srv:3000', "ag_it's");
    expect(command).toBe(
      'New-Item -ItemType Directory -Force C:\\ProgramData\\concurso-agent | Out-Null; ' +
        "icacls C:\\ProgramData\\concurso-agent /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null; " +
        "Set-Content -NoNewline -Path C:\\ProgramData\\concurso-agent\\clave.txt -Value 'ag_it''s'; " +
        "schtasks /Create /F /TN 'Agente del concurso' /SC ONSTART /RU SYSTEM /RL HIGHEST " +
        "/TR 'C:\\ProgramData\\concurso-agent\\concurso-agent.exe --server http://srv:3000 --key-file C:\\ProgramData\\concurso-agent\\clave.txt' | Out-Null; " +
        "schtasks /Run /TN 'Agente del concurso'",
    );
    // The folder is closed before the key is written into it, and the task never holds the key.
    expect(command.indexOf('icacls')).toBeLessThan(command.indexOf('Set-Content'));
    expect(command.slice(command.indexOf('schtasks'))).not.toContain('ag_it');
  });
});
