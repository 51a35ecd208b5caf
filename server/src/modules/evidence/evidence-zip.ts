import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/mysql';
import sharp from 'sharp';
import yazl from 'yazl';
import { captureFile, capturesDir } from '../captures/index.js';
import { chainText, readChain } from './evidence-chain.js';
import { buildEvidencePdf, type PdfCapture } from './evidence-pdf.js';
import { readEvidence, staffName, type EvidenceCapture } from './evidence.repository.js';

/** Width of the copy of a capture embedded in the PDF (px): the full image is in the ZIP. */
const THUMBNAIL_WIDTH = 480;

/** The ZIP's fixed entries. */
const EVIDENCE_FILES = {
  pdf: 'evidencia.pdf',
  chain: 'cadena.txt',
  manifest: 'manifiesto.sha256',
  capturesFolder: 'capturas',
} as const;

const sha256Hex = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** A piece of a file name: ASCII letters, digits and dashes only (no accents, no path separators). */
const fileNamePart = (text: string, max = 60): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');

/**
 * A capture's path in the ZIP: `capturas/<intento-<id>|evento-<id>|solicitud-<id>>-<momento>-<sha256's
 * first 12 digits>.jpg`.
 */
function captureEntryName(capture: EvidenceCapture, attemptId: number | undefined): string {
  const owner = capture.eventId
    ? attemptId !== undefined
      ? `intento-${attemptId}`
      : `evento-${fileNamePart(capture.eventId, 40)}`
    : `solicitud-${fileNamePart(capture.requestId, 8)}`;
  return `${EVIDENCE_FILES.capturesFolder}/${owner}-${capture.moment}-${capture.sha256.slice(0, 12)}.jpg`;
}

/** One `sha256sum` line: `<hex>  <path>` (two spaces: text mode, as `sha256sum` writes it). */
const manifestLine = (sha256: string, name: string): string => `${sha256}  ${name}\n`;

/** A built export: its download name and the ZIP as a stream (read it once). */
export interface EvidenceExport {
  /** `evidencia-<equipo>-<AAAA-MM-DD>.zip` (the export's UTC date). */
  fileName: string;
  contestId: number;
  /** The ZIP, written as it is read: the captures come from disk one at a time, uncompressed (JPEG). */
  stream: Readable;
}

/**
 * Team `teamId`'s evidence as a ZIP (README.md): reads its rows and the chain, reads each capture once
 * (its SHA-256 as it is now on disk and a small copy for the PDF), builds the PDF, and answers a
 * stream that writes `evidencia.pdf`, `cadena.txt`, the captures (streamed again from disk) and
 * `manifiesto.sha256` last. Memory: the PDF (rows and reduced images) and one capture at a time; the
 * full images never are all in memory. Null for an unknown team.
 */
export async function buildEvidenceExport(
  em: EntityManager,
  options: { dataDir: string; teamId: number; userId: number; now?: Date },
): Promise<EvidenceExport | null> {
  const data = await readEvidence(em, options.teamId);
  if (!data) return null;
  const exportedAt = options.now ?? new Date();
  const [chain, exportedBy] = await Promise.all([
    readChain(em, data.contest.id),
    staffName(em, options.userId),
  ]);
  const attemptIds = new Map(data.attempts.map((attempt) => [attempt.eventId, attempt.id]));
  const dir = capturesDir(options.dataDir);
  const files: Array<{ name: string; path: string; sha256: string }> = [];
  const names = new Set<string>();
  const pdfCaptures: PdfCapture[] = [];
  for (const capture of data.captures) {
    const item: PdfCapture = { capture, file: null, thumbnail: null, mismatch: null };
    pdfCaptures.push(item);
    if (!capture.imageKept) continue;
    const path = captureFile(dir, capture.sha256);
    const bytes = await readFile(path).catch(() => null);
    if (!bytes) continue;
    const name = captureEntryName(capture, attemptIds.get(capture.eventId));
    const sha256 = sha256Hex(bytes);
    item.file = name;
    item.mismatch = sha256 === capture.sha256 ? null : sha256;
    item.thumbnail = await thumbnail(bytes);
    if (!names.has(name)) {
      names.add(name);
      files.push({ name, path, sha256 });
    }
  }
  const pdf = buildEvidencePdf({
    data,
    captures: pdfCaptures,
    head: chain.head,
    check: chain.check,
    exportedAt,
    exportedBy,
  });
  const cadena = Buffer.from(chainText(data.contest, chain, exportedAt), 'utf8');

  const zip = new yazl.ZipFile();
  const stream = zip.outputStream as Readable;
  const mtime = exportedAt;
  zip.addBuffer(pdf, EVIDENCE_FILES.pdf, { mtime });
  zip.addBuffer(cadena, EVIDENCE_FILES.chain, { mtime });
  let manifest =
    manifestLine(sha256Hex(pdf), EVIDENCE_FILES.pdf) + manifestLine(sha256Hex(cadena), EVIDENCE_FILES.chain);
  for (const file of files) {
    // JPEG does not compress further: stored as it is, read from disk only when yazl gets to it.
    zip.addReadStreamLazy(file.name, { compress: false, mtime }, (give) => {
      const image = createReadStream(file.path);
      // yazl does not listen for a source stream's errors: a file gone meanwhile ends the download.
      image.once('error', (error) => stream.destroy(error));
      give(null, image);
    });
    manifest += manifestLine(file.sha256, file.name);
  }
  zip.addBuffer(Buffer.from(manifest, 'utf8'), EVIDENCE_FILES.manifest, { mtime });
  zip.end();
  const team = fileNamePart(data.team.name) || `equipo-${data.team.id}`;
  return {
    fileName: `evidencia-${team}-${exportedAt.toISOString().slice(0, 10)}.zip`,
    contestId: data.contest.id,
    stream,
  };
}

/** A reduced copy of a capture for the PDF, or null when sharp cannot read it. */
async function thumbnail(bytes: Buffer): Promise<PdfCapture['thumbnail']> {
  try {
    const { data, info } = await sharp(bytes)
      .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: 60 })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}
