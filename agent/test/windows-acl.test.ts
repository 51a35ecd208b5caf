import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyFileError, readKeyFile } from '../src/key-file.js';
import { readWindowsAcl, windowsAcl, windowsAclScript, WRITE_RIGHTS_MASK } from '../src/windows-acl.js';
import { cleanUp, tempDir } from './helpers/processes.js';

/**
 * The Windows side of the data folder and key file checks (windows-acl.ts): the PowerShell it runs and
 * how its output is read. Never run on a real Windows here (no PowerShell on this machine): these
 * tests pin the script's text and the verdicts on the ACLs a lab machine has.
 */
afterEach(cleanUp);

const SYSTEM = 'S-1-5-18';
const ADMINS = 'S-1-5-32-544';
const USERS = 'S-1-5-32-545';
const CONTESTANT = 'S-1-5-21-1004336348-1177238915-682003330-1001';

describe('windowsAclScript', () => {
  it('reads the ACL of the literal path (a quote doubled), by SID, skipping inherit-only rules', () => {
    const script = windowsAclScript("C:\\ProgramData\\concurso-agent\\it's");
    expect(script).toContain("$acl = Get-Acl -LiteralPath 'C:\\ProgramData\\concurso-agent\\it''s'");
    expect(script).toContain("'owner ' + $acl.GetOwner($sid).Value");
    expect(script).toContain('$acl.GetAccessRules($true, $true, $sid)');
    expect(script).toContain('[Security.AccessControl.PropagationFlags]::InheritOnly) { continue }');
    expect(script).toContain(`-band ${WRITE_RIGHTS_MASK}) { 'writer ' + $rule.IdentityReference.Value }`);
  });

  it('counts as writing every right that changes the folder or file', () => {
    const rights = {
      WriteData: 0x2,
      AppendData: 0x4,
      WriteExtendedAttributes: 0x10,
      DeleteSubdirectoriesAndFiles: 0x40,
      WriteAttributes: 0x100,
      Delete: 0x10000,
      ChangePermissions: 0x40000,
      TakeOwnership: 0x80000,
      GenericAll: 0x10000000,
      GenericWrite: 0x40000000,
    };
    expect(Object.values(rights).reduce((a, b) => a | b, 0)).toBe(WRITE_RIGHTS_MASK);
    // Reading and running give nothing away.
    for (const readOnly of [0x1, 0x8, 0x20, 0x80, 0x20000, 0x100000])
      expect(readOnly & WRITE_RIGHTS_MASK).toBe(0);
  });
});

describe('readWindowsAcl', () => {
  it('trusts the folder the install command makes: owned by the administrators, only SYSTEM and them', () => {
    const output = [`self ${SYSTEM}`, `owner ${ADMINS}`, `writer ${SYSTEM}`, `writer ${ADMINS}`].join('\r\n');
    expect(readWindowsAcl(output)).toEqual({ owner: ADMINS, ownerTrusted: true, untrustedWriters: [] });
  });

  it('refuses a folder made by hand in ProgramData, where every user may create files', () => {
    const output = [
      `self ${SYSTEM}`,
      `owner ${ADMINS}`,
      `writer ${SYSTEM}`,
      `writer ${ADMINS}`,
      `writer ${USERS}`,
      `writer ${USERS}`,
    ].join('\r\n');
    expect(readWindowsAcl(output)).toEqual({ owner: ADMINS, ownerTrusted: true, untrustedWriters: [USERS] });
  });

  it('refuses a folder a contestant owns (they could give themselves any right back)', () => {
    const output = [`self ${SYSTEM}`, `owner ${CONTESTANT}`, `writer ${SYSTEM}`].join('\n');
    expect(readWindowsAcl(output)).toEqual({ owner: CONTESTANT, ownerTrusted: false, untrustedWriters: [] });
  });

  it('trusts the account running the agent (a developer trying it in their own folder)', () => {
    const output = [
      `self ${CONTESTANT}`,
      `owner ${CONTESTANT}`,
      `writer ${CONTESTANT}`,
      `writer ${SYSTEM}`,
    ].join('\n');
    expect(readWindowsAcl(output)).toEqual({ owner: CONTESTANT, ownerTrusted: true, untrustedWriters: [] });
  });

  it('answers null (nothing refused) when PowerShell did not answer as expected', async () => {
    expect(readWindowsAcl('')).toBeNull();
    expect(readWindowsAcl(`owner ${ADMINS}`)).toBeNull();
    expect(readWindowsAcl('Get-Acl : Access is denied')).toBeNull();
    expect(
      await windowsAcl('C:\\x', () => Promise.reject(new Error('spawn powershell.exe ENOENT'))),
    ).toBeNull();
    expect(await windowsAcl('C:\\x', () => Promise.resolve(`self ${SYSTEM}\nowner ${USERS}\n`))).toEqual({
      owner: USERS,
      ownerTrusted: false,
      untrustedWriters: [],
    });
  });
});

describe('readKeyFile on Windows', () => {
  it('refuses a key file others may write, with one Spanish line; reads one only SYSTEM and the administrators may', async () => {
    const file = path.join(await tempDir('agent-key-'), 'clave.txt');
    await writeFile(file, 'ag_clave_de_prueba\r\n');
    await chmod(file, 0o600);
    const acl = (output: string) => () => Promise.resolve(readWindowsAcl(output));
    const error = await readKeyFile(file, {
      platform: 'win32',
      windowsAcl: acl(`self ${SYSTEM}\nowner ${ADMINS}\nwriter ${SYSTEM}\nwriter ${USERS}`),
    }).then(
      () => null,
      (e: unknown) => e as KeyFileError,
    );
    expect(error).toBeInstanceOf(KeyFileError);
    expect(error!.message).toBe(
      `El archivo de la clave ${file} no es seguro: debe pertenecer a SYSTEM o a los administradores y no ` +
        `poder escribirlo nadie más (dueño ${ADMINS}; pueden escribirlo ${USERS}). ` +
        'Prepárelo con el comando de instalación de la consola.',
    );
    expect(
      await readKeyFile(file, {
        platform: 'win32',
        windowsAcl: acl(`self ${SYSTEM}\nowner ${ADMINS}\nwriter ${SYSTEM}\nwriter ${ADMINS}`),
      }),
    ).toBe('ag_clave_de_prueba');
    expect(await readKeyFile(file, { platform: 'win32', windowsAcl: () => Promise.resolve(null) })).toBe(
      'ag_clave_de_prueba',
    );
  });
});
