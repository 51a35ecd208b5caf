/**
 * The screen captures' worker thread (capture-encoder.ts starts it): reads each dump it is sent into
 * pixels, scales and encodes it as a JPEG (capture-codec.ts, within the limits the job names: this
 * thread loads nothing of `@concurso/shared`), and posts the JPEG back, one job at a
 * time, so the 150-600 ms this takes never hold the agent's own thread (its scans, its kills, its
 * sends). Started from the sources under tsx, and from the single-file builds as the source string
 * they embed (agent/scripts/build.ts, agent/scripts/pack.ts).
 */
import { parentPort, threadId } from 'node:worker_threads';
import { decodeDump, encodeWithin } from './capture-codec.js';
import type { EncodeJob, EncodeReply } from './capture-encoder.js';

const port = parentPort;
if (port) {
  port.on('message', (job: EncodeJob) => {
    const started = Date.now();
    let reply: EncodeReply;
    try {
      const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
      const encoded = encodeWithin(decodeDump(bytes, job.format), job.maxBytes, job.maxWidth);
      // A copy of its own (jpeg-js's output may share a larger buffer), handed over without a second copy.
      const jpeg = new Uint8Array(encoded.jpeg);
      reply = {
        id: job.id,
        jpeg,
        width: encoded.width,
        height: encoded.height,
        quality: encoded.quality,
        ms: Date.now() - started,
        threadId,
      };
      port.postMessage(reply, [jpeg.buffer]);
    } catch (error) {
      reply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    }
  });
}
