import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentCommand,
  isLocalServer,
  linuxExecutableCommand,
  linuxUnit,
  serverOrigin,
  windowsExecutableCommand,
  windowsTaskXml,
} from './agent-command';
import { AGENT_VERSION } from './agent-version';

/** One element of the small XML reader below. */
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/**
 * A small, strict reader for the task definition (no XML library is a dependency of the project): one
 * declaration, then elements, attributes in double quotes, text with only the five predefined
 * entities; every element closed in order. Throws on anything else, so a malformed definition fails.
 */
function readXml(xml: string): XmlElement {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-16"\?>/;
  if (!declaration.test(xml)) throw new Error('falta la declaración XML');
  const body = xml.replace(declaration, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const open: XmlElement[] = [root];
  const decode = (text: string) => {
    if (/[<>]|&(?!(amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`texto sin escapar: ${text}`);
    return text
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&apos;', "'")
      .replaceAll('&amp;', '&');
  };
  for (const token of body.matchAll(/<(\/?)([A-Za-z]+)((?:\s+[A-Za-z:]+="[^"<]*")*)\s*>|([^<]+)|(<)/g)) {
    const [, closing, name, attributes, text, stray] = token;
    const current = open.at(-1)!;
    if (stray) throw new Error(`etiqueta mal formada en ${token.index}`);
    if (text !== undefined) {
      current.text += decode(text);
    } else if (closing) {
      if (current.name !== name) throw new Error(`</${name}> cierra <${current.name}>`);
      open.pop();
    } else {
      const element: XmlElement = { name: name!, attributes: {}, children: [], text: '' };
      for (const [, key, value] of attributes!.matchAll(/([A-Za-z:]+)="([^"]*)"/g))
        element.attributes[key!] = decode(value!);
      current.children.push(element);
      open.push(element);
    }
  }
  if (open.length !== 1) throw new Error(`<${open.at(-1)!.name}> sin cerrar`);
  if (root.children.length !== 1 || root.text.trim()) throw new Error('debe haber un solo elemento raíz');
  return root.children[0]!;
}

/** The text of the one element at `route` (`Settings/RestartOnFailure/Count`) below `element`. */
function at(element: XmlElement, route: string): string {
  let here = element;
  for (const name of route.split('/')) {
    const found = here.children.filter((child) => child.name === name);
    if (found.length !== 1) throw new Error(`${route}: ${found.length} elementos ${name}`);
    here = found[0]!;
  }
  return here.text;
}

describe('agentCommand (docs/design.md section 6)', () => {
  it('saves the key to an owner-only file, then runs the agent with --key-file and the given server', () => {
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
});

describe('the server address in the commands', () => {
  it('is an http(s) origin: http:// when none is written, nothing after the port', () => {
    expect(serverOrigin(' http://192.168.1.10:3000/ ')).toBe('http://192.168.1.10:3000');
    expect(serverOrigin('192.168.1.10:3000')).toBe('http://192.168.1.10:3000');
    expect(serverOrigin('https://Concurso.Example.edu')).toBe('https://concurso.example.edu');
    expect(serverOrigin('http://[fd00::5]:3000')).toBe('http://[fd00::5]:3000');
    for (const bad of [
      '',
      '   ',
      'http://srv:3000/concurso',
      'http://srv:3000/?x=1',
      'http://yo:clave@srv',
      'ftp://srv',
      'http://srv:99999',
      "http://srv'; rm -rf /",
      'http://a b',
    ])
      expect(serverOrigin(bad), bad).toBeNull();
  });

  it('is this very machine for localhost, 127.x, ::1 and 0.0.0.0, not for a lab address', () => {
    for (const local of [
      'http://localhost:3411',
      'http://LOCALHOST',
      'http://concurso.localhost:3000',
      'http://127.0.0.1:3000',
      'http://127.1.2.3',
      'http://127.1',
      'http://[::1]:3000',
      'http://[::ffff:127.0.0.1]:3000',
      'http://0.0.0.0:3000',
    ])
      expect(isLocalServer(serverOrigin(local)!), local).toBe(true);
    for (const lab of [
      'http://192.168.1.10:3000',
      'http://10.127.0.1',
      'https://concurso.example.edu',
      'http://[fd00::1]',
    ])
      expect(isLocalServer(serverOrigin(lab)!), lab).toBe(false);
  });
});

describe('the Linux executable as a systemd service', () => {
  const unit = [
    '[Unit]',
    'Description=Agente del concurso',
    'Wants=network-online.target',
    'After=network-online.target',
    'StartLimitIntervalSec=0',
    '[Service]',
    'ExecStart=/usr/local/bin/concurso-agent --server http://10.0.0.5:3000 --key-file /etc/concurso-agent/clave',
    'Restart=always',
    'RestartSec=5',
    '[Install]',
    'WantedBy=multi-user.target',
  ];

  it('restarts 5 s after any end with no start limit, after the network is up', () => {
    expect(linuxUnit('http://10.0.0.5:3000')).toEqual(unit);
  });

  it('installs the downloaded file, saves the key to a root-only file, writes the unit and (re)starts it', () => {
    const command = linuxExecutableCommand('http://10.0.0.5:3000', "ag_it's", '0.1.0');
    expect(command).toBe(
      'install -m 0755 concurso-agent-0.1.0-linux-x64 /usr/local/bin/concurso-agent && ' +
        "mkdir -p /etc/concurso-agent && (umask 077; printf '%s' 'ag_it'\\''s' > /etc/concurso-agent/clave) && " +
        "printf '%s\\n' '[Unit]' 'Description=Agente del concurso' 'Wants=network-online.target' " +
        "'After=network-online.target' 'StartLimitIntervalSec=0' '[Service]' " +
        "'ExecStart=/usr/local/bin/concurso-agent --server http://10.0.0.5:3000 --key-file /etc/concurso-agent/clave' " +
        "'Restart=always' 'RestartSec=5' '[Install]' 'WantedBy=multi-user.target' > /etc/systemd/system/concurso-agent.service && " +
        'systemctl daemon-reload && systemctl enable concurso-agent && systemctl restart concurso-agent',
    );
    // The key is only in the builtin printf to its file, never in the service's command line.
    expect(command.slice(command.indexOf('/etc/concurso-agent/clave)'))).not.toContain('ag_it');
  });

  it('writes a unit that sh prints line by line and systemd-analyze verify accepts without a word', () => {
    const command = linuxExecutableCommand('http://10.0.0.5:3000', 'ag_x', '0.1.0');
    // The command's own printf, run by a real shell, with the unit's path swapped for stdout.
    const printf = command.slice(command.indexOf("printf '%s\\n'"), command.indexOf(' > /etc/systemd/'));
    const written = execFileSync('sh', ['-c', printf], { encoding: 'utf8' });
    expect(written).toBe(unit.join('\n') + '\n');

    // systemd-analyze comes with Debian's systemd (scripts/test-env.sh makes sure). Checked in a root of
    // its own holding systemd's own units, the unit and an executable where ExecStart looks.
    const root = mkdtempSync(path.join(os.tmpdir(), 'unidad-agente-'));
    try {
      cpSync('/usr/lib/systemd/system', path.join(root, 'usr/lib/systemd/system'), { recursive: true });
      mkdirSync(path.join(root, 'etc/systemd/system'), { recursive: true });
      writeFileSync(path.join(root, 'etc/systemd/system/concurso-agent.service'), written);
      mkdirSync(path.join(root, 'usr/local/bin'), { recursive: true });
      writeFileSync(path.join(root, 'usr/local/bin/concurso-agent'), '#!/bin/sh\n', { mode: 0o755 });
      // Everything it says: a line systemd would ignore is only a warning, with exit code 0.
      const verify = (): string => {
        const run = spawnSync('systemd-analyze', ['verify', `--root=${root}`, 'concurso-agent.service'], {
          encoding: 'utf8',
        });
        if (run.error) throw run.error;
        return `${run.stdout}${run.stderr}${run.status === 0 ? '' : `código ${run.status}`}`;
      };
      expect(verify()).toBe('');
      // The check would see a bad line: systemd ignores it with a warning.
      writeFileSync(
        path.join(root, 'etc/systemd/system/concurso-agent.service'),
        written.replace('RestartSec=5', 'RestartSec=cinco'),
      );
      expect(verify()).toContain('concurso-agent.service:9: Failed to parse sec value');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the Windows executable as a scheduled task', () => {
  const xml =
    '<?xml version="1.0" encoding="UTF-16"?>' +
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">' +
    '<RegistrationInfo><Description>Agente del concurso</Description></RegistrationInfo>' +
    '<Triggers><BootTrigger><Repetition><Interval>PT1M</Interval><StopAtDurationEnd>false</StopAtDurationEnd></Repetition>' +
    '<Enabled>true</Enabled></BootTrigger></Triggers>' +
    '<Principals><Principal id="Author"><UserId>S-1-5-18</UserId><RunLevel>HighestAvailable</RunLevel></Principal></Principals>' +
    '<Settings><MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>' +
    '<DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries><StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>' +
    '<StartWhenAvailable>true</StartWhenAvailable><Enabled>true</Enabled><ExecutionTimeLimit>PT0S</ExecutionTimeLimit>' +
    '<RestartOnFailure><Interval>PT1M</Interval><Count>255</Count></RestartOnFailure></Settings>' +
    '<Actions Context="Author"><Exec><Command>C:\\ProgramData\\concurso-agent\\concurso-agent.exe</Command>' +
    '<Arguments>--server http://10.0.0.5:3000 --key-file C:\\ProgramData\\concurso-agent\\clave.txt</Arguments></Exec></Actions>' +
    '</Task>';

  it('is defined by XML: at boot and again every minute while not running, as SYSTEM, restarted on failure, no time limit', () => {
    expect(windowsTaskXml('http://10.0.0.5:3000')).toBe(xml);
    const task = readXml(xml);
    expect(task.name).toBe('Task');
    expect(task.attributes).toEqual({
      version: '1.2',
      xmlns: 'http://schemas.microsoft.com/windows/2004/02/mit/task',
    });
    expect(at(task, 'Triggers/BootTrigger/Enabled')).toBe('true');
    expect(at(task, 'Triggers/BootTrigger/Repetition/Interval')).toBe('PT1M');
    // No Duration: the repetition never ends.
    expect(task.children[1]!.children[0]!.children[0]!.children.map((e) => e.name)).toEqual([
      'Interval',
      'StopAtDurationEnd',
    ]);
    expect(at(task, 'Principals/Principal/UserId')).toBe('S-1-5-18');
    expect(at(task, 'Principals/Principal/RunLevel')).toBe('HighestAvailable');
    expect(at(task, 'Settings/MultipleInstancesPolicy')).toBe('IgnoreNew');
    expect(at(task, 'Settings/RestartOnFailure/Interval')).toBe('PT1M');
    // The schema's Count is an unsigned byte: 255 is the most it takes.
    expect(at(task, 'Settings/RestartOnFailure/Count')).toBe('255');
    expect(at(task, 'Settings/ExecutionTimeLimit')).toBe('PT0S');
    expect(at(task, 'Settings/StartWhenAvailable')).toBe('true');
    expect(at(task, 'Settings/DisallowStartIfOnBatteries')).toBe('false');
    expect(at(task, 'Settings/StopIfGoingOnBatteries')).toBe('false');
    expect(at(task, 'Actions/Exec/Command')).toBe('C:\\ProgramData\\concurso-agent\\concurso-agent.exe');
    expect(at(task, 'Actions/Exec/Arguments')).toBe(
      '--server http://10.0.0.5:3000 --key-file C:\\ProgramData\\concurso-agent\\clave.txt',
    );
    // The reader refuses what is not well-formed.
    expect(() => readXml(xml.replace('</Settings>', ''))).toThrow();
    expect(() => readXml(xml.replace('PT0S', 'PT0S & nada'))).toThrow();
  });

  it('copies the downloaded file into a folder only SYSTEM and the administrators reach, saves the key, registers the task from its XML and starts it', () => {
    const command = windowsExecutableCommand('http://10.0.0.5:3000', "ag_it's", '0.1.0');
    const refuse =
      "throw 'La carpeta C:\\ProgramData\\concurso-agent (o algo dentro de ella) es de otra cuenta, no de los administradores: " +
      "bórrela y vuelva a ejecutar este comando.'";
    expect(command).toBe(
      "& { $ErrorActionPreference = 'Stop'; " +
        'function Comprobar($paso) { if ($LASTEXITCODE) { throw "No se pudo $paso (código $LASTEXITCODE)." } }; ' +
        'function Ajeno($lista) { try { [bool](& $lista | Where-Object { ($_.Attributes -band [IO.FileAttributes]::ReparsePoint) -or ' +
        '($ok -notcontains (Get-Acl -LiteralPath $_.FullName).GetOwner([Security.Principal.SecurityIdentifier]).Value) } | Select-Object -First 1) } catch { $true } }; ' +
        "$exe = 'concurso-agent-0.1.0-win-x64.exe'; " +
        'if (-not (Test-Path -LiteralPath $exe -PathType Leaf)) { throw "No se encontró $exe en esta carpeta: ' +
        'abra PowerShell como administrador en la carpeta donde lo copió." }; ' +
        "$d = 'C:\\ProgramData\\concurso-agent'; " +
        "$ok = 'S-1-5-32-544', 'S-1-5-18', [Security.Principal.WindowsIdentity]::GetCurrent().User.Value; " +
        `if (Test-Path -LiteralPath $d) { if (Ajeno { Get-Item -LiteralPath $d -Force }) { ${refuse} } } ` +
        'else { New-Item -ItemType Directory -Path $d | Out-Null }; ' +
        '$acl = Get-Acl -LiteralPath $d; ' +
        "$acl.SetSecurityDescriptorSddlForm('O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)', 'Owner, Access'); " +
        'Set-Acl -LiteralPath $d -AclObject $acl; ' +
        `if (Ajeno { Get-ChildItem -LiteralPath $d -Force -Recurse }) { ${refuse} }; ` +
        "if (Get-ScheduledTask -TaskName 'Agente del concurso' -ErrorAction SilentlyContinue) { Stop-ScheduledTask -TaskName 'Agente del concurso' }; " +
        'Copy-Item -LiteralPath $exe -Destination "$d\\concurso-agent.exe" -Force; ' +
        "icacls $d /setowner '*S-1-5-32-544' /T /Q; Comprobar 'dar la carpeta a los administradores'; " +
        'icacls "$d\\*" /reset /T /Q; Comprobar \'dejar los archivos con los permisos de la carpeta\'; ' +
        `Set-Content -NoNewline -LiteralPath "$d\\clave.txt" -Value 'ag_it''s'; ` +
        `Set-Content -Encoding Unicode -LiteralPath "$d\\tarea.xml" -Value '${xml}'; ` +
        'schtasks /Create /F /TN \'Agente del concurso\' /XML "$d\\tarea.xml" | Out-Null; ' +
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
    // In this order: the downloaded file found, a folder of another account refused, then the folder
    // made the administrators' and closed to all but SYSTEM and them, then what is inside checked, a
    // running agent stopped, the file copied in, everything given the same owner and ACL, and only then
    // the key written and the task that runs the executable defined, registered and started.
    const order = [
      'if (-not (Test-Path -LiteralPath $exe',
      'if (Test-Path -LiteralPath $d) { if (Ajeno { Get-Item',
      "SetSecurityDescriptorSddlForm('O:BA",
      'Set-Acl -LiteralPath $d',
      'if (Ajeno { Get-ChildItem',
      'Stop-ScheduledTask',
      'Copy-Item',
      '/setowner',
      '/reset /T',
      'clave.txt" -Value',
      'tarea.xml" -Value',
      'schtasks /Create',
      'schtasks /Run',
    ].map((step) => command.indexOf(step));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    // The folder's ACL: the administrators own it, nothing inherited (P), only SYSTEM and them.
    expect(command.match(/'O:[^']*'/g)).toEqual(["'O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)'"]);
    // Neither the task nor its definition holds the key.
    expect(command.slice(command.indexOf('tarea.xml'))).not.toContain('ag_it');
  });

  it('quotes a task definition holding a quote for PowerShell and escapes it for XML', () => {
    // serverOrigin never gives one; the builders stay safe for any text anyway.
    const definition = windowsTaskXml("http://o'neil");
    expect(at(readXml(definition), 'Actions/Exec/Arguments')).toContain("--server http://o'neil ");
    expect(windowsExecutableCommand("http://o'neil", 'ag_x', '0.1.0')).toContain(
      `-Value '${definition.replaceAll("'", "''")}'; `,
    );
  });
});

describe('the downloaded files', () => {
  it('are named with the version of agent/package.json, as npm run agent:build names them', () => {
    const agentPackage = JSON.parse(
      readFileSync(new URL('../../../../agent/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(AGENT_VERSION).toBe(agentPackage.version);
    expect(linuxExecutableCommand('http://srv', 'k', AGENT_VERSION)).toMatch(
      new RegExp(`^install -m 0755 concurso-agent-${AGENT_VERSION.replaceAll('.', '\\.')}-linux-x64 `),
    );
    expect(windowsExecutableCommand('http://srv', 'k', AGENT_VERSION)).toContain(
      `$exe = 'concurso-agent-${AGENT_VERSION}-win-x64.exe'`,
    );
    expect(existsSync(new URL('../../../../agent/scripts/build.ts', import.meta.url))).toBe(true);
  });
});
