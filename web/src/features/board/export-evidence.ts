import { EVIDENCE_ZIP_MIME, evidenceRoutes, routePath } from '@concurso/shared';
import { apiHeaders, httpError, parseJson } from '../../api/api-client';
import { reportUnauthorized } from '../../api/session-end';

/** The evidence ZIP as downloaded: its bytes and the name the server gave it. */
export interface EvidenceFile {
  blob: Blob;
  fileName: string;
}

/** The path of team `teamId`'s evidence (`GET /api/teamEvidence/{teamId}`, judges and admins). */
export const evidencePath = (teamId: number): string => routePath(evidenceRoutes.export, { teamId });

/** The file name of a `Content-Disposition` header (`filename*` first), or `fallback`. */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  return (plain?.[2] ?? plain?.[1] ?? fallback).trim() || fallback;
}

/**
 * Reads the ZIP at `url` with the bearer `token`, telling `onProgress` the bytes received so far as
 * they arrive. Rejects like `apiRequest` (`ApiRequestError` with the server's Spanish message; a 401
 * ends the session).
 */
export async function fetchEvidence(
  url: string,
  token: string | null,
  onProgress: (bytes: number) => void,
  signal?: AbortSignal,
): Promise<EvidenceFile> {
  const response = await fetch(url, {
    headers: apiHeaders(EVIDENCE_ZIP_MIME, token),
    signal,
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const payload = parseJson(await response.text().catch(() => ''));
    if (response.status === 401) reportUnauthorized(token);
    throw httpError(response.status, payload);
  }
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value as Uint8Array<ArrayBuffer>);
      received += value.byteLength;
      onProgress(received);
    }
  }
  return {
    blob: new Blob(parts, { type: EVIDENCE_ZIP_MIME }),
    fileName: dispositionFileName(response.headers.get('content-disposition'), 'evidencia.zip'),
  };
}

/** Hands `file` to the browser as a download (an object URL clicked through a hidden link). */
export function saveEvidence(file: EvidenceFile): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** «1,2 MB»: bytes received, as the button shows them while it downloads. */
export const receivedText = (bytes: number): string =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('es-MX')} KB`
    : `${(bytes / (1024 * 1024)).toLocaleString('es-MX', { maximumFractionDigits: 1 })} MB`;
