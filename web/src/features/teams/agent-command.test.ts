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

  it('gives the Linux executable its key in a root-only file, never on its command line (issue 27)', () => {
    const command = linuxExecutableCommand('http://srv:3000', "ag_it's");
    expect(command).toBe(
      "mkdir -p /etc/concurso-agent && (umask 077; printf '%s' 'ag_it'\\''s' > /etc/concurso-agent/clave) && " +
        'concurso-agent --server http://srv:3000 --key-file /etc/concurso-agent/clave',
    );
    expect(command.slice(command.indexOf('concurso-agent --server'))).not.toContain('ag_it');
  });

  it('gives the Windows executable its key in a folder only SYSTEM and the administrators reach (issue 27)', () => {
    const command = windowsExecutableCommand('http://srv:3000', "ag_it's");
    expect(command).toContain(
      "icacls C:\\ProgramData\\concurso-agent /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F'",
    );
    expect(command).toContain(
      "Set-Content -NoNewline -Path C:\\ProgramData\\concurso-agent\\clave.txt -Value 'ag_it''s';",
    );
    expect(
      command.endsWith(
        'C:\\ProgramData\\concurso-agent\\concurso-agent.exe --server http://srv:3000 --key-file C:\\ProgramData\\concurso-agent\\clave.txt',
      ),
    ).toBe(true);
    // The folder is closed before the key is written into it.
    expect(command.indexOf('icacls')).toBeLessThan(command.indexOf('Set-Content'));
  });
});
