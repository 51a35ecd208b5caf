import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

/** What an upload left on disk, plus the form's other fields. */
export interface ReceivedPdf {
  /** Generated file name under the exercises folder (never the client's). */
  storedName: string;
  /** The client's file name, cleaned, for display only. */
  originalName: string;
  /** Bytes written. */
  size: number;
}

const PDF_MAGIC = Buffer.from('%PDF-');

/** The client's file name reduced to a safe display name: no folders, no control characters, ≤ 200 chars. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.slice(-200) || 'ejercicio.pdf';
}

/** The folder exercises are stored in. */
export const exercisesDir = (dataDir: string) => path.join(dataDir, 'exercises');

/**
 * Reads a multipart form with one PDF in field `path` and plain fields, streaming the file to
 * `DATA_DIR/exercises/<random>.pdf` while checking it: its first bytes must be `%PDF-` and its name end
 * in `.pdf` (415 otherwise), and it must fit in `maxBytes` (413). Nothing is left on disk when it fails.
 * The file is optional (`required: false`) for updates that keep the current one.
 */
export async function receivePdfForm(
  request: FastifyRequest,
  dataDir: string,
  maxBytes: number,
  required: boolean,
): Promise<{ file: ReceivedPdf | null; fields: Record<string, string> }> {
  const fields: Record<string, string> = {};
  let file: ReceivedPdf | null = null;
  const dir = exercisesDir(dataDir);
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10 } })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'path' || file) {
        part.file.resume();
        continue;
      }
      if (!/\.pdf$/i.test(part.filename ?? '')) {
        part.file.resume();
        throw new HttpError(415, 'El archivo debe ser un PDF (.pdf).');
      }
      await mkdir(dir, { recursive: true });
      const storedName = `${randomBytes(16).toString('hex')}.pdf`;
      const target = path.join(dir, storedName);
      file = { storedName, originalName: cleanFileName(part.filename), size: 0 };
      const received = file;
      let head = Buffer.alloc(0);
      const check = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (head.length < PDF_MAGIC.length) {
            head = Buffer.concat([head, chunk]).subarray(0, PDF_MAGIC.length);
            if (head.length === PDF_MAGIC.length && !head.equals(PDF_MAGIC)) {
              done(new HttpError(415, 'El archivo no es un PDF válido.'));
              return;
            }
          }
          received.size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(part.file, check, createWriteStream(target, { flags: 'wx' }));
      if (part.file.truncated) {
        throw new HttpError(
          413,
          `El archivo supera el límite de ${Math.round(maxBytes / (1024 * 1024))} MB.`,
        );
      }
      if (!head.equals(PDF_MAGIC)) throw new HttpError(415, 'El archivo no es un PDF válido.');
    }
  } catch (err) {
    if (file) await rm(path.join(dir, file.storedName), { force: true });
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(413, `El archivo supera el límite de ${Math.round(maxBytes / (1024 * 1024))} MB.`);
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw new HttpError(415, 'Envíe el formulario como multipart/form-data.');
    throw err;
  }
  if (required && !file) throw new HttpError(422, MESSAGES.validation, { path: [MESSAGES.required] });
  return { file, fields };
}
