import type { EntityManager } from '@mikro-orm/mysql';
import { FINGERPRINT_QUORUM_DEFAULT, isClaimMatch } from '@concurso/shared';
import { recordClaims, type FingerprintClaim } from '../fingerprints/index.js';

/**
 * How long this process remembers a claim (team, process, fingerprint) it has recorded, so repeated
 * attempts skip it (ms). Bounded so a fingerprint an admin removed is claimed again within minutes
 * when the team reports it again, without a restart.
 */
export const FINGERPRINT_MEMORY_MS = 10 * 60 * 1000;

/** Most claims remembered at once; past it the memory starts over (every claim goes to the database again). */
const FINGERPRINT_MEMORY_MAX = 10_000;

/**
 * Records the fingerprints the agents report with their attempts as claims of their teams
 * (docs/design.md section 6a "Fingerprints"): the attempt writer hands over only the attempts it
 * counted (a replayed `event_id` teaches nothing) of teams of the active contest, and the repository
 * keeps only names of that contest's blocked set, a few new claims per team per minute and 32
 * fingerprints per process (`recordClaims`).
 *
 * Why here and not in the group's transaction: the attempts path is the measured one
 * (bench/BENCHMARKS.md, "Capacity of the attempts path"), and a fingerprint is the same for every
 * attempt at one program, so after the first one there is nothing to learn. The writer calls `learn`
 * after its commit; claims this process recorded are skipped from memory, so the usual group costs
 * no statement at all. A failure is only logged: the attempts are durable already, and a claim not
 * recorded is not remembered, so the next attempt tries again.
 */
export class FingerprintLearner {
  private readonly taught = new Map<string, number>();

  /**
   * @param fork a fresh entity manager per call (`orm.em.fork()`).
   * @param onError told of a failed statement (the server logs it).
   * @param now the clock (ms), for the memory's expiry.
   * @param onLearned told after claims not recorded before were stored (the agents' policies changed).
   * @param quorum teams whose claims make a fingerprint apply to every machine (`FINGERPRINT_QUORUM`):
   *   a team whose policy carries a fingerprint already is no claimant of it (`recordClaims`).
   */
  constructor(
    private readonly fork: () => EntityManager,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly now: () => number = Date.now,
    private readonly onLearned: () => void = () => undefined,
    private readonly quorum: number = FINGERPRINT_QUORUM_DEFAULT,
  ) {}

  /**
   * Records the claims of `claims` not recorded in the last `FINGERPRINT_MEMORY_MS`. Never throws. An
   * attempt ended by a fingerprint (`match: 'huella'`) is no claim (docs/design.md section 6a): its
   * victim must not become a claimant of a forged fingerprint.
   */
  async learn(claims: Iterable<FingerprintClaim>): Promise<void> {
    const at = this.now();
    const fresh = new Map<string, FingerprintClaim>();
    for (const claim of claims) {
      if (!isClaimMatch(claim.match)) continue; // 'huella' and 'similar' are no claims
      // Lower case: the process name compares without case (the column's collation).
      const key = `${claim.contestId}:${claim.teamId}:${claim.sha256}:${claim.process.toLowerCase()}`;
      const since = this.taught.get(key);
      if (since !== undefined && at - since < FINGERPRINT_MEMORY_MS) continue;
      fresh.set(key, claim);
    }
    if (fresh.size === 0) return;
    try {
      await recordClaims(this.fork(), [...fresh.values()], new Date(at), this.quorum);
    } catch (err) {
      this.onError(err);
      return;
    }
    if (this.taught.size + fresh.size > FINGERPRINT_MEMORY_MAX) this.taught.clear();
    // A claim past the team's rate is remembered too: its attempt is counted already and will not
    // come again; the agent's next kill of that program (a new event) claims it again after expiry.
    for (const key of fresh.keys()) this.taught.set(key, at);
    this.onLearned();
  }
}
