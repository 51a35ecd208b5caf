/**
 * The Spanish lines the name filter logs (name-filter.ts), apart from texts.ts like the firewall's
 * own reasons (firewall.ts). Each refusal of a name is logged at most once a minute.
 */

/** `1 conexión`, `2 conexiones`. */
const connections = (n: number) => `${n} ${n === 1 ? 'conexión' : 'conexiones'}`;
const via = (port: number) => (port === 443 ? 'HTTPS' : 'HTTP');

export const NAME_FILTER_TEXTS = {
  listening: (tlsPort: number, httpPort: number) =>
    `Red: filtro de nombres escuchando (HTTPS en el puerto local ${tlsPort}, HTTP en el ${httpPort}).`,
  /** `repeated`: the refusals of this name in the minute before that were not logged. */
  refusedName: (host: string, port: number, repeated: number) =>
    `Red: conexión ${via(port)} a ${host} rechazada (no es un sitio permitido)` +
    (repeated > 0 ? `; otras ${connections(repeated)} a ese nombre en el último minuto.` : '.'),
  refusedEch: (host: string | null, repeated: number) =>
    `Red: conexión HTTPS${host === null ? '' : ` a ${host}`} rechazada: usa Encrypted Client Hello, que oculta el sitio` +
    (repeated > 0 ? `; otras ${connections(repeated)} así en el último minuto.` : '.'),
  refusedNoName: (port: number, reason: string, repeated: number) =>
    `Red: conexión ${via(port)} rechazada: no dice a qué sitio va (${reason})` +
    (repeated > 0 ? `; otras ${connections(repeated)} así en el último minuto.` : '.'),
  refusedTimeout: (port: number, seconds: number, repeated: number) =>
    `Red: conexión ${via(port)} cerrada: no dijo a qué sitio va en ${seconds} s` +
    (repeated > 0 ? `; otras ${connections(repeated)} así en el último minuto.` : '.'),
  refusedBusy: (max: number, repeated: number) =>
    `Red: conexión rechazada: ya hay ${max} conexiones abiertas por el filtro de nombres` +
    (repeated > 0 ? `; otras ${connections(repeated)} así en el último minuto.` : '.'),
  upstreamFailed: (host: string, port: number, reason: string, repeated: number) =>
    `Red: no se pudo conectar a ${host} (${via(port)}): ${reason}` +
    (repeated > 0 ? `; otras ${connections(repeated)} fallaron así en el último minuto.` : '.'),
  manyNames: (dropped: number) =>
    `Red: demasiados nombres distintos rechazados en el último minuto; ${connections(dropped)} más rechazadas sin detallar.`,
} as const;
