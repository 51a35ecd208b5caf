/**
 * The real agent against programs run through the dynamic loader and through python3 (agent/src/
 * README.md, "Loaders and interpreters"). Every blocked name and fingerprint is this test's own: a
 * copy of /bin/sleep with bytes of its own and a python3 script written here, never a real program.
 * Each vector's time from its start to its end is printed (a figure, not asserted: bench/ measures
 * speed).
 */
import type { SpawnOptions } from 'node:child_process';
import { chown, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgentHandle, AgentOptions } from '../src/agent.js';
import { useFakeAgentBed } from './helpers/fake-agent-bed.js';
import type { FakeServer } from './helpers/fake-server.js';
import {
  blockedBinary,
  renamedCopy,
  running,
  sha256Of,
  spawnProcess,
  tempDir,
  ownChildren,
  uniqueName,
  within,
  type Spawned,
} from './helpers/processes.js';

const LOADER = '/lib64/ld-linux-x86-64.so.2';
const PYTHON = '/usr/bin/python3';

const bed = useFakeAgentBed({ lister: ownChildren });

/** A fake server blocking `blocked` (changed by `edit` first) and an agent of it. */
async function agent(blocked: string[], options: Partial<AgentOptions> = {}, edit?: (s: FakeServer) => void) {
  const server = await bed.fakeServer(blocked);
  edit?.(server);
  return { server, ...(await bed.agent(server, options)) };
}

/** A python3 script that sleeps, with bytes of its own (its fingerprint names only this test's file). */
async function sleepingScript(name: string): Promise<string> {
  const file = path.join(await tempDir('agent-script-'), name);
  await writeFile(file, `import time\n# ${randomBytes(16).toString('hex')}\ntime.sleep(100)\n`);
  return file;
}

/**
 * Spawns and answers the process with the time (ms) from its start to its end by the agent. It
 * starts at a random point of the agent's poll (after its first scan, then 0 to 1 s later), as a
 * contestant would, so the figure printed is the typical one, not the best or the worst.
 */
async function timedEnd(
  handle: AgentHandle,
  what: string,
  file: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<{ spawned: Spawned; ms: number }> {
  const deadline = Date.now() + 10_000;
  while (handle.stats.sweeps === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 1_000));
  const started = Date.now();
  const spawned = await spawnProcess(file, args, options);
  const end = await within(5_000, spawned.exited, what);
  const ms = Date.now() - started;
  // Ended by a signal: not a program that exited on its own.
  expect(end.signal).not.toBeNull();
  console.log(`${what}: terminado ${ms} ms después de arrancar`);
  return { spawned, ms };
}

/** Whether `spawned` still runs after three more of the agent's scans. */
async function survives(handle: AgentHandle, spawned: Spawned): Promise<boolean> {
  const sweeps = handle.stats.sweeps;
  const deadline = Date.now() + 10_000;
  while (handle.stats.sweeps < sweeps + 3 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  return running(spawned);
}

describe("a loader or an interpreter is judged by what it runs (real agent, the server's 1 s poll)", () => {
  it('ends the unmodified blocked file run through the dynamic loader, «… (vía ld-linux…)», not an honest one', async () => {
    const name = uniqueName('prog-bloq');
    const file = await blockedBinary(name);
    // Another program altogether (a copy of /bin/sleep would be a similar file: similarity.ts).
    const honest = await blockedBinary(uniqueName('honesto'), '/usr/bin/tail');
    const { server, handle, lines } = await agent([name]);

    const { spawned } = await timedEnd(handle, 'cargador con el programa bloqueado', LOADER, [file, '100']);
    const innocent = await spawnProcess(LOADER, [honest, '-f', '/dev/null']);
    expect(await survives(handle, innocent), lines.join('\n')).toBe(true);
    await handle.flush();

    expect([...server.stored.values()]).toEqual([
      expect.objectContaining({
        process: name,
        killed: true,
        match: 'nombre',
        via: 'ld-linux-x86-64.so.2',
        sha256: await sha256Of(file),
      }),
    ]);
    expect(lines).toContain(
      `Proceso bloqueado terminado: ${name} (vía ld-linux-x86-64.so.2) (pid ${spawned.pid})`,
    );
  });

  it('ends a python3 script named like the blocked program, «… (vía python3)», not an honest one', async () => {
    const name = uniqueName('prog-bloq');
    const script = await sleepingScript(`${name}.py`);
    const honest = await sleepingScript(`${uniqueName('honesto')}.py`);
    const { server, handle, lines } = await agent([name]);

    const { spawned } = await timedEnd(handle, 'python3 con un script del nombre bloqueado', PYTHON, [
      script,
    ]);
    // Relative to its own working folder, after an option.
    const relative = await timedEnd(
      handle,
      'python3 -u con el script por ruta relativa',
      PYTHON,
      ['-u', `./${path.basename(script)}`],
      { cwd: path.dirname(script) },
    );
    const innocent = await spawnProcess(PYTHON, [honest]);
    expect(await survives(handle, innocent)).toBe(true);
    await handle.flush();

    const attempt = expect.objectContaining({
      process: name,
      killed: true,
      match: 'nombre',
      via: 'python3',
      sha256: await sha256Of(script),
    });
    expect([...server.stored.values()]).toEqual([attempt, attempt]);
    expect(lines).toContain(`Proceso bloqueado terminado: ${name} (vía python3) (pid ${spawned.pid})`);
    expect(lines).toContain(
      `Proceso bloqueado terminado: ${name} (vía python3) (pid ${relative.spawned.pid})`,
    );
  });

  it("judges the program's bytes: a renamed copy through the loader and a renamed script are ended by their fingerprint", async () => {
    const name = uniqueName('prog-bloq');
    const file = await blockedBinary(name);
    const script = await sleepingScript(`${name}.py`);
    const fingerprints = [
      { process: name, sha256: await sha256Of(file) },
      { process: name, sha256: await sha256Of(script) },
    ];
    const { server, handle, lines } = await agent([name], {}, (s) => {
      s.config = { ...s.config, fingerprints };
    });
    const disguise = uniqueName('notas');
    const copy = await renamedCopy(file, disguise);
    const scriptCopy = await renamedCopy(script, `${disguise}.py`);

    const loaded = await timedEnd(handle, 'cargador con una copia renombrada (huella)', LOADER, [
      copy,
      '100',
    ]);
    const interpreted = await timedEnd(
      handle,
      'python3 con una copia renombrada del script (huella)',
      PYTHON,
      [scriptCopy],
    );
    // The interpreter's own file is not what is judged: an honest script still runs.
    const innocent = await spawnProcess(PYTHON, [await sleepingScript(`${uniqueName('honesto')}.py`)]);
    expect(await survives(handle, innocent)).toBe(true);
    await handle.flush();

    expect([...server.stored.values()]).toEqual([
      expect.objectContaining({
        process: name,
        executable: disguise,
        match: 'huella',
        via: 'ld-linux-x86-64.so.2',
      }),
      expect.objectContaining({
        process: name,
        executable: `${disguise}.py`,
        match: 'huella',
        via: 'python3',
      }),
    ]);
    expect(lines).toContain(
      `Proceso bloqueado terminado: ${name}, renombrado como ${disguise}.py (vía python3) (pid ${interpreted.spawned.pid})`,
    );
    expect(lines).toContain(
      `Proceso bloqueado terminado: ${name}, renombrado como ${disguise} (vía ld-linux-x86-64.so.2) (pid ${loaded.spawned.pid})`,
    );
  });

  it('a blocked program renamed like an interpreter is still judged by its own bytes', async () => {
    const name = uniqueName('prog-bloq');
    const file = await blockedBinary(name);
    const sha256 = await sha256Of(file);
    const { server, handle } = await agent([name], {}, (s) => {
      s.config = { ...s.config, fingerprints: [{ process: name, sha256 }] };
    });
    // A contestant's copy: not root's (nobody's here, the test runs as root), so not the system's python3.
    const disguise = await renamedCopy(file, 'python3');
    await chown(disguise, 65534, 65534);
    const { spawned } = await timedEnd(handle, 'copia renombrada «python3» (huella)', disguise, ['100']);
    await handle.flush();
    // Judged by its own file: no «vía», its own fingerprint.
    expect([...server.stored.values()]).toEqual([
      expect.objectContaining({ process: name, executable: 'python3', sha256, match: 'huella' }),
    ]);
    expect([...server.stored.values()][0]).not.toHaveProperty('via');
    expect(spawned.pid).toBeGreaterThan(0);
  });

  it('a renamed copy run through the loader and deleted at once is still ended by its bytes (the mapping)', async () => {
    const name = uniqueName('prog-bloq');
    const file = await blockedBinary(name);
    const sha256 = await sha256Of(file);
    const { server, handle } = await agent([name], {}, (s) => {
      s.config = { ...s.config, fingerprints: [{ process: name, sha256 }] };
    });
    const copy = await renamedCopy(file, uniqueName('notas'));
    // Right after a scan, so the next one (a poll later) sees the copy only once it is deleted.
    const sweeps = handle.stats.sweeps;
    while (handle.stats.sweeps === sweeps) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    const spawned = await spawnProcess(LOADER, [copy, '100']);
    // Time for the loader to map it, then the file is gone: only the mapping holds its bytes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await rm(copy);
    const end = await within(5_000, spawned.exited, 'cargador con una copia borrada (huella)');
    expect(end.signal).not.toBeNull();
    console.log(
      `cargador con una copia borrada al arrancar (huella, arrancada justo después de una revisión): terminado ${Date.now() - started} ms después de arrancar`,
    );
    await handle.flush();
    expect([...server.stored.values()]).toEqual([
      expect.objectContaining({ process: name, sha256, match: 'huella', via: 'ld-linux-x86-64.so.2' }),
    ]);
  });

  it('the observed list names the program, its file and what ran it, never the interpreter', async () => {
    const { server, handle } = await agent([], { observedReportMs: 200 }, (s) => {
      s.config = { ...s.config, observe: true };
    });
    const deadline = Date.now() + 10_000;
    while (handle.stats.sweeps === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const script = await sleepingScript(`${uniqueName('honesto')}.py`);
    const program = await blockedBinary(uniqueName('honesto'));
    await spawnProcess(PYTHON, [script]);
    await spawnProcess(LOADER, [program, '100']);
    const both = () => server.observedPosts.flat().length >= 2;
    while (!both() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const posted = server.observedPosts.flat();
    expect(posted).toHaveLength(2);
    expect(posted).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: path.basename(script),
          via: 'python3',
          sha256: await sha256Of(script),
          // Where the program lies («nuevo»), not where its interpreter does.
          path: script,
        }),
        expect.objectContaining({
          name: path.basename(program),
          via: 'ld-linux-x86-64.so.2',
          sha256: await sha256Of(program),
          path: program,
        }),
      ]),
    );
  });
});
