import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli-args.js';

describe('parseCli', () => {
  it('reads flags', () => {
    expect(
      parseCli(
        [
          '--server',
          'http://srv:3000',
          '--key',
          'abc',
          '--data-dir',
          '/d',
          '--poll-ms',
          '250',
          '--grace-ms',
          '0',
          '--once',
        ],
        {},
      ),
    ).toEqual({
      kind: 'run',
      settings: {
        server: 'http://srv:3000',
        key: 'abc',
        dataDir: '/d',
        pollMs: 250,
        graceMs: 0,
        dryRun: false,
        once: true,
      },
    });
  });

  it('falls back to AGENT_SERVER, AGENT_KEY and AGENT_DATA_DIR; flags win', () => {
    const env = { AGENT_SERVER: 'http://env:3000', AGENT_KEY: 'envkey', AGENT_DATA_DIR: '/env' };
    expect(parseCli(['--dry-run'], env)).toEqual({
      kind: 'run',
      settings: { server: 'http://env:3000', key: 'envkey', dataDir: '/env', dryRun: true, once: false },
    });
    expect(parseCli(['-s', 'http://flag', '-k', 'flagkey'], env)).toMatchObject({
      settings: { server: 'http://flag', key: 'flagkey' },
    });
  });

  it('answers one Spanish line for each mistake', () => {
    expect(parseCli([], {})).toEqual({
      kind: 'error',
      message: 'Falta la dirección del servidor: use --server <url> o la variable AGENT_SERVER.',
    });
    expect(parseCli(['--server', 'http://x'], {})).toEqual({
      kind: 'error',
      message: 'Falta la clave del agente: use --key <clave> o la variable AGENT_KEY.',
    });
    expect(parseCli(['--bogus'], {})).toEqual({
      kind: 'error',
      message: 'Opción desconocida: --bogus. Use --help para ver las opciones.',
    });
    expect(parseCli(['--server'], {})).toEqual({
      kind: 'error',
      message: 'La opción --server necesita un valor. Use --help para ver las opciones.',
    });
    expect(parseCli(['-s', 'x', '-k', 'y', '--poll-ms', '1.5'], {})).toEqual({
      kind: 'error',
      message: 'El valor de --poll-ms debe ser un número entero positivo de milisegundos.',
    });
    expect(parseCli(['-s', 'x', '-k', 'y', 'extra'], {})).toMatchObject({ kind: 'error' });
  });

  it('knows --help and --version', () => {
    expect(parseCli(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCli(['-v'], {})).toEqual({ kind: 'version' });
  });
});
