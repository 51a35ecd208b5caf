import { afterAll, describe, expect, it } from 'vitest';
import { appendFile, copyFile, open, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LikenessReader } from '../src/likeness.js';
import { readPeBuildId } from '../src/pe-identity.js';
import { TARGETS, nodeBinary } from '../scripts/node-binaries.js';
import { cleanUp, tempDir } from './helpers/processes.js';
import { mingwInstalled, windowsProgram } from './helpers/windows-program.js';

afterAll(cleanUp);

/**
 * A PE file's build-id (pe-identity.ts `readPeBuildId`; agent/src/README.md «Similar files»): the
 * CodeView record's GUID and age of Windows' official node.exe, which its renamed, patched or padded
 * copies keep, read from the headers and the debug directory only.
 */
describe("a Windows program's build-id", () => {
  it("is node.exe's CodeView GUID and age, kept by a copy patched in its middle and padded at its end", async () => {
    const dir = await tempDir('agent-pe-build-id-');
    const original = path.join(dir, 'original.exe');
    await copyFile(nodeBinary(TARGETS[1]), original);
    const id = await readPeBuildId(original);
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    // The record really is there: «RSDS», then these 20 bytes.
    expect(
      (await readFile(original)).includes(Buffer.concat([Buffer.from('RSDS'), Buffer.from(id!, 'hex')])),
    ).toBe(true);
    const copy = path.join(dir, 'otro-nombre.exe');
    await copyFile(original, copy);
    const handle = await open(copy, 'r+');
    const { size } = await handle.stat();
    await handle.write(Buffer.from([0x2a, 0x2a]), 0, 2, Math.floor(size / 2));
    await handle.close();
    await appendFile(copy, Buffer.from('relleno al final'));
    expect(await readPeBuildId(copy)).toBe(id);
    // The likeness carries it (its `buildId`), and reads it alone before any digest.
    const reader = new LikenessReader({ procRoot: null });
    expect(
      await reader.buildIdOf({
        pid: 1,
        ppid: 0,
        name: 'otro-nombre.exe',
        path: copy,
        startTime: new Date(0),
      }),
    ).toBe(id);
    expect((await reader.ofFile(copy))?.buildId).toBe(id);
  });

  it('is null for a file that is no PE, a PE cut short and a program without a CodeView record', async () => {
    const dir = await tempDir('agent-pe-build-id-');
    const text = path.join(dir, 'texto.exe');
    await writeFile(text, 'MZ, pero nada más');
    expect(await readPeBuildId(text)).toBeNull();
    expect(await readPeBuildId(path.join(dir, 'no-existe.exe'))).toBeNull();
    const cut = path.join(dir, 'cortado.exe');
    await copyFile(nodeBinary(TARGETS[1]), cut);
    await truncate(cut, 4096);
    expect(await readPeBuildId(cut)).toBeNull();
    if (mingwInstalled()) {
      // MinGW's `-s` leaves no debug directory: such a program is known by its digest alone.
      expect(await readPeBuildId(await windowsProgram('sin-pdb.exe', {}))).toBeNull();
    }
  });
});
