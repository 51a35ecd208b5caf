import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from '@concurso/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeServer, unreachableUrl, type FakeServer } from './helpers/fake-server.js';
import { blockedBinary, cleanUp, spawnProcess, tempDir, uniqueName } from './helpers/processes.js';

const BIN = fileURLToPath(new URL('../bin/concurso-agent.js', import.meta.url));
const servers: FakeServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await cleanUp();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI as the lab would, from an unrelated working folder and with its own HOME; `onLine`
 * sees each stdout line and may signal the process.
 */
async function runCli(args: string[], onLine?: (line: string, pid: number) => void): Promise<Run> {
  const home = await tempDir();
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AGENT_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: { ...env, HOME: home } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) onLine?.(line, child.pid!);
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('agent CLI', () => {
  it('without a server: one Spanish line on stderr, exit code 1', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      'Falta la dirección del servidor: use --server <url> o la variable AGENT_SERVER.',
    ]);
  });

  it('with a bad key: the Spanish key message, exit code 1, no stack trace', async () => {
    const server = await startFakeServer();
    servers.push(server);
    const run = await runCli(['--server', server.url, '--key', 'equivocada']);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([MESSAGES.agentKeyInvalid]);
  });

  it('with an unreachable server: one line naming it, exit code 1', async () => {
    const url = await unreachableUrl();
    const run = await runCli(['--server', url, '--key', 'k']);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      `No se pudo conectar al servidor ${url}. Verifique la dirección y que el servidor esté en marcha.`,
    ]);
  });

  it('--once ends a blocked process, reports it and exits 0', async () => {
    const name = uniqueName('discord');
    const server = await startFakeServer([`${name}.exe`]);
    servers.push(server);
    const child = await spawnProcess(await blockedBinary(name), ['100']);

    const run = await runCli([
      '--server',
      server.url,
      '--key',
      server.key,
      '--data-dir',
      await tempDir(),
      '--once',
    ]);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((await child.exited).signal).toBe('SIGTERM');
    expect(run.stdout).toContain(`Proceso bloqueado terminado: ${name} (pid ${child.pid})`);
    expect(run.stdout).toContain('Intentos enviados al servidor: 1 (total del equipo: 1)');
    expect(lines(run.stdout).every((l) => /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] /.test(l))).toBe(true);
    expect([...server.stored.values()].map((a) => a.process)).toEqual([`${name}.exe`]);
  });

  it('runs until Ctrl+C (SIGINT), sending heartbeats, then stops cleanly', async () => {
    const server = await startFakeServer([]);
    servers.push(server);
    const run = await runCli(
      ['-s', server.url, '-k', server.key, '--data-dir', await tempDir()],
      (line, pid) => {
        if (!line.includes('Agente iniciado')) return;
        // Ctrl+C once the server has seen the agent alive.
        const waitForHeartbeat = setInterval(() => {
          if (server.heartbeats.length === 0) return;
          clearInterval(waitForHeartbeat);
          process.kill(pid, 'SIGINT');
        }, 20);
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Agente iniciado para el equipo "Los Compiladores" (concurso 2026B)');
    expect(run.stdout).toContain('Agente detenido.');
    expect(server.heartbeats[0]).toMatchObject({ body: { version: '0.1.0' } });
  });
});
