import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MESSAGES } from '@concurso/shared';
import { describe, expect, it } from 'vitest';
import { AgentError, startAgent } from '../src/agent.js';
import { startFailure } from '../src/connecting-agent.js';
import { AgentApiError } from '../src/errors.js';
import { useFakeAgentBed } from './helpers/fake-agent-bed.js';
import type { FakeServer } from './helpers/fake-server.js';
import { blockedBinary, running, spawnProcess, tempDir, uniqueName, within } from './helpers/processes.js';

/**
 * A start without the server (connecting-agent.ts, saved-config.ts): the agent never exits because its
 * server does not answer; it enforces the last saved configuration meanwhile, says so once, and goes
 * on as a normal start when the server answers. A permanent refusal still stops it. The fake server
 * plays the contract; agent/test/server-later.test.ts does the same against the real server.
 */
const { fakeServer, agent } = useFakeAgentBed({ pollMs: 100, retryProbeMs: 50 });

/** Resolves once `check` holds (polled every 20 ms), or fails naming `what` after `ms`. */
async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: no ocurrió en ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const waitingLine = (server: FakeServer, saved: boolean) =>
  `Sin conexión con el servidor ${server.url}: ` +
  (saved
    ? 'se sigue aplicando la última configuración guardada; se reintenta.'
    : 'no hay una configuración guardada, así que no se bloquea nada todavía; se reintenta.') +
  ` (No se pudo conectar al servidor ${server.url}. Verifique la dirección y que el servidor esté en marcha)`;

describe('startAgent without its server', () => {
  it('keeps running without a saved config, says so once, and starts normally when the server answers', async () => {
    const server = await fakeServer(['discord.exe']);
    await server.goDown();
    const { handle, lines } = await agent(server);

    expect(lines).toEqual([waitingLine(server, false)]);
    expect(handle.stats).toMatchObject({ online: false, pushConnected: false, sweeps: 0 });
    expect(() => handle.config).toThrow(AgentError);
    // Several tries fail (the probe every 50 ms, the backoff's reads): still the one line.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lines).toEqual([waitingLine(server, false)]);

    await server.comeBack();
    await until(() => handle.stats.online && server.heartbeats.length > 0, 'el agente se conecta');
    expect(lines.slice(1, 3)).toEqual([
      'Conexión con el servidor restablecida.',
      'Agente iniciado para el equipo "Los Compiladores" (concurso 2026B): 1 programa bloqueado, revisión cada 100 ms.',
    ]);
    expect(handle.config.blocked).toEqual(['discord.exe']);
    await until(() => handle.stats.sweeps > 0, 'el agente revisa procesos');
  });

  it('with a saved config and the server down, still ends a blocked program, and delivers it once the server answers', async () => {
    const name = uniqueName('anydesk');
    const server = await fakeServer([name]);
    const dataDir = await tempDir();
    const first = await agent(server, { dataDir, loop: false });
    await first.handle.stop();

    await server.goDown();
    const { handle, lines } = await agent(server, { dataDir });
    expect(lines.slice(0, 2)).toEqual([
      `Agente iniciado sin conexión con el servidor: se aplica la configuración guardada del equipo "Los Compiladores" (1 programa bloqueado).`,
      waitingLine(server, true),
    ]);
    expect(handle.config.blocked).toEqual([name]);

    const child = await spawnProcess(await blockedBinary(name), ['100']);
    await within(5_000, child.exited, 'el agente termina el programa bloqueado sin servidor');
    await until(() => handle.stats.killed === 1, 'la terminación se cuenta');
    expect(handle.stats.online).toBe(false);
    expect(server.stored.size).toBe(0);

    await server.comeBack();
    await until(() => server.stored.size === 1, 'el intento guardado llega al servidor');
    expect([...server.stored.values()][0]!.process).toBe(name);
    // The outbox may deliver before the reconnection is announced: both must happen, in either order.
    await until(() => lines.includes('Conexión con el servidor restablecida.'), 'la reconexión se anuncia');
    expect(handle.stats.online).toBe(true);
  });

  it('takes the server’s config once it answers, in place of the saved one', async () => {
    const old = uniqueName('old');
    const fresh = uniqueName('fresh');
    const server = await fakeServer([old]);
    const dataDir = await tempDir();
    await (await agent(server, { dataDir, loop: false })).handle.stop();

    await server.goDown();
    server.config.blocked = [fresh];
    const { handle, lines } = await agent(server, { dataDir });
    expect(handle.config.blocked).toEqual([old]);
    await server.comeBack();
    await until(() => handle.stats.online && handle.config.blocked[0] === fresh, 'toma la lista nueva');
    expect(lines).toContain('Lista de programas bloqueados actualizada: 1 programa.');

    // The config now saved is the new one.
    const file = path.join(dataDir, `config-127.0.0.1_${new URL(server.url).port}.json`);
    let saved: string[] = [];
    const deadline = Date.now() + 5_000;
    while (saved[0] !== fresh && Date.now() < deadline) {
      saved = (JSON.parse(await readFile(file, 'utf8')) as { config: { blocked: string[] } }).config.blocked;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(saved).toEqual([fresh]);
  });

  it('ignores a corrupt saved config with one line, and a config saved for another key', async () => {
    const name = uniqueName('anydesk');
    const server = await fakeServer([name]);
    const dataDir = await tempDir();
    await (await agent(server, { dataDir, loop: false })).handle.stop();
    const file = path.join(dataDir, `config-127.0.0.1_${new URL(server.url).port}.json`);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { config: { blocked: unknown } };
    await server.goDown();

    // Another key (a machine moved to another team): not used, nothing said of it.
    const other = await agent(server, { dataDir, key: 'ag_otra_clave' });
    expect(other.lines).toEqual([waitingLine(server, false)]);
    await other.handle.stop();

    await writeFile(file, JSON.stringify({ ...saved, config: { ...saved.config, blocked: 'todo' } }));
    const { handle, lines } = await agent(server, { dataDir });
    expect(lines).toEqual([
      `La configuración guardada en ${file} no es válida; no se usa (se reemplaza con la próxima del servidor).`,
      waitingLine(server, false),
    ]);
    const child = await spawnProcess(await blockedBinary(name), ['100']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(running(child)).toBe(true);
    expect(handle.stats.sweeps).toBe(0);
  });

  it('stops with the Spanish key message when the server, once it answers, refuses the key (401)', async () => {
    const server = await fakeServer();
    const dataDir = await tempDir();
    await (await agent(server, { dataDir, loop: false })).handle.stop();
    await server.goDown();
    server.revoked = true;
    let fatal: AgentError | null = null;
    const { handle } = await agent(server, { dataDir, onFatal: (error) => (fatal = error) });
    await server.comeBack();
    await until(() => fatal !== null, 'el agente se detiene');
    expect(fatal!.code).toBe('unauthorized');
    expect(fatal!.message).toBe(MESSAGES.agentKeyInvalid);
    // Stopped: its lock is released, so another agent of the team may start on the folder.
    server.revoked = false;
    await handle.stop();
    const next = await agent(server, { dataDir, loop: false });
    expect(next.handle.stats.online).toBe(true);
  });

  it('stops on a 404 (no contest) once the server answers, as a normal start does', async () => {
    const server = await fakeServer();
    server.noContest = true;
    // A normal start with the server up and no contest: refused at once.
    const refused = await startAgent({ server: server.url, key: server.key, dataDir: await tempDir() }).then(
      () => null,
      (e: unknown) => e as AgentError,
    );
    expect(refused?.code).toBe('no-contest');

    await server.goDown();
    let fatal: AgentError | null = null;
    await agent(server, { onFatal: (error) => (fatal = error) });
    await server.comeBack();
    await until(() => fatal !== null, 'el agente se detiene');
    expect(fatal!.code).toBe('no-contest');
    expect(fatal!.message).toBe(refused!.message);
  });
});

describe('startFailure', () => {
  it('retries what passes by itself (no connection, timeout, 5xx, 429) and stops on the rest', () => {
    for (const error of [
      new AgentApiError('unreachable', 'x'),
      new AgentApiError('timeout', 'x'),
      new AgentApiError('http', 'x', 500),
      new AgentApiError('http', 'x', 503),
      new AgentApiError('http', 'x', 429),
    ])
      expect(startFailure(error).fatal).toBeNull();
    const fatal = (error: unknown) => startFailure(error).fatal?.code;
    expect(fatal(new AgentApiError('unauthorized', MESSAGES.agentKeyInvalid, 401))).toBe('unauthorized');
    expect(fatal(new AgentApiError('not-found', MESSAGES.noCurrentContest, 404))).toBe('no-contest');
    expect(fatal(new AgentApiError('http', 'x', 422))).toBe('server');
    expect(fatal(new AgentApiError('invalid-response', 'x', 200))).toBe('server');
    expect(fatal(new Error('bug'))).toBe('server');
  });
});
