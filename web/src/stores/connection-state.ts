/** State of the board's push channel, shown on the board screens (DESIGN.md section 6). */
export type ConnectionState = 'conectado' | 'reconectando' | 'sin conexión';

/** The visible text of each connection state. */
export const CONNECTION_LABELS: Record<ConnectionState, string> = {
  conectado: 'Conectado',
  reconectando: 'Reconectando…',
  'sin conexión': 'Sin conexión',
};
