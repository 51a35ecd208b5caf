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
    const refuse =
      "throw 'La carpeta C:\\ProgramData\\concurso-agent (o algo dentro de ella) es de otra cuenta, no de los administradores: " +
      "bórrela, copie de nuevo concurso-agent.exe y vuelva a ejecutar este comando.'";
    expect(command).toBe(
      "& { $ErrorActionPreference = 'Stop'; " +
        'function Comprobar($paso) { if ($LASTEXITCODE) { throw "No se pudo $paso (código $LASTEXITCODE)." } }; ' +
        'function Ajeno($lista) { try { [bool](& $lista | Where-Object { ($_.Attributes -band [IO.FileAttributes]::ReparsePoint) -or ' +
        '($ok -notcontains (Get-Acl -LiteralPath $_.FullName).GetOwner([Security.Principal.SecurityIdentifier]).Value) } | Select-Object -First 1) } catch { $true } }; ' +
        "$d = 'C:\\ProgramData\\concurso-agent'; " +
        "$ok = 'S-1-5-32-544', 'S-1-5-18', [Security.Principal.WindowsIdentity]::GetCurrent().User.Value; " +
        `if (Test-Path -LiteralPath $d) { if (Ajeno { Get-Item -LiteralPath $d -Force }) { ${refuse} } } ` +
        'else { New-Item -ItemType Directory -Path $d | Out-Null }; ' +
        '$acl = Get-Acl -LiteralPath $d; ' +
        "$acl.SetSecurityDescriptorSddlForm('O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)', 'Owner, Access'); " +
        'Set-Acl -LiteralPath $d -AclObject $acl; ' +
        `if (Ajeno { Get-ChildItem -LiteralPath $d -Force -Recurse }) { ${refuse} }; ` +
        "icacls $d /setowner '*S-1-5-32-544' /T /Q; Comprobar 'dar la carpeta a los administradores'; " +
        'if (Get-ChildItem -LiteralPath $d -Force) { icacls "$d\\*" /reset /T /Q; ' +
        "Comprobar 'dejar los archivos con los permisos de la carpeta' }; " +
        `Set-Content -NoNewline -LiteralPath "$d\\clave.txt" -Value 'ag_it''s'; ` +
        "schtasks /Create /F /TN 'Agente del concurso' /SC ONSTART /RU SYSTEM /RL HIGHEST " +
        "/TR 'C:\\ProgramData\\concurso-agent\\concurso-agent.exe --server http://srv:3000 --key-file C:\\ProgramData\\concurso-agent\\clave.txt' | Out-Null; " +
        "Comprobar 'crear la tarea'; " +
        "schtasks /Run /TN 'Agente del concurso'; Comprobar 'iniciar la tarea' }",
    );
    // Stops on the first error: PowerShell's own from the first statement on, and each native
    // command's exit code right after it.
    expect(command.startsWith("& { $ErrorActionPreference = 'Stop'; ")).toBe(true);
    const natives = [...command.matchAll(/(icacls|schtasks) [^;]*; /g)];
    expect(natives).toHaveLength(4);
    for (const native of natives) {
      expect(command.slice(native.index + native[0].length)).toMatch(/^Comprobar '/);
    }
    // In this order: a folder of another account refused, then the folder made the administrators' and
    // closed to all but SYSTEM and them, then what is inside checked and given the same owner and ACL,
    // and only then the key written and the task that runs the executable created.
    const order = [
      'if (Test-Path -LiteralPath $d) { if (Ajeno { Get-Item',
      "SetSecurityDescriptorSddlForm('O:BA",
      'Set-Acl -LiteralPath $d',
      'if (Ajeno { Get-ChildItem',
      '/setowner',
      '/reset /T',
      'Set-Content',
      'schtasks /Create',
      'schtasks /Run',
    ].map((step) => command.indexOf(step));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    // The folder's ACL: the administrators own it, nothing inherited (P), only SYSTEM and them.
    expect(command.match(/'O:[^']*'/g)).toEqual(["'O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)'"]);
    // The task never holds the key.
    expect(command.slice(command.indexOf('schtasks'))).not.toContain('ag_it');
  });
});
