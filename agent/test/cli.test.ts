import { spawn } from 'node:child_process';
import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from '@concurso/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCliBundle } from './helpers/agent-cli.js';
import { startFakeServer, unreachableUrl, type FakeServer } from './helpers/fake-server.js';
import { blockedBinary, cleanUp, spawnProcess, tempDir, uniqueName } from './helpers/processes.js';

/** agent/bin: the sources through tsx (`npm run agent`); the other runs start the packaged bundle. */
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
 * sees each stdout line and may signal the process; `extraEnv` adds variables. `entry` is the script
 * Node runs: the packaged bundle (`agentCliBundle`) unless given.
 */
async function runCli(
  args: string[],
  onLine?: (line: string, pid: number) => void,
  extraEnv: Record<string, string> = {},
  entry?: string,
): Promise<Run> {
  const home = await tempDir();
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('AGENT_') && k !== 'CONCURSO_AGENT_KEY'),
  );
  const child = spawn(process.execPath, [entry ?? (await agentCliBundle()), ...args], {
    cwd: home,
    env: { ...env, HOME: home, ...extraEnv },
  });
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

/** Writes `key` to an owner-only file, as the README tells the lab to; answers its path. */
async function keyFile(key: string, mode = 0o600): Promise<string> {
  const file = path.join(await tempDir('agent-key-'), 'concurso-agent.key');
  await writeFile(file, `${key}\n`);
  await chmod(file, mode);
  return file;
}

describe('agent CLI', () => {
  it('without a server: one Spanish line on stderr, exit code 1 (from the sources, as `npm run agent`)', async () => {
    const run = await runCli([], undefined, {}, BIN);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      'Falta la dirección del servidor: use --server <url> o la variable AGENT_SERVER.',
    ]);
  });

  it('with a bad key: the Spanish key message, exit code 1, no stack trace', async () => {
    const server = await startFakeServer();
    servers.push(server);
    const run = await runCli(['--server', server.url, '--key-file', await keyFile('ag_equivocada')]);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([MESSAGES.agentKeyInvalid]);
    expect(run.stdout + run.stderr).not.toContain('ag_equivocada');
  });

  it('refuses --key <clave> with one line pointing to --key-file, never echoing the key', async () => {
    const server = await startFakeServer();
    servers.push(server);
    const run = await runCli(['--server', server.url, '--key', server.key]);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      'La clave no se acepta en la línea de comandos (otros usuarios la verían): ' +
        'guárdela en un archivo y use --key-file <ruta>, o use la variable CONCURSO_AGENT_KEY.',
    ]);
    expect(run.stdout + run.stderr).not.toContain(server.key);
    expect(server.configCalls).toBe(0);
  });

  it('refuses a key file other users can read, giving the chmod fix', async () => {
    const server = await startFakeServer();
    servers.push(server);
    const file = await keyFile(server.key, 0o644);
    const run = await runCli(['--server', server.url, '--key-file', file]);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      `Otros usuarios pueden leer o modificar el archivo de la clave ${file} (permisos 644). ` +
        `Déjelo solo para su dueño con: chmod 600 ${file}`,
    ]);
    expect(run.stdout + run.stderr).not.toContain(server.key);
    expect(server.configCalls).toBe(0);
  });

  it('with --once and an unreachable server: one line naming it, exit code 1', async () => {
    const url = await unreachableUrl();
    const run = await runCli(['--server', url, '--once'], undefined, { CONCURSO_AGENT_KEY: 'ag_k' });
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      `No se pudo conectar al servidor ${url}. Verifique la dirección y que el servidor esté en marcha.`,
    ]);
  });

  it('started before its server: keeps running, then stops with the key message when the server refuses it', async () => {
    const server = await startFakeServer();
    servers.push(server);
    await server.goDown();
    let waiting = '';
    const run = await runCli(
      ['--server', server.url, '--key-file', await keyFile('ag_equivocada')],
      (line) => {
        // Still running after its first try failed: the server comes up, and refuses the key.
        if (waiting === '' && line.includes('Sin conexión con el servidor')) {
          waiting = line;
          void server.comeBack();
        }
      },
    );
    expect(waiting).toMatch(
      new RegExp(
        `^\\[[^\\]]+\\] Sin conexión con el servidor ${server.url}: no hay una configuración guardada`,
      ),
    );
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([MESSAGES.agentKeyInvalid]);
    expect(run.stdout + run.stderr).not.toContain('ag_equivocada');
  });

  it('--once ends a blocked process, reports it and exits 0', async () => {
    const name = uniqueName('discord');
    const server = await startFakeServer([`${name}.exe`]);
    servers.push(server);
    const child = await spawnProcess(await blockedBinary(name), ['100']);

    const run = await runCli([
      '--server',
      server.url,
      '--key-file',
      await keyFile(server.key),
      '--data-dir',
      await tempDir(),
      '--once',
    ]);

    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain(server.key);
    expect(run.code).toBe(0);
    expect((await child.exited).signal).toBe('SIGTERM');
    expect(run.stdout).toContain(`Proceso bloqueado terminado: ${name} (pid ${child.pid})`);
    expect(run.stdout).toContain('Intentos enviados al servidor: 1 (total del equipo: 1)');
    expect(lines(run.stdout).every((l) => /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] /.test(l))).toBe(true);
    expect([...server.stored.values()].map((a) => a.process)).toEqual([`${name}.exe`]);
  });

  it('--once with the server refusing attempts: the outbox keeps them, and no file or line holds the key', async () => {
    const name = uniqueName('discord');
    const server = await startFakeServer([name]);
    servers.push(server);
    server.attemptsDown = 503;
    const child = await spawnProcess(await blockedBinary(name), ['100']);
    const dataDir = await tempDir();

    const run = await runCli(['--server', server.url, '--data-dir', dataDir, '--once'], undefined, {
      CONCURSO_AGENT_KEY: server.key,
    });

    expect(run.code).toBe(0);
    await child.exited;
    expect(run.stdout).toContain('Sin enviar: 1 intento queda guardado; se reintentará.');
    expect(run.stdout + run.stderr).not.toContain(server.key);
    const files = await readdir(dataDir);
    expect(files.some((f) => f.startsWith('outbox-'))).toBe(true);
    for (const file of files) {
      expect(await readFile(path.join(dataDir, file), 'utf8')).not.toContain(server.key);
    }
  });

  it('runs until Ctrl+C (SIGINT), sending heartbeats, then stops cleanly', async () => {
    const server = await startFakeServer([]);
    servers.push(server);
    const run = await runCli(
      ['-s', server.url, '--key-file', await keyFile(server.key), '--data-dir', await tempDir()],
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
