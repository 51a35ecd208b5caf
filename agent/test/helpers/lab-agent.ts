/**
 * The real agent on a lab machine (testkit's `createLabNetwork`: network namespaces the test creates,
 * never this machine's own), for the network policy's tests (agent/test/network-*.test.ts and
 * e2e/network-policy.test.ts): the CLI as a lab runs it (root, its key in a file only its owner reads,
 * agent/README.md), against a real server listening on the lab's link.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  agentTeam,
  callAs,
  createContest,
  createLabNetwork,
  signInStaff,
  startTestServer,
  type LabNetwork,
  type TestServer,
} from '@concurso/testkit';
import { agentCliBundle } from './agent-cli.js';
import { cleanUp, tempDir } from './processes.js';

/** The agent's command line (agent/bin), run by Node. */
export const AGENT_BIN = fileURLToPath(new URL('../../bin/concurso-agent.js', import.meta.url));

/**
 * `key` in `concurso-agent.key` of a fresh temp folder named `<prefix>…` (removed by `cleanUp`), with
 * a newline after it and mode 0600, as agent/README.md asks; answers the file's path.
 */
export async function labKeyFile(key: string, prefix: string): Promise<string> {
  const file = path.join(await tempDir(prefix), 'concurso-agent.key');
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return file;
}

/** The lines `child` writes to its stdout, each added to the answered list as soon as it ends. */
export function outputLines(child: ChildProcess): string[] {
  const output: string[] = [];
  let rest = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    output.push(...parts);
  });
  return output;
}

/** An agent started in the lab: its process, and its stdout lines with its stderr's chunks among them. */
export interface LabAgent {
  child: ChildProcess;
  output: string[];
}

/**
 * Starts the agent CLI in `net`'s lab, as root: `--server <server> --key-file <keyFile> --data-dir
 * <dataDir>`, from `entry` (default agent/bin, the sources through tsx; `useLabBed` gives the packaged
 * bundle, helpers/agent-cli.ts).
 */
export function startLabAgent(
  net: LabNetwork,
  options: { server: string; keyFile: string; dataDir: string; entry?: string },
): LabAgent {
  const child = net.spawnIn(
    net.lab,
    process.execPath,
    [
      options.entry ?? AGENT_BIN,
      '--server',
      options.server,
      '--key-file',
      options.keyFile,
      '--data-dir',
      options.dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = outputLines(child);
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
  return { child, output };
}

/** Resolves with `child`'s exit code once it has ended (at once if it already has; null for a signal). */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** What {@link useLabBed} gives a test file; its fields are set once its `beforeAll` ran. */
export interface LabBed {
  net: LabNetwork;
  /** The test server, on the lab's link (`net.serverAddress`); agents offline after 3 s of silence. */
  server: TestServer;
  /** Tokens of `admin_<name>` and `juez_<name>`. */
  admin: string;
  judge: string;
  /** The active contest, with the team whose key `keyFile` holds. */
  contestId: number;
  keyFile: string;
  /** The agents' data folder (the same for each agent started: a restart finds what the last saved). */
  dataDir: string;
  /** Processes of the test's own, killed after the file (the agents are killed too). */
  children: ChildProcess[];
  /** Starts the agent in the lab with the bed's key and data folder; `server` default the bed's URL. */
  startAgent(options?: { server?: string }): LabAgent;
  /** The agents started that are still running. */
  runningAgents(): ChildProcess[];
  /** Saves the contest's allowed sites as an admin («Guardar»), expecting the server to take them. */
  setSites(sites: string[]): Promise<void>;
  /** How many machines the lab board shows, asked with `token` (default the admin's). */
  machineCount(token?: string): Promise<number>;
  /**
   * Waits until the lab's ruleset `holds`, looking every 20 ms from `since` (performance.now(), default
   * now) for at most `ms` (default 15 s); answers how long it took from `since` (ms).
   * @throws naming `what`, with the last agent's output, when it does not hold in time.
   */
  untilRuleset(
    holds: (ruleset: string) => boolean,
    what: string,
    options?: { since?: number; ms?: number },
  ): Promise<number>;
}

/**
 * The network lab of a test file, made by the Vitest hooks it registers (beforeAll, 60 s): the lab
 * network, a test server on its link, `admin_<name>` and `juez_<name>` signed in, an active contest and
 * its team `team` with an agent key in a file, and a data folder (temp folders `agent-<name>-key-` and
 * `agent-<name>-data-`); afterAll kills the agents and `children`, closes the server, then the lab.
 * Its agents start from the packaged CLI (`agentCliBundle`).
 */
export function useLabBed(name: string, team: string): LabBed {
  const agents: ChildProcess[] = [];
  let lastOutput: string[] = [];
  /** The packaged agent the lab's agents start from (`agentCliBundle`), made in `beforeAll`. */
  let cli: string;
  const bed = {
    children: [] as ChildProcess[],
    startAgent(options: { server?: string } = {}) {
      const agent = startLabAgent(bed.net, {
        server: options.server ?? bed.server.url,
        keyFile: bed.keyFile,
        dataDir: bed.dataDir,
        entry: cli,
      });
      agents.push(agent.child);
      lastOutput = agent.output;
      return agent;
    },
    runningAgents: () => agents.filter((child) => child.exitCode === null && child.signalCode === null),
    async setSites(sites: string[]) {
      const res = await callAs(bed.server.app, bed.admin, '/api/updateAllowedSites', {
        contests_id: bed.contestId,
        allowed_sites: sites,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
    async machineCount(token?: string) {
      return (await callAs(bed.server.app, token ?? bed.admin, '/api/labMachines')).body.data.machines
        .length as number;
    },
    async untilRuleset(
      holds: (ruleset: string) => boolean,
      what: string,
      { since = performance.now(), ms = 15_000 }: { since?: number; ms?: number } = {},
    ) {
      while (!holds(await bed.net.labRuleset())) {
        if (performance.now() - since > ms)
          throw new Error(`${what}: not in the lab's ruleset within ${ms} ms:\n${lastOutput.join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return performance.now() - since;
    },
  } as LabBed;

  beforeAll(async () => {
    cli = await agentCliBundle();
    bed.net = await createLabNetwork();
    // A short offline window: the agents beat every second.
    bed.server = await startTestServer({ agentOfflineAfterMs: 3_000 }, { host: bed.net.serverAddress });
    ({ admin: bed.admin, judge: bed.judge } = await signInStaff(bed.server, name));
    bed.contestId = (await createContest(bed.server.orm)).id;
    const { key } = await agentTeam(bed.server, bed.admin, { contestId: bed.contestId, name: team });
    bed.keyFile = await labKeyFile(key, `agent-${name}-key-`);
    bed.dataDir = await tempDir(`agent-${name}-data-`);
  }, 60_000);

  afterAll(async () => {
    [...agents, ...bed.children].forEach((child) => child.kill('SIGKILL'));
    await cleanUp();
    bed.server?.app.server.closeAllConnections();
    await bed.server?.close();
    await bed.net?.close();
  }, 60_000);

  return bed;
}
