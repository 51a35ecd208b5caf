/**
 * Every Spanish line the agent prints, in one place. Texts the server and web share (the key
 * message, "no contest") come from `@concurso/shared`.
 */
import { MESSAGES } from '@concurso/shared';

/** `1 intento`, `2 intentos`: counts in the logs read naturally. */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const TEXTS = {
  // Start-up and options
  missingServer: 'Falta la dirección del servidor: use --server <url> o la variable AGENT_SERVER.',
  missingKey: 'Falta la clave del agente: use --key-file <ruta> o la variable CONCURSO_AGENT_KEY.',
  // Never repeats what followed --key: that value is the key itself.
  keyOnCommandLine:
    'La clave no se acepta en la línea de comandos (otros usuarios la verían): ' +
    'guárdela en un archivo y use --key-file <ruta>, o use la variable CONCURSO_AGENT_KEY.',
  oldKeyVariable:
    'La variable AGENT_KEY ya no se usa: ponga la clave en la variable CONCURSO_AGENT_KEY ' +
    'o en un archivo y use --key-file <ruta>.',
  malformedKey:
    'La clave del agente no es válida: debe ser una sola línea sin espacios; cópiela completa desde la consola.',
  keyFileMissing: (file: string) => `No existe el archivo de la clave: ${file}.`,
  keyFileDenied: (file: string) => `No tiene permiso para leer el archivo de la clave: ${file}.`,
  keyFileUnreadable: (file: string, reason: string) =>
    `No se pudo leer el archivo de la clave ${file}: ${reason}.`,
  keyFileNotAFile: (file: string) => `La ruta de la clave no es un archivo: ${file}.`,
  keyFileOpen: (file: string, mode: string) =>
    `Otros usuarios pueden leer o modificar el archivo de la clave ${file} (permisos ${mode}). ` +
    `Déjelo solo para su dueño con: chmod 600 ${file}`,
  keyFileEmpty: (file: string) => `El archivo de la clave está vacío: ${file}.`,
  keyFileTooLarge: (file: string) =>
    `El archivo de la clave ${file} es demasiado grande: debe contener solo la clave.`,
  invalidServer: (server: string) =>
    `La dirección del servidor no es válida: "${server}" (ejemplo: http://servidor:3000).`,
  invalidNumber: (name: string) => `El valor de ${name} debe ser un número entero positivo de milisegundos.`,
  badArguments: (detail: string) => `${detail}. Use --help para ver las opciones.`,
  keyInvalid: MESSAGES.agentKeyInvalid,
  noContest: MESSAGES.noCurrentContest,
  unreachable: (server: string) =>
    `No se pudo conectar al servidor ${server}. Verifique la dirección y que el servidor esté en marcha.`,
  timeout: (server: string) => `El servidor ${server} no respondió a tiempo.`,
  serverError: (status: number, message: string) =>
    `El servidor respondió con un error (${status})${message ? `: ${message}` : '.'}`,
  invalidResponse: (status: number) => `El servidor dio una respuesta inesperada (${status}).`,
  dataDir: (dir: string, reason: string) => `No se pudo usar la carpeta de datos ${dir}: ${reason}`,
  locked: (pid: number) =>
    `Ya hay un agente en ejecución para este equipo con la misma carpeta de datos (pid ${pid}).`,
  unexpected: (reason: string) => `Error inesperado del agente: ${reason}`,

  // Running
  started: (team: string, calendar: string, blocked: number, pollMs: number) =>
    `Agente iniciado para el equipo "${team}" (concurso ${calendar}): ` +
    `${count(blocked, 'programa bloqueado', 'programas bloqueados')}, revisión cada ${pollMs} ms.`,
  dryRunNotice: 'Modo de prueba: no se terminará ningún proceso; los intentos se reportan al servidor.',
  killed: (exe: string, pid: number) => `Proceso bloqueado terminado: ${exe} (pid ${pid})`,
  killFailed: (exe: string, pid: number, reason: string) =>
    `No se pudo terminar el proceso bloqueado: ${exe} (pid ${pid}): ${reason}`,
  detected: (exe: string, pid: number) =>
    `Modo de prueba: se terminaría el proceso bloqueado ${exe} (pid ${pid})`,
  sent: (n: number, total: number) => `Intentos enviados al servidor: ${n} (total del equipo: ${total})`,
  pendingAtStart: (n: number) =>
    `Pendientes de enviar: ${count(n, 'intento guardado', 'intentos guardados')}.`,
  sendFailed: (n: number, reason: string) =>
    `Sin enviar: ${count(n, 'intento queda guardado', 'intentos quedan guardados')}; se reintentará. ${reason}`,
  // One line per 422: how many attempts and the server's reasons (never the body's field paths).
  refused: (n: number, reasons: readonly string[], file: string) =>
    `El servidor rechazó ${count(n, 'intento', 'intentos')} por datos no válidos ` +
    `(${reasons.map((r) => r.replace(/[.\s]+$/, '')).join('; ')}); ` +
    `${n === 1 ? 'se apartó' : 'se apartaron'} en ${file} y los demás se siguen enviando.`,
  refusedNoReason: 'el servidor no indicó el motivo',
  offline: (reason: string) => `Problema con el servidor: ${reason}`,
  online: 'Conexión con el servidor restablecida.',
  blockedUpdated: (n: number) =>
    `Lista de programas bloqueados actualizada: ${count(n, 'programa', 'programas')}.`,
  fingerprintsUpdated: (n: number) =>
    `Huellas (SHA-256) de programas bloqueados actualizadas: ${count(n, 'huella', 'huellas')}.`,
  observeOn:
    'Registro de programas ejecutados activado por el concurso: se reportan el nombre, la ruta y la huella de cada programa que se inicie.',
  observeOff: 'Registro de programas ejecutados desactivado.',
  message: (text: string) => `Mensaje de los jueces: ${text}`,
  // Why a message could not be shown: told to the sender too («no se pudo mostrar en …: <reason>»).
  messageNoSession: 'sin sesión gráfica',
  messageNoZenity: 'zenity no está instalado',
  messageClosedAtOnce: (code: number | null) =>
    `la ventana se cerró al abrirse${code === null ? '' : ` (código ${code})`}`,
  messageWindowsFailed: (code: number | null) =>
    `msg.exe no pudo mostrarlo${code === null ? '' : ` (código ${code})`}`,
  messageNotShown: (reason: string, retryMs: number | null) =>
    `No se pudo mostrar un mensaje de los jueces: ${reason}.` +
    (retryMs === null ? ' No se reintentará.' : ` Se reintentará en ${Math.ceil(retryMs / 1000)} s.`),
  observedFull: (max: number) =>
    `Hay ${max} programas ejecutados sin enviar; los nuevos no se registran hasta que el servidor reciba los pendientes.`,
  observedRefused: (n: number) =>
    `El servidor rechazó ${count(n, 'programa ejecutado', 'programas ejecutados')} por datos no válidos; no se reenviarán.`,
  observedTurnedAway: (message: string) =>
    `El servidor no aceptó el reporte de programas ejecutados: ${message} No se reenviará.`,
  observedHeldBack: (waitMs: number, message: string) =>
    `El servidor pidió esperar antes de reportar más programas ejecutados: ${message} Se reintentará en ${Math.ceil(waitMs / 1000)} s.`,
  keepsRunning: 'El agente sigue terminando procesos con la última lista conocida.',
  scanFailed: (reason: string) => `No se pudo leer la lista de procesos: ${reason}`,
  outboxCorrupt: (file: string, movedTo: string) =>
    `El archivo de intentos ${file} estaba dañado; se apartó como ${movedTo}.`,
  stopping: 'Deteniendo el agente...',
  stopped: (pending: number) =>
    pending > 0
      ? `Agente detenido; ${count(pending, 'intento queda guardado', 'intentos quedan guardados')} para el próximo inicio.`
      : 'Agente detenido.',
  oncePending: (pending: number) =>
    `${count(pending, 'intento queda guardado', 'intentos quedan guardados')}; ${pending === 1 ? 'se enviará' : 'se enviarán'} en la próxima ejecución.`,

  // The network policy
  networkApplied: (version: number, sites: number) =>
    `Red: política v${version} en vigor (${count(sites, 'sitio permitido', 'sitios permitidos')}, además del servidor y el DNS).`,
  networkRestored: (version: number) =>
    `Red: política v${version} restablecida al iniciar (la última aplicada), antes de hablar con el servidor.`,
  networkLifted: 'Red: sin restricciones (reglas de red del agente retiradas).',
  networkFailed: (reason: string) => `Red: no se pudo aplicar la política: ${reason}`,
  networkLiftFailed: (reason: string) => `Red: no se pudieron retirar las reglas del agente: ${reason}`,
  networkDiversionFailed: (reason: string) =>
    `Red: no se pudo iniciar el filtro de nombres ni el DNS del agente (${reason}); los sitios permitidos por nombre se filtran solo por dirección.`,
  networkUnresolved: (hosts: readonly string[], retryMs: number) =>
    `Red: no se pudo resolver ${hosts.join(', ')}; se reintenta cada ${Math.max(1, Math.round(retryMs / 1000))} s (el panel dice «aplicada en parte» mientras tanto).`,
  networkAllResolved: (version: number) =>
    `Red: ya se resuelven todos los sitios permitidos (política v${version} aplicada completa).`,
  networkReresolved: (version: number) =>
    `Red: direcciones de los sitios permitidos actualizadas (política v${version}).`,
  liftDone:
    'Reglas de red del agente retiradas. Si el servicio del agente sigue en marcha, las aplicará de nuevo con la próxima política: deténgalo antes.',

  // Why a signal could not be sent
  signalError: (code: string) =>
    code === 'EPERM' ? 'sin permiso (ejecute el agente como administrador)' : `error del sistema ${code}`,
  stillAlive: 'sigue en ejecución después de SIGKILL',

  // Folders and files another account could have prepared (secure-path.ts)
  dataDirUnsafe: (dir: string, bad: { path: string; uid: number; mode: string }, asRoot: boolean) =>
    `La carpeta de datos ${dir} no es segura: ` +
    (bad.path === dir ? '' : `la carpeta ${bad.path} que la contiene `) +
    `debe pertenecer a root${asRoot ? '' : ' o a su usuario'} y no poder escribirla nadie más ` +
    `(dueño uid ${bad.uid}, permisos ${bad.mode}).`,
  dataDirUnsafeWindows: (dir: string, owner: string, writers: readonly string[]) =>
    `La carpeta de datos ${dir} no es segura: debe pertenecer a SYSTEM o a los administradores y no poder ` +
    `escribirla nadie más (dueño ${owner}${writers.length > 0 ? `; pueden escribirla ${writers.join(', ')}` : ''}). ` +
    'Prepárela con el comando de instalación de la consola.',
  keyFileUnsafeWindows: (file: string, owner: string, writers: readonly string[]) =>
    `El archivo de la clave ${file} no es seguro: debe pertenecer a SYSTEM o a los administradores y no poder ` +
    `escribirlo nadie más (dueño ${owner}${writers.length > 0 ? `; pueden escribirlo ${writers.join(', ')}` : ''}). ` +
    'Prepárelo con el comando de instalación de la consola.',
  aclUnchecked: (target: string) =>
    `No se pudieron comprobar los permisos de ${target} (PowerShell no respondió); se sigue sin comprobarlos.`,
  keyFileUnsafe: (file: string, uid: number, asRoot: boolean) =>
    `El archivo de la clave ${file} no es seguro: debe pertenecer a root${asRoot ? '' : ' o a su usuario'} ` +
    `y no poder leerlo ni escribirlo nadie más (dueño uid ${uid}).`,

  // A start without the server (saved-config.ts, connecting-agent.ts)
  startedOffline: (team: string, blocked: number) =>
    `Agente iniciado sin conexión con el servidor: se aplica la configuración guardada del equipo "${team}" ` +
    `(${count(blocked, 'programa bloqueado', 'programas bloqueados')}).`,
  waitingForServer: (server: string, saved: boolean, reason: string) =>
    `Sin conexión con el servidor ${server}: ` +
    (saved
      ? 'se sigue aplicando la última configuración guardada; se reintenta.'
      : 'no hay una configuración guardada, así que no se bloquea nada todavía; se reintenta.') +
    ` (${reason.replace(/[.\s]+$/, '')})`,
  savedConfigCorrupt: (file: string) =>
    `La configuración guardada en ${file} no es válida; no se usa (se reemplaza con la próxima del servidor).`,
  savedConfigFailed: (file: string, reason: string) =>
    `No se pudo guardar la configuración en ${file}: ${reason}`,
} as const;
