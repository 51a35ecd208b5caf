import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import { IMPORT_MAX_BYTES, IMPORT_MESSAGES, type ImportEncoding } from '@concurso/shared';
import { HttpError, validationError } from '../../lib/http-error.js';

/** A registration file as received: its kind, by name and checked by content. */
export interface ReceivedSheet {
  kind: 'csv' | 'xlsx';
  /** The file's bytes (at most `IMPORT_MAX_BYTES`). */
  bytes: Buffer;
  /** How a CSV's bytes are read (see {@link csvEncoding}); null for an XLSX. */
  encoding: ImportEncoding | null;
  /** The file's name as uploaded (the import's record). */
  fileName: string;
}

/** A zip's local file header: every .xlsx (Office Open XML) starts with it. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * How a CSV's bytes are read: UTF-8 when they are valid UTF-8 (a BOM allowed; Node's
 * one-pass `isUtf8`, no decoding), else Windows-1252, what Excel in Spanish writes for «CSV
 * (delimitado por comas)». Every byte means a character in Windows-1252, so a mistaken guess shows
 * in the preview's names (the admin is told to look) and never passes silently as data.
 */
function csvEncoding(bytes: Buffer): ImportEncoding {
  return isUtf8(bytes) ? 'utf-8' : 'windows-1252';
}

/**
 * The kind of a registration file from its name and its first bytes: `.xlsx` must be a
 * zip (`PK\x03\x04`), `.csv` must be text: no NUL byte (UTF-8 or Windows-1252, {@link csvEncoding}).
 * Anything else is refused with 415 and a Spanish message.
 */
function sheetKind(fileName: string, bytes: Buffer): 'csv' | 'xlsx' {
  const name = fileName.toLowerCase();
  if (name.endsWith('.xlsx')) {
    if (bytes.length < ZIP_MAGIC.length || !bytes.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC))
      throw new HttpError(415, IMPORT_MESSAGES.badXlsx);
    return 'xlsx';
  }
  if (name.endsWith('.csv')) {
    // A NUL byte is not text in either encoding (a binary file or UTF-16, named .csv).
    if (bytes.includes(0)) throw new HttpError(415, IMPORT_MESSAGES.badCsv);
    return 'csv';
  }
  throw new HttpError(415, IMPORT_MESSAGES.notSpreadsheet);
}

/**
 * Reads an import's `multipart/form-data` body: the one file in `file` (kept in memory, at most
 * `IMPORT_MAX_BYTES`: 413 beyond) and the text fields. The file's kind is checked by
 * {@link sheetKind} (415); a body that is not multipart is 415; no file is 422 on `file`. A body still
 * arriving after `timeoutMs` (ms, `IMPORT_RECEIVE_TIMEOUT_MS`) has its connection closed and is 408
 * (a stalled upload must not hold the import slot).
 */
export async function receiveSheet(
  request: FastifyRequest,
  timeoutMs: number,
): Promise<{ sheet: ReceivedSheet; fields: Record<string, string> }> {
  const fields: Record<string, string> = {};
  let sheet: ReceivedSheet | null = null;
  let late = false;
  const deadline = setTimeout(() => {
    late = true;
    request.raw.destroy();
  }, timeoutMs);
  try {
    for await (const part of request.parts({
      limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 },
    })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || sheet) {
        part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      if (part.file.truncated) throw new HttpError(413, IMPORT_MESSAGES.tooLarge);
      const bytes = Buffer.concat(chunks);
      const kind = sheetKind(part.filename ?? '', bytes);
      sheet = {
        kind,
        bytes,
        encoding: kind === 'csv' ? csvEncoding(bytes) : null,
        fileName: part.filename ?? '',
      };
    }
  } catch (err) {
    if (late) throw new HttpError(408, IMPORT_MESSAGES.receiveTimeout);
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, IMPORT_MESSAGES.tooLarge);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw new HttpError(415, 'Envíe el formulario como multipart/form-data.');
    throw err;
  } finally {
    clearTimeout(deadline);
  }
  if (!sheet) throw validationError({ file: [IMPORT_MESSAGES.missingFile] });
  return { sheet, fields };
}
