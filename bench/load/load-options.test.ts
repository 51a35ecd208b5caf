import { describe, expect, it } from 'vitest';
import { parseLoadArgs, UsageError } from './load-options.js';

/** The usage error `argv` is refused with (its message and exit code). */
function refusal(argv: string[], env: NodeJS.ProcessEnv = {}): { message: string; exitCode: number } {
  try {
    parseLoadArgs(argv, env);
  } catch (err) {
    if (err instanceof UsageError) return { message: err.message, exitCode: err.exitCode };
    throw err;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('the load tester command line', () => {
  it('takes the defaults, keeps one lean screen and bounds the testers by the screens', () => {
    const o = parseLoadArgs(['--out', 'r.json', '--screens', '3'], {});
    expect(o).toMatchObject({
      screens: 3,
      fullScreens: 2,
      leanScreens: 1,
      testerProcesses: 1,
      fullProcesses: 1,
      agents: 10,
      durationS: 30,
      baselineS: 20,
      attemptRate: 2000,
      pin: true,
      baselines: true,
      agentSockets: true,
      urls: undefined,
      admin: { adminUser: 'admin', adminPassword: 'clave-banco-de-carga-2026' },
      mysqlUrl: 'mysql://root@127.0.0.1:3306/',
    });
    expect(o.out).toMatch(/r\.json$/);
  });

  it('reads the switches, the server environment and the baseline length', () => {
    const o = parseLoadArgs(
      [
        '--out=r.json',
        '--duration=10',
        '--pin=off',
        '--no-baselines',
        '--no-agent-sockets',
        '--client-deflate',
        '--server-env',
        'NODE_OPTIONS=--max-old-space-size=256',
        '--server-env',
        'A=b=c',
      ],
      { BENCH_MYSQL_URL: 'mysql://root@127.0.0.1:3307/' },
    );
    expect(o).toMatchObject({
      durationS: 10,
      baselineS: 10,
      pin: false,
      baselines: false,
      agentSockets: false,
      clientDeflate: true,
      serverEnv: { NODE_OPTIONS: '--max-old-space-size=256', A: 'b=c' },
      mysqlUrl: 'mysql://root@127.0.0.1:3307/',
    });
  });

  it('loads only loopback servers, with the credentials given for them', () => {
    const o = parseLoadArgs(['--out', 'r.json', '--url', 'http://localhost:3000/,http://127.0.0.1:3001'], {
      BENCH_ADMIN_USER: 'jefe',
      BENCH_ADMIN_PASSWORD: 'secreta',
      DATABASE_URL: 'mysql://root@127.0.0.1:3306/concurso',
    });
    expect(o.urls).toEqual(['http://127.0.0.1:3000', 'http://127.0.0.1:3001']);
    expect(o.admin).toEqual({ adminUser: 'jefe', adminPassword: 'secreta' });
    expect(o.databaseUrl).toBe('mysql://root@127.0.0.1:3306/concurso');

    expect(refusal(['--out', 'r.json', '--url', 'http://10.0.0.5:3000']).message).toMatch(/only loopback/);
    expect(refusal(['--out', 'r.json', '--url', 'http://127.0.0.1:3000']).message).toMatch(
      /--admin-user and --admin-password/,
    );
  });

  it('refuses a wrong command line with exit code 2, and answers --help with 0', () => {
    expect(refusal(['--help'])).toEqual({ message: '', exitCode: 0 });
    expect(refusal([]).exitCode).toBe(2);
    expect(refusal(['--out', 'r.json', '--screens', '0']).message).toBe(
      '--screens must be a number in 1..10000',
    );
    expect(refusal(['--out', 'r.json', '--batch-min', '4', '--batch-max', '3']).message).toBe(
      '--batch-max must be a number in 4..500',
    );
    expect(refusal(['--out', 'r.json', '--pin', 'sometimes']).message).toBe('--pin must be auto or off');
    expect(refusal(['--out', 'r.json', '--server-env', 'NOVALUE']).message).toMatch(/expected KEY=VALUE/);
    expect(refusal(['--out', 'r.json', '--unknown']).exitCode).toBe(2);
  });
});
