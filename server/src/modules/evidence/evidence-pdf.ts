import { jsPDF } from 'jspdf';
import type { ChainCheck, ChainHead } from './evidence-chain.js';
import type { EvidenceCapture, EvidenceData } from './evidence.repository.js';

/** A capture as the PDF shows it: its file in the ZIP and a small JPEG to embed (null: none). */
export interface PdfCapture {
  capture: EvidenceCapture;
  /** Path inside the ZIP (`capturas/…`), or null when the image is gone. */
  file: string | null;
  /** A reduced copy for the page (JPEG bytes), or null. */
  thumbnail: { jpeg: Buffer; width: number; height: number } | null;
  /** SHA-256 of the file as read at export time, when it differs from the recorded one. */
  mismatch: string | null;
}

/** What the PDF is made of. */
export interface EvidencePdfInput {
  data: EvidenceData;
  /** Captures by the attempt's event id; `pedida` ones under their request id. */
  captures: PdfCapture[];
  head: ChainHead;
  check: ChainCheck;
  exportedAt: Date;
  exportedBy: string;
}

const MARGIN = 15;
const PAGE_WIDTH = 210;
const PAGE_HEIGHT = 297;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const LINE = 4.6;
/** Width of an embedded capture on the page (mm): two side by side, «antes» and «despues». */
const IMAGE_WIDTH = 85;
/** Height of a caption's line under a capture (mm, at 7.5 pt). */
const CAPTION_LINE = 3.2;

/** A time as the PDF writes it: UTC, to the millisecond, said so. */
const pdfTime = (at: Date | null): string =>
  at ? `${at.toISOString().replace('T', ' ').replace('Z', '')} UTC` : '—';

const MOMENT_NAMES: Record<string, string> = { antes: 'antes', despues: 'después', pedida: 'pedida' };
const AGENT_EVENT_NAMES: Record<string, string> = {
  sin_senal: 'Sin señal',
  detenido: 'Agente detenido',
  en_linea: 'En línea de nuevo',
  sin_reanudar: 'Sin reanudar',
  reanudado: 'Reanudado',
};

/** A page cursor: writes lines top to bottom and starts a new page when one does not fit. */
class Writer {
  readonly doc = new jsPDF({ unit: 'mm', format: 'a4', compress: false });
  private y = MARGIN;

  private room(height: number): void {
    if (this.y + height > PAGE_HEIGHT - MARGIN) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = MARGIN;
  }

  title(text: string): void {
    this.doc.setFont('helvetica', 'bold').setFontSize(16);
    this.room(10);
    this.doc.text(text, MARGIN, this.y + 6);
    this.y += 11;
  }

  heading(text: string): void {
    this.doc.setFont('helvetica', 'bold').setFontSize(12);
    this.room(14);
    this.y += 3;
    this.doc.text(text, MARGIN, this.y + 4);
    this.y += 7;
  }

  /** A paragraph, wrapped to the page; `bold` for a label line. */
  text(text: string, { bold = false, indent = 0, size = 9.5 } = {}): void {
    this.doc.setFont(bold ? 'helvetica' : 'helvetica', bold ? 'bold' : 'normal').setFontSize(size);
    const lines = this.doc.splitTextToSize(text, TEXT_WIDTH - indent) as string[];
    for (const line of lines) {
      this.room(LINE);
      this.doc.text(line, MARGIN + indent, this.y + 3.5);
      this.y += LINE;
    }
  }

  /** A monospaced line (hashes), wrapped. */
  mono(text: string, indent = 0): void {
    this.doc.setFont('courier', 'normal').setFontSize(8.5);
    const lines = this.doc.splitTextToSize(text, TEXT_WIDTH - indent) as string[];
    for (const line of lines) {
      this.room(LINE);
      this.doc.text(line, MARGIN + indent, this.y + 3.5);
      this.y += LINE;
    }
  }

  gap(mm = 2): void {
    this.y += mm;
  }

  /** Captures side by side, each with its caption under it. */
  images(items: Array<{ caption: string; thumbnail: PdfCapture['thumbnail'] }>): void {
    for (let i = 0; i < items.length; i += 2) {
      const row = items.slice(i, i + 2);
      const height = Math.max(
        ...row.map((item) =>
          item.thumbnail ? (IMAGE_WIDTH * item.thumbnail.height) / item.thumbnail.width : 8,
        ),
      );
      this.doc.setFont('helvetica', 'normal').setFontSize(7.5);
      const captions = row.map((item) => this.doc.splitTextToSize(item.caption, IMAGE_WIDTH) as string[]);
      const captionHeight = Math.max(...captions.map((lines) => lines.length)) * CAPTION_LINE;
      this.room(height + captionHeight + 5);
      row.forEach((item, column) => {
        const x = MARGIN + 4 + column * (IMAGE_WIDTH + 5);
        if (item.thumbnail) {
          const h = (IMAGE_WIDTH * item.thumbnail.height) / item.thumbnail.width;
          this.doc.addImage(item.thumbnail.jpeg, 'JPEG', x, this.y, IMAGE_WIDTH, h);
        }
        this.doc.text(captions[column]!, x, this.y + height + 3);
      });
      this.y += height + captionHeight + 4;
    }
  }
}

const captionOf = (item: PdfCapture): string => {
  const c = item.capture;
  const where = c.hostname ? `, equipo ${c.hostname}` : '';
  const state = item.file
    ? item.mismatch
      ? ` — ¡el archivo no coincide con su SHA-256 registrado! (leído: ${item.mismatch.slice(0, 16)}…)`
      : ''
    : ' — imagen descartada (límite de capturas por equipo)';
  return `«${MOMENT_NAMES[c.moment] ?? c.moment}», ${pdfTime(c.takenAt)}${where}. ${item.file ?? ''} SHA-256 ${c.sha256.slice(0, 16)}…${state}`;
};

/**
 * The evidence PDF, in Spanish (server/src/modules/evidence/README.md): the contest and team, its
 * members, every attempt with its captures, the captures asked with «Ver pantalla», the status
 * changes, the agent's events, the messages and their receipts, and on the last page the chain's
 * head and how to check the manifest. Uncompressed (jsPDF `compress: false`): its text can be read
 * from the raw file too. Answers the PDF's bytes.
 */
export function buildEvidencePdf(input: EvidencePdfInput): Buffer {
  const { data, head, check } = input;
  const w = new Writer();
  w.doc.setProperties({
    title: `Evidencia del equipo ${data.team.name}`,
    subject: `Concurso ${data.contest.calendar}`,
    creator: 'Administración de concursos',
  });
  w.title('Evidencia de conducta en el concurso');
  w.text(`Concurso: ${data.contest.calendar} del ${data.contest.date} (id ${data.contest.id})`);
  w.text(`Equipo: ${data.team.name} (id ${data.team.id})`, { bold: true });
  w.text(`Nivel: ${data.team.level}`);
  w.text(`Escuela: ${data.team.schools.length > 0 ? data.team.schools.join(', ') : 'sin registrar'}`);
  w.text(`Entrenador: ${data.team.coach}`);
  w.text(`Exportado: ${pdfTime(input.exportedAt)} por ${input.exportedBy}`);
  w.text(
    'Todas las horas están en UTC. Cada captura y este PDF están en el ZIP con su SHA-256 en manifiesto.sha256; ' +
      'la última página explica cómo comprobarlo.',
  );
  if (data.cut.length > 0) {
    w.text(`Listas recortadas a sus primeras filas: ${data.cut.join(', ')}.`, { bold: true });
  }

  w.heading(`Integrantes (${data.members.length})`);
  if (data.members.length === 0) w.text('Sin integrantes registrados.');
  for (const m of data.members) {
    w.text(`${m.name} — código ${m.code}, ${m.career ?? 'sin carrera'}, semestre ${m.semester}`, {
      indent: 2,
    });
  }

  const byEvent = new Map<string, PdfCapture[]>();
  const requested = new Map<string, PdfCapture[]>();
  for (const item of input.captures) {
    const key = item.capture.eventId || item.capture.requestId;
    const into = item.capture.eventId ? byEvent : requested;
    into.set(key, [...(into.get(key) ?? []), item]);
  }

  w.heading(`Intentos (${data.attempts.length})`);
  if (data.attempts.length === 0) w.text('El agente no reportó intentos.');
  data.attempts.forEach((a, index) => {
    w.text(`${index + 1}. ${a.process} — ${pdfTime(a.occurredAt)}`, { bold: true, indent: 2 });
    w.text(`Ruta del ejecutable: ${a.executable ?? 'no reportada'}`, { indent: 6 });
    w.text(
      `Ejecutado ${a.via ? `mediante ${a.via}` : 'directamente'}; ${
        a.killed ? 'el agente lo terminó' : 'el agente no pudo terminarlo'
      }; recibido por el servidor ${pdfTime(a.receivedAt)}; evento ${a.eventId}`,
      { indent: 6 },
    );
    const shots = byEvent.get(a.eventId) ?? [];
    if (shots.length > 0)
      w.images(shots.map((item) => ({ caption: captionOf(item), thumbnail: item.thumbnail })));
    w.gap(1);
  });

  if (requested.size > 0) {
    w.heading(`Capturas pedidas con «Ver pantalla» (${requested.size})`);
    for (const [requestId, shots] of requested) {
      w.text(`Solicitud ${requestId}`, { bold: true, indent: 2 });
      w.images(shots.map((item) => ({ caption: captionOf(item), thumbnail: item.thumbnail })));
    }
  }

  w.heading(`Cambios de estatus (${data.statusChanges.length})`);
  if (data.statusChanges.length === 0) w.text('El equipo no cambió de estatus.');
  for (const c of data.statusChanges) {
    const who = c.automatic
      ? 'automático: alcanzó el máximo de intentos del concurso'
      : `por ${c.user ?? 'un juez cuya cuenta ya no existe'}, a mano desde el tablero`;
    w.text(`${pdfTime(c.at)}: de ${c.from} a ${c.to} (${who})`, { indent: 2 });
  }

  w.heading(`Máquinas del equipo (${data.machines.length})`);
  if (data.machines.length === 0) w.text('Ninguna máquina del equipo se conectó.');
  for (const m of data.machines) {
    const clock = m.clockOffsetMs === null ? '' : `, reloj desfasado ${m.clockOffsetMs} ms`;
    w.text(
      `${m.hostname} (${m.os}, agente ${m.version}${m.address ? `, IP ${m.address}` : ''}${clock}): ` +
        `en línea desde ${pdfTime(m.onlineSince)}, última señal ${pdfTime(m.lastSeen)}`,
      { indent: 2 },
    );
  }

  w.heading(`Presencia del agente (${data.agentEvents.length})`);
  if (data.agentEvents.length === 0) w.text('Sin eventos del agente.');
  for (const e of data.agentEvents) {
    const extra = [
      e.hostname ? `máquina ${e.hostname}` : null,
      e.lastSeen ? `última señal ${pdfTime(e.lastSeen)}` : null,
      e.silenceMs !== null ? `en silencio ${Math.round(e.silenceMs / 1000)} s` : null,
    ].filter(Boolean);
    w.text(
      `${pdfTime(e.at)}: ${AGENT_EVENT_NAMES[e.kind] ?? e.kind}${extra.length ? ` (${extra.join(', ')})` : ''}`,
      {
        indent: 2,
      },
    );
  }

  w.heading(`Mensajes enviados al equipo (${data.messages.length})`);
  if (data.messages.length === 0) w.text('No se enviaron mensajes al equipo.');
  for (const m of data.messages) {
    w.text(`${pdfTime(m.createdAt)}, de ${m.user ?? 'un juez cuya cuenta ya no existe'}:`, {
      bold: true,
      indent: 2,
    });
    w.text(`«${m.text}»`, { indent: 6 });
    const receipt = m.failedAt
      ? `No se pudo mostrar (${pdfTime(m.failedAt)}): ${m.failure ?? 'sin motivo'}`
      : `Entregado: ${pdfTime(m.deliveredAt)}; visto: ${pdfTime(m.seenAt)}`;
    w.text(receipt, { indent: 6 });
  }

  w.newPage();
  w.heading('Cadena de la bitácora y cómo comprobar este archivo');
  w.text(
    'Cada fila del historial del concurso es un eslabón de una cadena SHA-256: cambiar o borrar una fila ' +
      'después rompe la cadena. Cabeza de la cadena al exportar:',
  );
  w.text(`Eslabones: ${head.count}`, { indent: 4 });
  w.mono(`Hash: ${head.hash}`, 4);
  w.text(
    check.ok
      ? `Verificación al exportar: correcta (${check.count} eslabones).`
      : `Verificación al exportar: INCORRECTA. ${check.text}.`,
    { bold: true },
  );
  w.gap(3);
  w.text('Para comprobar que nada del ZIP cambió, descomprímalo y, en la carpeta que resulta, ejecute:');
  w.mono('sha256sum -c manifiesto.sha256', 4);
  w.text(
    '(en macOS: «shasum -a 256 -c manifiesto.sha256»). Cada archivo debe decir «OK» o «La suma coincide».',
  );
  w.text(
    'Guarde el hash de la cabeza de arriba: si más tarde la cadena del concurso ya no pasa por ese hash ' +
      '(«Verificar la cadena» en la bitácora, GET /api/contestLog/verify), alguien reescribió el historial.',
  );
  w.text(
    'cadena.txt repite la cabeza y el resultado de la verificación; manifiesto.sha256 lista el SHA-256 de este ' +
      'PDF, de cadena.txt y de cada captura.',
  );
  return Buffer.from(w.doc.output('arraybuffer'));
}
