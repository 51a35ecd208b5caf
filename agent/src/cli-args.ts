/**
 * Command-line and environment settings of the agent CLI. Pure (no I/O) so it is unit-tested; every
 * problem becomes one Spanish line. The key never comes from argv: the process list and npm's echo of
 * the command would show it to anyone at the machine. It comes from a file (`--key-file`, read by
 * `key-file.ts`) or from `CONCURSO_AGENT_KEY`.
 */
import { parseArgs } from 'node:util';
import { TEXTS } from './texts.js';

/**
 * Where the agent's key comes from: a file to read (`--key-file` or `AGENT_KEY_FILE`), or the key
 * itself from `CONCURSO_AGENT_KEY` (already trimmed, never empty).
 */
type KeySource = { kind: 'file'; path: string } | { kind: 'env'; key: string };

/** What the CLI was asked to do. */
interface CliSettings {
  server: string;
  key: KeySource;
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
  /** `--levantar`: remove the agent's network rules and forget its saved policy. */
  | { kind: 'lift'; dataDir?: string }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

/** Spanish usage text of `--help`. */
export const USAGE = `Agente del concurso: termina los programas bloqueados y reporta cada intento al servidor.

Uso:
  npm run agent -- --server http://<servidor>:3000 --key-file <ruta> [opciones]

La clave nunca va en la línea de comandos: guárdela en un archivo que solo su dueño pueda leer
(umask 077; printf '%s' '<clave>' > <ruta>) o póngala en la variable CONCURSO_AGENT_KEY.

Opciones:
  -s, --server <url>     Dirección del servidor (o la variable AGENT_SERVER).
      --key-file <ruta>  Archivo con la clave del agente del equipo (o AGENT_KEY_FILE); en Linux
                         debe tener permisos 600. Sin archivo, se usa CONCURSO_AGENT_KEY.
      --data-dir <ruta>  Carpeta de datos (o AGENT_DATA_DIR; por omisión ~/.concurso-agent).
      --poll-ms <ms>     Tiempo entre revisiones de procesos (por omisión, el del servidor: ~1000).
      --grace-ms <ms>    Espera entre SIGTERM y SIGKILL (por omisión 500).
      --dry-run          Modo de prueba: no termina procesos; reporta los intentos como no terminados.
      --once             Una revisión y un envío, luego termina.
      --levantar         Retira las reglas de red del agente (sitios permitidos) y termina; para un
                         técnico, con el servicio del agente detenido. No necesita servidor ni clave.
  -h, --help             Muestra esta ayuda.
  -v, --version          Muestra la versión.`;

/** The options `parseCli` accepts. */
const OPTIONS = {
  server: { type: 'string', short: 's' },
  'key-file': { type: 'string' },
  'data-dir': { type: 'string' },
  'poll-ms': { type: 'string' },
  'grace-ms': { type: 'string' },
  'dry-run': { type: 'boolean' },
  once: { type: 'boolean' },
  levantar: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/**
 * Reads argv (without `node` and the script) and the environment. Flags win over variables; a key
 * file (`--key-file`, then `AGENT_KEY_FILE`) wins over `CONCURSO_AGENT_KEY`. The old `--key`/`-k`
 * and `AGENT_KEY` are refused with a line saying what to use instead; no message ever repeats a key.
 */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliParse {
  // Checked before the strict parse, so `--key <clave>` gets its own message whatever else is wrong.
  if (keyOnCommandLine(argv)) return { kind: 'error', message: TEXTS.keyOnCommandLine };
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (error) {
    return { kind: 'error', message: TEXTS.badArguments(describeParseError(error)) };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (values.levantar) {
    const liftDir = (values['data-dir'] ?? env.AGENT_DATA_DIR ?? '').trim();
    return { kind: 'lift', ...(liftDir !== '' ? { dataDir: liftDir } : {}) };
  }

  const server = (values.server ?? env.AGENT_SERVER ?? '').trim();
  if (server === '') return { kind: 'error', message: TEXTS.missingServer };
  const keyFile = (values['key-file'] ?? env.AGENT_KEY_FILE ?? '').trim();
  const envKey = (env.CONCURSO_AGENT_KEY ?? '').trim();
  let key: KeySource;
  if (keyFile !== '') key = { kind: 'file', path: keyFile };
  else if (envKey !== '') key = { kind: 'env', key: envKey };
  else if ((env.AGENT_KEY ?? '').trim() !== '') return { kind: 'error', message: TEXTS.oldKeyVariable };
  else return { kind: 'error', message: TEXTS.missingKey };

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

/**
 * Whether argv passes the key itself (`--key <clave>`, `--key=<clave>`, `-k <clave>`, `-k<clave>`,
 * or `-k` closing a group of short flags such as `-hk`). A lenient parse that knows `key` consumes its
 * value, so the value is never mistaken for a positional and never reaches an error message.
 */
function keyOnCommandLine(argv: readonly string[]): boolean {
  try {
    const { tokens } = parseArgs({
      args: [...argv],
      strict: false,
      allowPositionals: true,
      tokens: true,
      options: { ...OPTIONS, key: { type: 'string', short: 'k' } },
    });
    return tokens.some((token) => token.kind === 'option' && token.name === 'key');
  } catch {
    // A lenient parse does not throw; if it ever did, fall back to a plain look at the words.
    return argv.some((arg) => arg === '--key' || arg.startsWith('--key=') || /^-k/.test(arg));
  }
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
