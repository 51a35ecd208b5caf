/**
 * A child process of the false-positive test (similarity-false-positives.test.ts): reads file paths
 * (JSON array) on stdin, digests them as the agent does (`digestFile`, `readBuildId`) and writes the
 * answers (JSON array, in order) on stdout, so the test uses both cores of the machine. Run with
 * `node --import tsx` by `digestInChildren`.
 */
import { text } from 'node:stream/consumers';
import { readBuildId } from '../../src/build-id.js';
import { digestFile } from '../../src/similarity.js';

const files = JSON.parse(await text(process.stdin)) as string[];
const out: { tlsh: string | null; buildId: string | null }[] = [];
for (const file of files) {
  out.push({ tlsh: await digestFile(file).catch(() => null), buildId: await readBuildId(file) });
}
process.stdout.write(JSON.stringify(out));
