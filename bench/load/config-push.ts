/**
 * `config_push_ms`: how long a change of the active contest's blocked set takes to reach
 * every connected agent on the push channel, measured by the load tester with one agent socket per
 * simulated agent, as the real agent opens it (socket.io-client on `/agent` with its key, agent.ts's
 * policy-socket.ts). Each round adds one process to the blocked set through the admin's API and times,
 * per socket, from the request's start to the `agent.policy` that names it. The baseline does exactly
 * the same work without the push: every agent reads its config over HTTP at once (what it would take
 * if all of them polled at the same instant; polling every 10 s adds a mean of 5 s to that).
 */
import { performance } from 'node:perf_hooks';
import type { AgentConfig } from '@concurso/shared';
import { AgentSockets } from './agent-sockets.js';
import type { HttpClient } from './http.js';
import { Histogram, type LatencySummary } from './metrics.js';

/** What `measureConfigPush` needs of the run. */
export interface ConfigPushOptions {
  http: HttpClient;
  /** The server the admin's calls go to. */
  adminUrl: string;
  adminToken: string;
  contestId: number;
  /** One per simulated agent: its key and the server it talks to. */
  agents: ReadonlyArray<{ key: string; url: string }>;
  /** The agents' sockets already open, in the order of `agents` (else this measure opens its own). */
  sockets?: AgentSockets;
  /** Changes of the blocked set to time. */
  rounds: number;
  /** Longest wait for every agent to get one change (ms). */
  timeoutMs?: number;
  log: (line: string) => void;
}

/** The figures of `config_push_ms` in the result JSON. */
export interface ConfigPushResult {
  agents: number;
  rounds: number;
  /** Per (agent, round): from the request's start to the policy's arrival, ms. */
  push_ms: LatencySummary;
  /** Per round: until the last agent had it, ms. */
  round_ms: number[];
  /** (agent, round) pairs that never got the change within the timeout. */
  missed: number;
  /** The same change read by every agent over HTTP at once (the baseline), per agent, ms. */
  baseline_http_ms: LatencySummary;
  /** The load tester's event-loop utilisation while it timed the pushes (it must not be the bottleneck). */
  tester_elu: number;
}

/**
 * Times `rounds` changes of the blocked set on one agent socket per agent: the run's (`sockets`), or
 * its own, opened first and closed after.
 */
export async function measureConfigPush(options: ConfigPushOptions): Promise<ConfigPushResult> {
  const { http, adminUrl, adminToken, contestId, agents, rounds, log } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const api = <T>(path: string, body?: unknown) =>
    http
      .ok<{ data: T }>(`${adminUrl}/api${path}`, {
        token: adminToken,
        ...(body === undefined ? {} : { body }),
      })
      .then((r) => r.data);

  // Per socket, the arrival time of the first policy naming each process.
  const arrivals = agents.map(() => new Map<string, number>());
  // The run's sockets (held through the traffic), or this measure's own.
  const own = options.sockets ? null : await AgentSockets.open(agents);
  const sockets = options.sockets ?? own!;
  const stopListening = sockets.onPolicy((index, policy, at) => {
    for (const name of policy.blocked) if (!arrivals[index]!.has(name)) arrivals[index]!.set(name, at);
  });
  try {
    log(`config push: ${sockets.connected} agent sockets connected`);

    const blocked = (await api<Array<{ processes_id: number }>>(`/processContest/${contestId}`)).map(
      (row) => row.processes_id,
    );
    const push = new Histogram();
    const roundMs: number[] = [];
    let missed = 0;
    const elu = performance.eventLoopUtilization();
    const tag = Math.random().toString(36).slice(2, 8);
    let last = '';
    for (let round = 0; round < rounds; round++) {
      const name = `banco-${tag}-${round}.exe`;
      const process = await api<{ id: number }>('/createProcess', { name });
      blocked.push(process.id);
      const sentAt = performance.now();
      await api('/createBlockedProcessForContest', { contests_id: contestId, processes_id: blocked });
      const deadline = sentAt + timeoutMs;
      while (performance.now() < deadline && arrivals.some((got) => !got.has(name))) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      let slowest = 0;
      for (const got of arrivals) {
        const at = got.get(name);
        if (at === undefined) missed += 1;
        else {
          push.add(at - sentAt);
          slowest = Math.max(slowest, at - sentAt);
        }
      }
      roundMs.push(Math.round(slowest));
      last = name;
      log(`config push: round ${round + 1}: every agent in ${Math.round(slowest)} ms`);
    }
    const testerElu = performance.eventLoopUtilization(elu).utilization;

    // Baseline: the same result by pulling, every agent's config read at once.
    const baseline = new Histogram();
    const pulledAt = performance.now();
    await Promise.all(
      agents.map(async (agent) => {
        const config = await http.ok<{ data: AgentConfig }>(`${agent.url}/api/agent/config`, {
          token: agent.key,
        });
        if (config.data.blocked.includes(last)) baseline.add(performance.now() - pulledAt);
      }),
    );
    return {
      agents: agents.length,
      rounds,
      push_ms: push.summary(),
      round_ms: roundMs,
      missed,
      baseline_http_ms: baseline.summary(),
      tester_elu: Math.round(testerElu * 1000) / 1000,
    };
  } finally {
    stopListening();
    own?.close();
  }
}
