import type { CaptureMoment, CaptureRow } from '@concurso/shared';
import { formatDateTime } from '../date-time';

/** How a capture's moment reads on screen. */
const CAPTURE_MOMENT_TEXT: Record<CaptureMoment, string> = {
  antes: 'Antes de terminarlo',
  despues: 'Después de terminarlo',
  pedida: 'Pedida por un juez',
};

/** A capture's caption: «Antes de terminarlo · lab-07 · 27/11/2026 10:00:01» (no machine when unknown). */
export function captureCaption(capture: Pick<CaptureRow, 'moment' | 'hostname' | 'taken_at'>): string {
  return [CAPTURE_MOMENT_TEXT[capture.moment], capture.hostname, formatDateTime(capture.taken_at)]
    .filter((part) => part !== '')
    .join(' · ');
}
