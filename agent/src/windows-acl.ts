/**
 * Windows' side of secure-path.ts, a best effort: Node's fs reports no owner and no ACL on Windows, so
 * the agent asks PowerShell (`Get-Acl`) who owns a folder or file and who may write it, and refuses it
 * when the owner or a writer is another account than SYSTEM, the administrators, TrustedInstaller or
 * the account running the agent. Identities are compared by SID, the same on a Windows in any
 * language. The folder that matters is the one the install command makes (agent/README.md:
 * `C:\ProgramData\concurso-agent`, owned by the administrators, only SYSTEM and the administrators);
 * a folder made there by hand inherits ProgramData's ACL, where every user may create files, and is
 * refused. When PowerShell cannot answer (missing, blocked, an unexpected output), nothing is refused:
 * the caller logs that the check could not be made and goes on. Only the script and the reading of its
 * output are tested (on Linux); it has not been run on a real Windows yet.
 */
import { execFile } from 'node:child_process';

/** SYSTEM, the administrators group and TrustedInstaller: trusted on any Windows. */
const TRUSTED_SIDS: readonly string[] = [
  'S-1-5-18',
  'S-1-5-32-544',
  'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464',
];

/**
 * Rights that let an account change a folder or file: write data / add file (0x2), append data / add
 * subfolder (0x4), write extended attributes (0x10), delete children (0x40), write attributes (0x100),
 * delete (0x10000), change permissions (0x40000), take ownership (0x80000), generic all (0x10000000),
 * generic write (0x40000000).
 */
export const WRITE_RIGHTS_MASK = 0x500d0156;

/** How long PowerShell may take to answer (ms): its start alone can take a few seconds. */
const ACL_TIMEOUT_MS = 20_000;

/** Who owns a path and who, besides the trusted, may write it. */
export interface WindowsAcl {
  /** The owner's SID. */
  owner: string;
  /** Whether the owner is trusted (see the file's comment). */
  ownerTrusted: boolean;
  /** SIDs of the accounts that are not trusted and may write it (an allow rule with a write right). */
  untrustedWriters: string[];
}

/** Runs a PowerShell script; answers its standard output. @throws when it cannot run or fails. */
export type PowerShellRunner = (script: string) => Promise<string>;

/**
 * The PowerShell that prints, one per line, `self <SID>` (the running account), `owner <SID>` and
 * `writer <SID>` for each allow rule that gives a write right (`WRITE_RIGHTS_MASK`) and applies to the
 * path itself (not inherit-only).
 */
export function windowsAclScript(target: string): string {
  const literal = `'${target.replace(/'/g, "''")}'`;
  return [
    "$ErrorActionPreference = 'Stop'",
    '$sid = [Security.Principal.SecurityIdentifier]',
    `$acl = Get-Acl -LiteralPath ${literal}`,
    "'self ' + [Security.Principal.WindowsIdentity]::GetCurrent().User.Value",
    "'owner ' + $acl.GetOwner($sid).Value",
    'foreach ($rule in $acl.GetAccessRules($true, $true, $sid)) {',
    "  if ($rule.AccessControlType -ne 'Allow') { continue }",
    '  if ($rule.PropagationFlags -band [Security.AccessControl.PropagationFlags]::InheritOnly) { continue }',
    `  if (([long]$rule.FileSystemRights) -band ${WRITE_RIGHTS_MASK}) { 'writer ' + $rule.IdentityReference.Value }`,
    '}',
  ].join('\n');
}

/** Reads `windowsAclScript`'s output; null when it is not what the script prints (no self or owner). */
export function readWindowsAcl(output: string): WindowsAcl | null {
  let self: string | undefined;
  let owner: string | undefined;
  const writers: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^(self|owner|writer) (S-1-[0-9-]+)\s*$/.exec(line.trim());
    if (!match) continue;
    if (match[1] === 'self') self = match[2];
    else if (match[1] === 'owner') owner = match[2];
    else writers.push(match[2]!);
  }
  if (!self || !owner) return null;
  const trusted = new Set([...TRUSTED_SIDS, self]);
  return {
    owner,
    ownerTrusted: trusted.has(owner),
    untrustedWriters: [...new Set(writers.filter((sid) => !trusted.has(sid)))],
  };
}

/**
 * Who owns `target` and who may write it, by PowerShell; null when that could not be learned (then
 * nothing is refused). Never throws.
 */
export async function windowsAcl(
  target: string,
  run: PowerShellRunner = runPowerShell,
): Promise<WindowsAcl | null> {
  try {
    return readWindowsAcl(await run(windowsAclScript(target)));
  } catch {
    return null;
  }
}

/** Runs `script` with `powershell.exe` (Windows PowerShell 5, in every Windows 10 and 11). */
const runPowerShell: PowerShellRunner = (script) =>
  new Promise((resolve, reject) => {
    execFile(
      'powershell.exe',
      [
        '-NoProfile',
        '-NonInteractive',
        '-ExecutionPolicy',
        'Bypass',
        '-EncodedCommand',
        Buffer.from(script, 'utf16le').toString('base64'),
      ],
      { timeout: ACL_TIMEOUT_MS, windowsHide: true },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
