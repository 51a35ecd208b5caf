import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyFileError, readKeyFile } from '../src/key-file.js';
import { cleanUp, tempDir } from './helpers/processes.js';

afterEach(cleanUp);

const SECRET = 'ag_ClaveSecretaDePrueba_123';

/** Writes `content` to a fresh file and sets its mode exactly (chmod, not subject to the umask). */
async function keyFile(content: string, mode = 0o600): Promise<string> {
  const file = path.join(await tempDir('agent-key-'), 'concurso-agent.key');
  await writeFile(file, content);
  await chmod(file, mode);
  return file;
}

/** The error `readKeyFile` throws; checks that its message never holds the secret. */
async function readError(file: string, options?: Parameters<typeof readKeyFile>[1]): Promise<KeyFileError> {
  const error = await readKeyFile(file, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeyFileError);
  expect((error as Error).message).not.toContain(SECRET);
  expect((error as Error).message).not.toContain('\n');
  return error as KeyFileError;
}

describe('readKeyFile', () => {
  it('answers the trimmed key of an owner-only file (600 or 400)', async () => {
    expect(await readKeyFile(await keyFile(`  ${SECRET}\n`))).toBe(SECRET);
    expect(await readKeyFile(await keyFile(`${SECRET}\r\n`, 0o400))).toBe(SECRET);
  });

  it.runIf(process.platform !== 'win32')(
    'on POSIX refuses a file group or others may read or write, giving the chmod that fixes it',
    async () => {
      for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602, 0o660]) {
        const file = await keyFile(SECRET, mode);
        const error = await readError(file, { platform: 'linux' });
        expect(error.message).toBe(
          `Otros usuarios pueden leer o modificar el archivo de la clave ${file} ` +
            `(permisos ${mode.toString(8)}). Déjelo solo para su dueño con: chmod 600 ${file}`,
        );
      }
    },
  );

  it('reads what Windows editors and PowerShell write: a UTF-8 BOM, or UTF-16LE with its BOM', async () => {
    expect(await readKeyFile(await keyFile(`\ufeff${SECRET}\r\n`))).toBe(SECRET);
    const utf16 = path.join(await tempDir('agent-key-'), 'clave.txt');
    await writeFile(
      utf16,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${SECRET}\r\n`, 'utf16le')]),
    );
    await chmod(utf16, 0o600);
    expect(await readKeyFile(utf16)).toBe(SECRET);
  });

  it('on Windows does not check the mode (NTFS ACLs protect the file)', async () => {
    expect(await readKeyFile(await keyFile(SECRET, 0o644), { platform: 'win32' })).toBe(SECRET);
  });

  it('refuses an empty or blank file', async () => {
    for (const content of ['', '  \n\t\n']) {
      const file = await keyFile(content);
      expect((await readError(file)).message).toBe(`El archivo de la clave está vacío: ${file}.`);
    }
  });

  it('names a missing file, a folder, and a file far too large to be a key', async () => {
    const dir = await tempDir('agent-key-');
    const missing = path.join(dir, 'no-existe.key');
    expect((await readError(missing)).message).toBe(`No existe el archivo de la clave: ${missing}.`);

    const folder = path.join(dir, 'carpeta');
    await mkdir(folder, { mode: 0o700 });
    expect((await readError(folder)).message).toBe(`La ruta de la clave no es un archivo: ${folder}.`);

    const big = await keyFile(SECRET.repeat(200));
    expect((await readError(big)).message).toMatch(/es demasiado grande/);
  });
});
