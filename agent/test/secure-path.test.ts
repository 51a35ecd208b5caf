import { chmod, chown, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError, startAgent } from '../src/agent.js';
import { KeyFileError, readKeyFile } from '../src/key-file.js';
import { insecureFolder } from '../src/secure-path.js';
import { startFakeServer, type FakeServer } from './helpers/fake-server.js';
import { cleanUp, tempDir } from './helpers/processes.js';

/**
 * The data folder and the key file must belong to root (or to the account running the agent) and be
 * writable by nobody else (secure-path.ts): whoever could write the folder could plant a lock so the
 * agent refuses to start, or a saved configuration that blocks nothing. The tests run as root, so
 * they hand folders and files to `nobody` (uid 65534) with chown.
 */
const NOBODY = 65_534;
const asRoot = process.getuid?.() === 0;
const servers: FakeServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await cleanUp();
});

describe.runIf(process.platform !== 'win32' && asRoot)('insecureFolder', () => {
  it('accepts a folder of root that only root may write, under /tmp (sticky)', async () => {
    const dir = await tempDir('agent-secure-');
    expect(await insecureFolder(dir)).toBeNull();
    await chmod(dir, 0o755);
    expect(await insecureFolder(dir)).toBeNull();
  });

  it('refuses a folder group or others may write', async () => {
    const dir = await tempDir('agent-secure-');
    for (const mode of [0o775, 0o757, 0o777]) {
      await chmod(dir, mode);
      expect(await insecureFolder(dir)).toEqual({ path: dir, uid: 0, mode: mode.toString(8) });
    }
    // The sticky bit protects what is inside a folder, not the folder itself.
    await chmod(dir, 0o1777);
    expect(await insecureFolder(dir)).toEqual({ path: dir, uid: 0, mode: '1777' });
  });

  it('refuses a folder of another account, unless that account runs the agent', async () => {
    const dir = await tempDir('agent-secure-');
    await chown(dir, NOBODY, NOBODY);
    expect(await insecureFolder(dir)).toEqual({ path: dir, uid: NOBODY, mode: '700' });
    expect(await insecureFolder(dir, { uid: NOBODY })).toBeNull();
    expect(await insecureFolder(dir, { uid: 1000 })).toEqual({ path: dir, uid: NOBODY, mode: '700' });
    // Windows: Node's fs cannot tell (the install command sets the ACL).
    expect(await insecureFolder(dir, { platform: 'win32' })).toBeNull();
  });

  it('refuses a safe folder inside one another account could rename it out of', async () => {
    const parent = await tempDir('agent-secure-');
    const dir = path.join(parent, 'datos');
    await mkdir(dir, { mode: 0o700 });
    await chown(parent, NOBODY, NOBODY);
    expect(await insecureFolder(dir)).toEqual({ path: parent, uid: NOBODY, mode: '700' });
    await chown(parent, 0, 0);
    await chmod(parent, 0o777);
    expect(await insecureFolder(dir)).toEqual({ path: parent, uid: 0, mode: '777' });
    await chmod(parent, 0o1777);
    expect(await insecureFolder(dir)).toBeNull();
  });

  it('follows a link to the folder it names', async () => {
    const target = await tempDir('agent-secure-');
    await chown(target, NOBODY, NOBODY);
    const link = path.join(await tempDir('agent-secure-'), 'datos');
    await symlink(target, link);
    expect(await insecureFolder(link)).toEqual({ path: target, uid: NOBODY, mode: '700' });
  });
});

describe.runIf(process.platform !== 'win32' && asRoot)(
  'the agent refuses what others could have written',
  () => {
    it('a data folder others may write: one Spanish line, before reading anything in it (a planted lock)', async () => {
      const server = await startFakeServer();
      servers.push(server);
      const dataDir = await tempDir('agent-secure-');
      // What a contestant would plant: a lock naming a live process (this one), so the agent refuses.
      const slug = `127.0.0.1_${new URL(server.url).port}`;
      await writeFile(
        path.join(dataDir, `agent-${slug}-team-7.lock`),
        JSON.stringify({ pid: process.pid, since: Date.now() }),
      );
      await chmod(dataDir, 0o777);
      const start = () =>
        startAgent({ server: server.url, key: server.key, dataDir, loop: false }).then(
          () => null,
          (e: unknown) => e,
        );
      const error = (await start()) as AgentError;
      expect(error).toBeInstanceOf(AgentError);
      expect(error.code).toBe('data-dir');
      expect(error.message).toBe(
        `La carpeta de datos ${dataDir} no es segura: debe pertenecer a root y no poder escribirla nadie más ` +
          '(dueño uid 0, permisos 777).',
      );
      expect(server.configCalls).toBe(0);

      await chmod(dataDir, 0o700);
      await chown(dataDir, NOBODY, NOBODY);
      expect(((await start()) as AgentError).message).toBe(
        `La carpeta de datos ${dataDir} no es segura: debe pertenecer a root y no poder escribirla nadie más ` +
          `(dueño uid ${NOBODY}, permisos 700).`,
      );
      expect(server.configCalls).toBe(0);
    });

    it('creates a missing data folder for its owner only', async () => {
      const server = await startFakeServer();
      servers.push(server);
      const dataDir = path.join(await tempDir('agent-secure-'), 'nueva');
      const agent = await startAgent({ server: server.url, key: server.key, dataDir, loop: false });
      await agent.stop();
      expect(await insecureFolder(dataDir)).toBeNull();
    });

    it('a key file of another account, even with mode 600', async () => {
      const file = path.join(await tempDir('agent-key-'), 'clave');
      await writeFile(file, 'ag_clave_de_prueba\n');
      await chmod(file, 0o600);
      await chown(file, NOBODY, NOBODY);
      const error = await readKeyFile(file).then(
        () => null,
        (e: unknown) => e as KeyFileError,
      );
      expect(error).toBeInstanceOf(KeyFileError);
      expect(error!.message).toBe(
        `El archivo de la clave ${file} no es seguro: debe pertenecer a root y no poder leerlo ni escribirlo ` +
          `nadie más (dueño uid ${NOBODY}).`,
      );
      // The developer's case: the account running the agent owns it.
      expect(await readKeyFile(file, { uid: NOBODY })).toBe('ag_clave_de_prueba');
      expect(await readKeyFile(file, { platform: 'win32' })).toBe('ag_clave_de_prueba');
    });
  },
);
