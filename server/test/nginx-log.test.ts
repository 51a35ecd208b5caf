import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, repoRoot, startTestServer, type TestServer } from '@concurso/testkit';

/** Where Debian's nginx packages put the binary (not always on a user's PATH). */
const DEBIAN_NGINX = '/usr/sbin/nginx';

/**
 * The compose nginx (deploy/nginx.conf) logged the full URL, an exercise PDF's `?ticket=`
 * included, while the app's own log redacts it. This runs Debian's nginx (scripts/test-env.sh installs
 * it) with that very file in front of a real test server, changing only what a test machine must: the
 * upstream addresses (app1/app2 do not resolve here), the port, and the log's folder.
 */
describe('compose nginx access log', () => {
  let server: TestServer;
  let dir: string;
  let nginx: ChildProcess;
  let port: number;
  let nginxOutput = '';

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    dir = await mkdtemp(path.join(os.tmpdir(), 'concurso-nginx-'));
    port = await freePort();
    const upstream = new URL(server.url).host;
    const site = (await readFile(path.join(repoRoot, 'deploy', 'nginx.conf'), 'utf8'))
      .replace(/server app\d:3000;/g, `server ${upstream};`)
      .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
      .replaceAll('/var/log/nginx/', `${dir}/`);
    expect(site).toContain(`${dir}/access.log concurso;`); // the file still names its own log format
    await writeFile(path.join(dir, 'default.conf'), site);
    // What the nginx image's main file does around conf.d: a default access log at the http level,
    // which the site's own `access_log` must replace.
    await writeFile(
      path.join(dir, 'nginx.conf'),
      [
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log;`,
        'events {}',
        'http {',
        `  access_log ${dir}/http-level.log;`,
        `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;`,
        `  fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
        `  include ${dir}/default.conf;`,
        '}',
      ].join('\n'),
    );
    // Debian's nginx (scripts/test-env.sh installs it), wherever PATH puts sbin.
    nginx = spawn(
      existsSync(DEBIAN_NGINX) ? DEBIAN_NGINX : 'nginx',
      ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    nginx.stdout!.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
    nginx.stderr!.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
    const up = await eventually(
      () =>
        nginx.exitCode === null &&
        fetch(`http://127.0.0.1:${port}/api/health`).then(
          (res) => res.ok,
          () => false,
        ),
      10_000,
    );
    expect(up, `nginx did not answer: ${nginxOutput}`).toBe(true);
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('logs the path of a PDF request without its ticket', async () => {
    const ticket = 'eyJhbGciOiJIUzI1NiJ9.eyJzZWNyZXRvIjoidGlja2V0LWRlLXBydWViYSJ9.SECRETO-DE-PRUEBA';
    const res = await fetch(`http://127.0.0.1:${port}/api/exercisePdf/7/Enunciado.pdf?ticket=${ticket}`);
    expect(res.status).toBe(401); // the app's answer to a forged ticket, through nginx
    await res.arrayBuffer();

    const accessLog = () => readFile(path.join(dir, 'access.log'), 'utf8').catch(() => '');
    await eventually(async () => (await accessLog()).includes('/api/exercisePdf/7/'), 5_000);
    const log = await accessLog();
    const line = log.split('\n').find((l) => l.includes('/api/exercisePdf/7/'))!;
    console.log(`nginx access log line: ${line}`);
    expect(line).toContain('"GET /api/exercisePdf/7/Enunciado.pdf HTTP/1.1" 401');
    expect(log).not.toContain('ticket');
    expect(log).not.toContain('SECRETO');
    // Nothing went to the http-level log the site's own replaced.
    expect(await readFile(path.join(dir, 'http-level.log'), 'utf8').catch(() => '')).toBe('');
  });
});
