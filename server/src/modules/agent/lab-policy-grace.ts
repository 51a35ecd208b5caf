import { LAB_POLICY_GRACE_MS } from '@concurso/shared';

/**
 * When each team's policy last changed, as the lab board saw it (`lab.service.ts`), so that a machine
 * still beating with the policy current just before a change counts as ready and «Al día» for
 * `LAB_POLICY_GRACE_MS` (the agents apply a change at once over the push channel but say so only with
 * their next heartbeat, up to one period later).
 *
 * In memory, one per server process (`agentRoutes`): a change is dated by the first lab board read
 * that sees the new version, and /laboratorio reads every 3 s while open. A version seen for the first
 * time (a server start, a new team) has no predecessor, so it gives no grace: a machine is never
 * counted ready for a policy this process never knew to be current.
 */
export class LabPolicyGrace {
  private readonly teams = new Map<number, { current: string; previous: string | null; since: number }>();

  constructor(private readonly graceMs = LAB_POLICY_GRACE_MS) {}

  /**
   * Notes that team `teamId`'s current policy is `current` at `nowMs` (ms since the epoch), and answers
   * the version a machine may still report within the grace: the one current just before a change
   * younger than the grace, else null.
   */
  previousInGrace(teamId: number, current: string, nowMs: number): string | null {
    const known = this.teams.get(teamId);
    if (!known) {
      this.teams.set(teamId, { current, previous: null, since: nowMs });
      return null;
    }
    if (known.current !== current) {
      this.teams.set(teamId, { current, previous: known.current, since: nowMs });
      return known.current;
    }
    return known.previous !== null && nowMs - known.since < this.graceMs ? known.previous : null;
  }
}
