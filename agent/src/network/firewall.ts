/**
 * The machine's firewall as the agent uses it (agent/README.md, «Sitios permitidos»): put a resolved policy
 * in force in rules of its own, or lift them; nothing else. Linux: `nft -f -` with the script of
 * nftables.ts (its table `inet concurso`, replaced whole in one transaction). Windows: PowerShell's
 * NetSecurity cmdlets with the script of windows-firewall.ts (its rule group `Concurso`; generated and
 * unit-tested here, never run: agent/README.md says what was tried). A failure is a `FirewallError`
 * whose message is the Spanish reason the lab board shows.
 */
import { spawn } from 'node:child_process';
import { nftApplyScript, nftLiftScript } from './nftables.js';
import type { DivertPorts, ResolvedPolicy } from './resolved-policy.js';
import { cutOutsiders } from './socket-cut.js';
import {
  windowsApplyScript,
  windowsFirewallCommand,
  windowsLiftScript,
  windowsReadBackProblem,
  windowsReadBackScript,
} from './windows-firewall.js';

/** Why the firewall could not be changed, in Spanish (shown on /laboratorio, at most 300 characters). */
export class FirewallError extends Error {
  override readonly name = 'FirewallError';
}

/** The firewall: its own rules only. */
export interface Firewall {
  /**
   * Puts `policy` in force, replacing the agent's previous rules. `divert`: the ports of the agent's
   * DNS forwarder and name filter, where a contestant's DNS and web connections go (Linux; null or
   * absent: every allowed name by its addresses). @throws FirewallError
   */
  apply(policy: ResolvedPolicy, divert?: DivertPorts | null): Promise<void>;
  /** Removes the agent's rules, if any. @throws FirewallError */
  lift(): Promise<void>;
}

/** Longest a firewall command may take (ms). */
const COMMAND_TIMEOUT_MS = 20_000;

/** Spanish reasons of the usual failures. */
export const FIREWALL_TEXTS = {
  nftMissing: 'No se encontró el programa nft: instale nftables (apt install nftables).',
  powershellMissing: 'No se encontró powershell.exe para cambiar el Firewall de Windows.',
  notRoot:
    'El agente no tiene permiso para cambiar el cortafuegos: ejecútelo como root (Linux) o como SYSTEM (Windows).',
  failed: (tool: string, detail: string) => `${tool} falló: ${detail}`.slice(0, 300),
  timedOut: (tool: string) => `${tool} no respondió en ${COMMAND_TIMEOUT_MS / 1000} s.`,
} as const;

/** Most of a command's standard output kept (characters): a read-back of the rules is a few KB. */
const STDOUT_MAX = 1_000_000;

/**
 * Runs `file args` with `input` on stdin. Resolves on exit code 0 with what it printed (at most
 * `STDOUT_MAX` characters).
 * @throws FirewallError with the Spanish reason otherwise.
 */
function run(file: string, args: readonly string[], input: string, missing: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: COMMAND_TIMEOUT_MS });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4_000) stderr += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < STDOUT_MAX) stdout += chunk;
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new FirewallError(
          error.code === 'ENOENT'
            ? missing
            : error.code === 'EACCES' || error.code === 'EPERM'
              ? FIREWALL_TEXTS.notRoot
              : FIREWALL_TEXTS.failed(file, `error del sistema ${error.code ?? error.message}`),
        ),
      ),
    );
    child.once('close', (code) => {
      if (code === 0) return resolve(stdout);
      // Ended by the time limit (no exit code).
      if (code === null) return reject(new FirewallError(FIREWALL_TEXTS.timedOut(file)));
      if (/operation not permitted|permission denied|access is denied|acceso denegado/i.test(stderr))
        return reject(new FirewallError(FIREWALL_TEXTS.notRoot));
      const line = stderr.split('\n').find((l) => l.trim() !== '') ?? `código ${code}`;
      reject(new FirewallError(FIREWALL_TEXTS.failed(file, line.trim())));
    });
    // A closed stdin (the tool died at once) is reported by 'close' above.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/**
 * Linux: nftables, through `nft -f -` (`nft` from PATH, or `nftPath`). Once the rules are in force, the
 * TCP connections outside the policy are ended at once where the kernel lets `ss -K` do it (best
 * effort, socket-cut.ts); the rules refuse them at their next packet anyway.
 */
export function nftablesFirewall(nftPath = 'nft'): Firewall {
  return {
    apply: async (policy, divert = null) => {
      await run(nftPath, ['-f', '-'], nftApplyScript(policy, divert), FIREWALL_TEXTS.nftMissing);
      await cutOutsiders(policy, divert);
    },
    lift: async () => {
      await run(nftPath, ['-f', '-'], nftLiftScript(), FIREWALL_TEXTS.nftMissing);
    },
  };
}

/**
 * Windows: the Windows Firewall rule group, through PowerShell (never run here). PowerShell's exit
 * code is no proof that the rules are in force: after applying, the group's rules are read back
 * (`windowsReadBackScript`) and compared with what was meant (`windowsReadBackProblem`); a difference
 * is a `FirewallError` with its Spanish reason, so the lab board says «no aplicada (…)», never
 * «aplicada». `command` replaces PowerShell (tests).
 */
export function windowsFirewall(command = windowsFirewallCommand()): Firewall {
  const { file, args } = command;
  return {
    apply: async (policy) => {
      await run(file, args, windowsApplyScript(policy), FIREWALL_TEXTS.powershellMissing);
      const readBack = await run(file, args, windowsReadBackScript(), FIREWALL_TEXTS.powershellMissing);
      const problem = windowsReadBackProblem(policy, readBack);
      if (problem !== null) throw new FirewallError(problem);
    },
    lift: async () => {
      await run(file, args, windowsLiftScript(), FIREWALL_TEXTS.powershellMissing);
    },
  };
}

/** The platform's firewall: Windows Firewall on win32, nftables elsewhere. */
export function defaultFirewall(platform: NodeJS.Platform = process.platform): Firewall {
  return platform === 'win32' ? windowsFirewall() : nftablesFirewall();
}
