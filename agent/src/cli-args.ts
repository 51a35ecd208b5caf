/**
 * Command-line and environment settings of the agent CLI. Pure (no I/O) so it is unit-tested; every
 * problem becomes one Spanish line.
 */
import { parseArgs } from 'node:util';
import { TEXTS } from './texts.js';

/** What the CLI was asked to do. */
export interface CliSettings {
  server: string;
  key: string;
  dataDir?: string;
  /** Time between scans (ms). */
  pollMs?: number;
  /** Time between SIGTERM and SIGKILL (ms). */
  graceMs?: number;
  dryRun: boolean;
  /** One scan, one delivery, then exit. */
  once: boolean;
}

export type CliParse =
  | { kind: 'run'; settings: CliSettings }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

/** Spanish usage text of `--help`. */
export const USAGE = `Agente del concurso: termina los programas bloqueados y reporta cada intento al servidor.

Uso:
  npm run agent -- --server http://<servidor>:3000 --key <clave> [opciones]

Opciones:
  -s, --server <url>     Dirección del servidor (o la variable AGENT_SERVER).
  -k, --key <clave>      Clave del agente del equipo (o la variable AGENT_KEY).
      --data-dir <ruta>  Carpeta de datos (o AGENT_DATA_DIR; por omisión ~/.concurso-agent).
      --poll-ms <ms>     Tiempo entre revisiones de procesos (por omisión, el del servidor: ~1000).
      --grace-ms <ms>    Espera entre SIGTERM y SIGKILL (por omisión 500).
      --dry-run          Modo de prueba: solo informa, no termina procesos ni envía nada.
      --once             Una revisión y un envío, luego termina.
  -h, --help             Muestra esta ayuda.
  -v, --version          Muestra la versión.`;

/** Reads argv (without `node` and the script) and the environment. Flags win over variables. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliParse {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string', short: 's' },
        key: { type: 'string', short: 'k' },
        'data-dir': { type: 'string' },
        'poll-ms': { type: 'string' },
        'grace-ms': { type: 'string' },
        'dry-run': { type: 'boolean' },
        once: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (error) {
    return { kind: 'error', message: TEXTS.badArguments(describeParseError(error)) };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const server = (values.server ?? env.AGENT_SERVER ?? '').trim();
  if (server === '') return { kind: 'error', message: TEXTS.missingServer };
  const key = (values.key ?? env.AGENT_KEY ?? '').trim();
  if (key === '') return { kind: 'error', message: TEXTS.missingKey };

  const pollMs = parseMs(values['poll-ms'], 1);
  if (pollMs === null) return { kind: 'error', message: TEXTS.invalidNumber('--poll-ms') };
  const graceMs = parseMs(values['grace-ms'], 0);
  if (graceMs === null) return { kind: 'error', message: TEXTS.invalidNumber('--grace-ms') };
  const dataDir = (values['data-dir'] ?? env.AGENT_DATA_DIR ?? '').trim();

  return {
    kind: 'run',
    settings: {
      server,
      key,
      ...(dataDir !== '' ? { dataDir } : {}),
      ...(pollMs !== undefined ? { pollMs } : {}),
      ...(graceMs !== undefined ? { graceMs } : {}),
      dryRun: values['dry-run'] ?? false,
      once: values.once ?? false,
    },
  };
}

/** A whole number of ms >= min; undefined when absent, null when invalid. */
function parseMs(text: string | undefined, min: number): number | undefined | null {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return Number.isSafeInteger(value) && value >= min ? value : null;
}

/** Turns node:util's English parse errors into a short Spanish detail. */
function describeParseError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const quoted = /'([^']+)'/.exec(message ?? '')?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Opción desconocida: ${quoted}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const option = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
      return /missing/.test(message ?? '')
        ? `La opción ${option} necesita un valor`
        : `La opción ${option} no lleva valor`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Argumento inesperado: ${quoted}`;
    default:
      return message ?? String(error);
  }
}
