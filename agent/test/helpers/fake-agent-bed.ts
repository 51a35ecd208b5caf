import { afterEach } from 'vitest';
import { startAgent, type AgentHandle, type AgentOptions } from '../../src/agent.js';
import { startFakeServer, type FakeServer } from './fake-server.js';
import { cleanUp, ownChildren, tempDir } from './processes.js';

/** What {@link useFakeAgentBed} gives a test file. */
export interface FakeAgentBed {
  /** A fake server (fake-server.ts) blocking `blocked`, closed after the test. */
  fakeServer(blocked?: string[]): Promise<FakeServer>;
  /**
   * An agent of `server` that only sees this test's children (other tests run in parallel), in a
   * fresh data folder, its log lines kept in `lines`; stopped after the test. `options` win over the
   * bed's defaults.
   */
  agent(
    server: FakeServer,
    options?: Partial<AgentOptions>,
  ): Promise<{ handle: AgentHandle; lines: string[] }>;
}

/**
 * The agent tests' bed against the fake server: agents and servers made by a test are stopped after
 * it, and the programs it started ended (`cleanUp`). `defaults`: agent options of every agent of the
 * file (e.g. a faster poll).
 */
export function useFakeAgentBed(defaults: Partial<AgentOptions> = {}): FakeAgentBed {
  const servers: FakeServer[] = [];
  const agents: AgentHandle[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await cleanUp();
  });
  return {
    async fakeServer(blocked = []) {
      const server = await startFakeServer(blocked);
      servers.push(server);
      return server;
    },
    async agent(server, options = {}) {
      const lines: string[] = [];
      const handle = await startAgent({
        server: server.url,
        key: server.key,
        dataDir: options.dataDir ?? (await tempDir()),
        lister: ownChildren,
        log: (line) => lines.push(line),
        ...defaults,
        ...options,
      });
      agents.push(handle);
      return { handle, lines };
    },
  };
}
