/**
 * Every Spanish text the server sends and the web shows, word for word from docs/spec.md section 8
 * (and docs/design.md section 4 for the ones the spec leaves open). Import; never retype.
 */
export const MESSAGES = {
  // Login (docs/spec.md section 8)
  loginInvalid: 'Usuario o contraseña incorrectos!',
  loginRetry: 'Intentar de nuevo',
  participantRefused: 'Los participantes no tienen acceso a la consola del concurso.',
  loginRateLimited: 'Demasiados intentos de inicio de sesión. Espere un minuto e intente de nuevo.',
  // Sessions and roles (docs/design.md sections 4 and 5)
  unauthorized: 'Sesión no válida o expirada. Inicie sesión de nuevo.',
  /** Shown on the login page when a session ended elsewhere (logout in another tab, password changed...). */
  sessionEnded: 'Su sesión terminó. Inicie sesión de nuevo.',
  forbidden: 'No tiene permiso para realizar esta acción.',
  notFound: 'No se encontró el recurso solicitado.',
  validation: 'Por favor llene todos los campos correctamente',
  required: 'Este campo es requerido',
  serverError: 'Algo salió mal en el servidor.',
  databaseDown: 'La base de datos no está disponible. Intente de nuevo en unos momentos.',
  tooManyRequests: 'Demasiadas solicitudes. Intente de nuevo en unos momentos.',
  // Generic dialogs (docs/spec.md sections 5 and 8)
  info: 'Información',
  /** docs/spec.md section 5 fixes this button's text verbatim, without the opening «¡». */
  ok: 'Listo!',
  warning: 'Advertencia',
  error: 'Error',
  connectionErrorTitle: 'Error de Conexión',
  connectionError: 'No se pudo conectar al servidor. Inténtalo de nuevo más tarde.',
  // Successes (docs/spec.md section 8)
  created: 'Registrado',
  saved: 'Guardado',
  correct: '¡Correcto!',
  deleted: 'Dato Eliminado.',
  processed: 'Solicitud procesada.',
  // Team status (docs/spec.md section 4 and 8)
  confirmStatusChange: '¿Desea cambiar el estatus del equipo?',
  statusChangeFailed: 'Ocurrió un problema al procesar el dato. Inténtalo de nuevo.',
  deleteFailed: 'Ocurrió un problema al eliminar el dato. Inténtalo de nuevo.',
  confirmDelete: 'Sí, eliminar',
  // Board
  noCurrentContest: 'No hay un concurso registrado todavía.',
  /** The board's contest line and the projector's heading when no contest is active. */
  noActiveContestTitle: 'Sin concurso activo',
  /** 404 (or a field's 422) for a contest id that does not exist. */
  contestNotFound: 'No se encontró el concurso.',
  /** Boards and the projector when no contest is active. */
  noActiveContest: 'No hay un concurso activo. Un administrador puede activarlo en Concursos.',
  /**
   * 409 to `deleteContest` of the active contest: deleting it would leave every agent with
   * an empty blocked set in the middle of a contest.
   */
  activeContestDelete: 'Active otro concurso antes de eliminar este.',
  /** The status log's author of an automatic block. */
  automaticBlock: 'automático',
  noTeams: 'No hay registros para mostrar',
  // Agent (docs/design.md section 6)
  agentKeyInvalid: 'Clave de agente no válida o revocada.',
  agentKeyGenerated: 'Clave del agente generada. Guárdela: no se volverá a mostrar.',
  /** 409 to an agent whose team's contest is not the active one (docs/design.md section 6a). */
  agentContestInactive: 'El concurso de este equipo no es el activo.',
  /** 429 to an address that sent too many wrong agent keys (`AGENT_CHANNEL_LIMITS.wrongKeysPerMinute`). */
  agentKeysRateLimited: 'Demasiadas claves de agente no válidas desde esta dirección; espere un minuto.',
  /**
   * 429 to an agent whose team has `AGENT_CHANNEL_LIMITS.attemptRowsPerTeam` attempts stored in its
   * contest: nothing more is stored; the agent keeps them and tries later (`Retry-After`).
   */
  agentAttemptsCapReached:
    'Este equipo llegó al máximo de intentos registrados en el concurso; los nuevos esperan en la máquina.',
  /** 429 to an agent past its presence calls per machine or key (`AGENT_PRESENCE_LIMITS`). */
  agentPresenceRateLimited: 'Demasiados avisos de presencia de esta máquina; espere unos segundos.',
  /** `POST /api/removeLabMachine`: removed, or no such machine (presence per machine, docs/design.md section 6a). */
  labMachineRemoved: 'Máquina quitada del laboratorio.',
  labMachineNotFound: 'No se encontró la máquina.',
  /** 429 to an agent past its team's observed reports per minute (`OBSERVED_LIMITS`). */
  observedRateLimited: 'Demasiados reportes de programas de este equipo; se aceptarán de nuevo en un minuto.',
  /** 429 to an agent whose team reached its cap of distinct observed programs. */
  observedCapReached:
    'Este equipo llegó al máximo de programas distintos registrados; los nuevos no se guardaron.',
  // Screen captures (server/src/modules/captures/README.md)
  /** 413 to a capture whose image is larger than `CAPTURE_MAX_BYTES` decoded. */
  captureTooLarge: 'La captura supera los 200 KB.',
  /** 429 to an agent key past its captures per minute (`CAPTURE_LIMITS`, with `Retry-After`). */
  captureRateLimited: 'Demasiadas capturas de este equipo; espere unos segundos.',
  /** 404 to a capture for no recent attempt of the team nor an open «Ver pantalla» request of it. */
  captureNotExpected:
    'La captura no corresponde a un intento reciente ni a una solicitud abierta de este equipo.',
  /** 400 to a capture whose bytes are not a JPEG or WebP image. */
  captureInvalidImage: 'La captura no es una imagen JPEG o WebP válida.',
  /** 429 to a capture of a team holding `CAPTURE_LIMITS.perTeam` captures none of which is a «Ver pantalla» one. */
  captureCapReached: 'Este equipo llegó al máximo de capturas guardadas en el concurso.',
  /** 404 to a capture id that is not stored (or was dropped by the per-team bound). */
  captureNotFound: 'No se encontró la captura.',
  /** 409 to «Ver pantalla» when no machine of the team is connected. */
  captureNoMachine: 'Ninguna máquina de este equipo está conectada.',
  /** 504 to «Ver pantalla» when no machine answered in time. */
  captureTimedOut: 'La máquina no envió la captura a tiempo.',
  // Fingerprints are claims (docs/design.md section 6a)
  fingerprintNotFound: 'No se encontró la huella.',
  // Catalogues (docs/spec.md section 8)
  schoolCreateFailed: 'Hubo un problema al registrar la escuela. Intente de nuevo.',
  schoolUpdateFailed: 'Ocurrió un problema al actualizar la escuela. Inténtalo de nuevo.',
  processCreateFailed: 'Hubo un problema al registrar el proceso. Intente de nuevo.',
  processUpdateFailed: 'Ocurrió un problema al actualizar el proceso. Inténtalo de nuevo.',
  processesAssignFailed: 'Hubo un problema al registrar los procesos',
  membersCreateFailed: 'Hubo un problema al registrar a los integrantes',
  userCreateFailed: 'Hubo un problema al registrar el usuario. Intente de nuevo.',
  userUpdateFailed: 'Ocurrió un problema al actualizar el usuario. Inténtalo de nuevo.',
  exerciseUpdateFailed: 'Ocurrió un problema al actualizar los ejercicios. Inténtalo de nuevo.',
  noProcesses: 'No se encontraron procesos.',
  noParticipants: 'No se encontraron participantes.',
  noExercises: 'No se encontraron ejercicios registrados.',
  confirmDeleteTitle: '¿Está seguro?',
  confirmDeleteText: 'El dato se eliminará y no podrá recuperarse.',
  selectedPrefix: 'Seleccionaste: ',
} as const;

/**
 * The generic create / update failure of docs/spec.md section 8 ('Hubo un problema al registrar/actualizar
 * el {thing}. Intente de nuevo.'), for catalogues without a text of their own. `thing` carries its
 * article, e.g. 'el concurso', 'la carrera'.
 */
export function saveFailedMessage(mode: 'create' | 'update', thing: string): string {
  return `Hubo un problema al ${mode === 'create' ? 'registrar' : 'actualizar'} ${thing}. Intente de nuevo.`;
}

/**
 * 429 for an account with too many failed logins from the asking address (the README, «Configuración»):
 * how long to wait, in whole minutes. Only that address is held back, and the text says so.
 */
export function loginAccountLockedMessage(minutes: number): string {
  const wait = Math.max(1, minutes);
  return `Demasiados intentos fallidos para este usuario desde esta dirección. Intente de nuevo en ${wait} ${wait === 1 ? 'minuto' : 'minutos'}, o inicie sesión desde otro equipo.`;
}

export type MessageKey = keyof typeof MESSAGES;

/**
 * How the logs and the agent name an attempt: the blocked process, and when a renamed copy
 * was caught by its fingerprint, the file name it ran as: 'chrome.exe, renombrado como notepad.exe'.
 * A program run by a loader or an interpreter says what ran it (agent/src/README.md, "Loaders and
 * interpreters"): 'chatgpt (vía python3)'.
 */
export function attemptProcessLabel(
  process: string,
  executable?: string | null,
  via?: string | null,
): string {
  return viaLabel(executable ? `${process}, renombrado como ${executable}` : process, via);
}

/**
 * A program's name with what ran it, when a loader or an interpreter did: 'chatgpt.py (vía python3)';
 * the name alone otherwise. The attempts' and the observed list's one wording.
 */
export function viaLabel(name: string, via?: string | null): string {
  return via ? `${name} (vía ${via})` : name;
}

/** '1 máquina', '2 máquinas' (`/procesosObservados`). */
export function machinesLabel(count: number): string {
  return `${count} ${count === 1 ? 'máquina' : 'máquinas'}`;
}
