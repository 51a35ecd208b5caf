import { normaliseExecutableName, type AgentFingerprint } from '@concurso/shared';

/**
 * A matcher of the inventory's rows against a contest's blocked set: `(name, sha256)` →
 * the blocked name it already is, by its name as the agent matches it (`normaliseExecutableName`) or by a fingerprint learned for
 * a blocked process (`fingerprints`, only the blocked processes'), else null. The name wins.
 */
export function blockedAs(
  blockedNames: readonly string[],
  fingerprints: readonly AgentFingerprint[],
): (name: string, sha256: string | null) => string | null {
  const byName = new Map<string, string>();
  for (const blocked of blockedNames) {
    const key = normaliseExecutableName(blocked);
    if (key !== '' && !byName.has(key)) byName.set(key, blocked);
  }
  const bySha = new Map(fingerprints.map((f) => [f.sha256, f.process]));
  return (name, sha256) =>
    byName.get(normaliseExecutableName(name)) ?? (sha256 === null ? null : (bySha.get(sha256) ?? null));
}

/**
 * A matcher of the inventory's fingerprints against those only claimed for a blocked process
 * (`claimed`: they end copies on their claimants' machines only, docs/design.md section 6a): `sha256` →
 * the blocked process it is a copy of, else null (also for an unread file).
 */
export function copyOf(claimed: readonly AgentFingerprint[]): (sha256: string | null) => string | null {
  const bySha = new Map(claimed.map((f) => [f.sha256, f.process]));
  return (sha256) => (sha256 === null ? null : (bySha.get(sha256) ?? null));
}

/**
 * A program's name as the inventory groups it: accents taken off, lower case, at most 255
 * characters ('Café.EXE' → 'cafe.exe'), stored in `observed_processes.name_key` and compared byte for
 * byte, so the grouping, its count of machines and its list of teams all use one key.
 */
export function foldName(name: string): string {
  return [...name.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC').toLowerCase()]
    .slice(0, 255)
    .join('');
}
