import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli-args.js';

const KEY_ON_COMMAND_LINE =
  'La clave no se acepta en la línea de comandos (otros usuarios la verían): ' +
  'guárdela en un archivo y use --key-file <ruta>, o use la variable CONCURSO_AGENT_KEY.';

describe('parseCli', () => {
  it('reads flags', () => {
    expect(
      parseCli(
        [
          '--server',
          'http://srv:3000',
          '--key-file',
          '/etc/concurso/clave',
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
        key: { kind: 'file', path: '/etc/concurso/clave' },
        dataDir: '/d',
        pollMs: 250,
        graceMs: 0,
        dryRun: false,
        once: true,
      },
    });
  });

  it('falls back to AGENT_SERVER, CONCURSO_AGENT_KEY and AGENT_DATA_DIR; flags win', () => {
    const env = {
      AGENT_SERVER: 'http://env:3000',
      CONCURSO_AGENT_KEY: '  ag_env \n',
      AGENT_DATA_DIR: '/env',
    };
    expect(parseCli(['--dry-run'], env)).toEqual({
      kind: 'run',
      settings: {
        server: 'http://env:3000',
        key: { kind: 'env', key: 'ag_env' },
        dataDir: '/env',
        dryRun: true,
        once: false,
      },
    });
    expect(parseCli(['-s', 'http://flag', '--key-file', 'k.key'], env)).toMatchObject({
      settings: { server: 'http://flag', key: { kind: 'file', path: 'k.key' } },
    });
  });

  it('takes the key file from AGENT_KEY_FILE too; a key file wins over CONCURSO_AGENT_KEY', () => {
    expect(parseCli(['-s', 'x'], { AGENT_KEY_FILE: '/k', CONCURSO_AGENT_KEY: 'ag_env' })).toMatchObject({
      settings: { key: { kind: 'file', path: '/k' } },
    });
    expect(parseCli(['-s', 'x', '--key-file', '/flag'], { AGENT_KEY_FILE: '/env' })).toMatchObject({
      settings: { key: { kind: 'file', path: '/flag' } },
    });
  });

  it('refuses the key on the command line in every spelling, without repeating it', () => {
    const spellings = [
      ['--key', 'ag_secreta'],
      ['--key=ag_secreta'],
      ['-k', 'ag_secreta'],
      ['-kag_secreta'],
      ['-hk', 'ag_secreta'],
      // Whatever else is wrong, the key gets its own message (and is not echoed as a stray argument).
      ['--server', 'http://x', '--key', 'ag_secreta', '--bogus', 'extra'],
      ['--help', '--key', 'ag_secreta'],
    ];
    for (const argv of spellings) {
      const parsed = parseCli(argv, { CONCURSO_AGENT_KEY: 'ag_env' });
      expect(parsed, argv.join(' ')).toEqual({ kind: 'error', message: KEY_ON_COMMAND_LINE });
      expect(JSON.stringify(parsed)).not.toContain('ag_secreta');
    }
    // A bare --key (no value) is the same mistake.
    expect(parseCli(['--server', 'http://x', '--key'], {})).toEqual({
      kind: 'error',
      message: KEY_ON_COMMAND_LINE,
    });
  });

  it('refuses the old AGENT_KEY variable, saying what replaced it', () => {
    const parsed = parseCli(['-s', 'http://x'], { AGENT_KEY: 'ag_vieja' });
    expect(parsed).toEqual({
      kind: 'error',
      message:
        'La variable AGENT_KEY ya no se usa: ponga la clave en la variable CONCURSO_AGENT_KEY ' +
        'o en un archivo y use --key-file <ruta>.',
    });
    expect(JSON.stringify(parsed)).not.toContain('ag_vieja');
  });

  it('answers one Spanish line for each mistake', () => {
    expect(parseCli([], {})).toEqual({
      kind: 'error',
      message: 'Falta la dirección del servidor: use --server <url> o la variable AGENT_SERVER.',
    });
    expect(parseCli(['--server', 'http://x'], { CONCURSO_AGENT_KEY: '  ' })).toEqual({
      kind: 'error',
      message: 'Falta la clave del agente: use --key-file <ruta> o la variable CONCURSO_AGENT_KEY.',
    });
    expect(parseCli(['--bogus'], {})).toEqual({
      kind: 'error',
      message: 'Opción desconocida: --bogus. Use --help para ver las opciones.',
    });
    expect(parseCli(['--server'], {})).toEqual({
      kind: 'error',
      message: 'La opción --server necesita un valor. Use --help para ver las opciones.',
    });
    expect(parseCli(['-s', 'x', '--key-file'], {})).toEqual({
      kind: 'error',
      message: 'La opción --key-file necesita un valor. Use --help para ver las opciones.',
    });
    expect(parseCli(['-s', 'x', '--key-file', 'k', '--poll-ms', '1.5'], {})).toEqual({
      kind: 'error',
      message: 'El valor de --poll-ms debe ser un número entero positivo de milisegundos.',
    });
    expect(parseCli(['-s', 'x', '--key-file', 'k', 'extra'], {})).toMatchObject({ kind: 'error' });
  });

  it('knows --help and --version', () => {
    expect(parseCli(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCli(['-v'], {})).toEqual({ kind: 'version' });
  });
});
