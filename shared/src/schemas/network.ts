import { z } from 'zod';
import { idSchema } from './common.js';

/**
 * A contest's network policy (docs/design.md section 6a): the destinations the lab machines may
 * reach while the contest is active ("Sitios permitidos"); the contest server and the machine's DNS
 * resolvers are always allowed. Off (empty) by default.
 */

/** Most destinations a contest may allow (a policy stays small on every machine). */
export const NETWORK_MAX_DESTINATIONS = 100;

/**
 * Most bytes the stored list may take (its JSON): with the fingerprints' budget
 * (`AGENT_CONFIG_FINGERPRINT_BYTES`, 48 KB) an agent's config stays under 64 KB (docs/design.md section 6a).
 */
export const NETWORK_MAX_LIST_BYTES = 8 * 1024;

/** One allowed destination, parsed: a host name, an IP address or a network, and maybe a port. */
export type NetworkDestination =
  | { kind: 'host'; host: string; port: number | null }
  | { kind: 'ip'; address: string; version: 4 | 6; port: number | null }
  | { kind: 'cidr'; address: string; prefix: number; version: 4 | 6; port: number | null };

/** Spanish messages of the destinations' checks. */
export const NETWORK_MESSAGES = {
  empty:
    'Escriba un sitio: un nombre (ejemplo.com), una dirección IP o una red (10.0.0.0/8), y si quiere un puerto (:443)',
  badPort: 'El puerto debe ser un número entre 1 y 65535',
  badHost: 'No es un nombre de sitio válido (letras, dígitos, guiones y puntos, como docs.python.org)',
  badNetwork: 'No es una red válida: la dirección y el prefijo (/0 a /32 en IPv4, /0 a /128 en IPv6)',
  tooMany: `Máximo ${NETWORK_MAX_DESTINATIONS} sitios por concurso`,
  tooLong: `La lista de sitios es demasiado larga (máximo ${NETWORK_MAX_LIST_BYTES / 1024} KB): use redes (10.0.0.0/8) en lugar de muchas direcciones`,
  repeated: 'El sitio está repetido',
  noUrl: 'Escriba solo el nombre del sitio, sin http:// ni la ruta (por ejemplo, docs.python.org)',
  local:
    'No hace falta permitir la propia máquina (localhost, 127.0.0.1, ::1): siempre está permitida; escriba solo sitios de fuera',
  portRange: 'Los rangos de puertos no se admiten: escriba un puerto (p. ej. omegaup.com:8080)',
  oneSitePerLine: 'Escriba un sitio por línea (sin comas ni espacios entre sitios)',
  badIp: 'No es una dirección IP válida (cada número de IPv4 va de 0 a 255, como 10.1.2.3)',
} as const;

/** 4 for an IPv4 address, 6 for an IPv6 one, 0 otherwise (no `node:net`: the web uses this too). */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (isIPv4(text)) return 4;
  return isIPv6(text) ? 6 : 0;
}

function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length === 4 && parts.every((part) => /^(0|[1-9][0-9]{0,2})$/.test(part) && Number(part) <= 255)
  );
}

function isIPv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/.test(text) || text.split('::').length > 2) return false;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const groups = (side: string) => (side === '' ? [] : side.split(':'));
  const all = [...groups(head!), ...(tail === null ? [] : groups(tail))];
  // An IPv4 address may end it (`::ffff:10.0.0.1`), standing for two groups.
  const last = all.at(-1) ?? '';
  const v4 = last.includes('.');
  if (v4 && !isIPv4(last)) return false;
  const hex = v4 ? all.slice(0, -1) : all;
  if (!hex.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return false;
  const count = hex.length + (v4 ? 2 : 0);
  return tail === null ? count === 8 : count < 8;
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A port text as a number 1..65535, or null when it is not one. */
function portOf(text: string): number | null {
  if (!/^[0-9]{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : null;
}

/** Why a port text is no port: a range (`8000-8100`, not supported) or anything else. */
function portProblem(text: string): string {
  return /^[0-9]+-[0-9]+$/.test(text) ? NETWORK_MESSAGES.portRange : NETWORK_MESSAGES.badPort;
}

/**
 * Whether `text` is meant as an IP address though it is none: digits and dots only ('300.1.2.3',
 * '10.0.0.256', '10.1.2'), or hexadecimal digits, dots and colons ('2001:db8:::1', an IPv6 address
 * mistyped; a name's single port was split off before).
 */
function looksLikeAddress(text: string): boolean {
  return /^[0-9.]+$/.test(text) || (text.includes(':') && /^[0-9a-f:.]+$/.test(text));
}

/**
 * Whether an address or network starts in the machine's own loopback (127.0.0.0/8, ::1): the agent
 * always allows it, so a list never needs it.
 */
function isLoopback(address: string, version: 4 | 6): boolean {
  return version === 4 ? address.startsWith('127.') : address === '::1';
}

/**
 * Parses one destination as an admin writes it: `ejemplo.com`, `ejemplo.com:443`, `10.1.2.3`,
 * `10.1.2.3:8080`, `10.0.0.0/8`, `2001:db8::1`, `[2001:db8::1]:443`, `2001:db8::/32`. Host names are
 * lower-cased. Answers the destination or the Spanish reason it is not one, as precise as the text
 * allows (`NETWORK_MESSAGES`): two sites on a line, a port range, a mistyped address, the machine
 * itself (localhost and loopback are always allowed) each have their own.
 */
export function parseDestination(raw: string): NetworkDestination | string {
  const text = raw.trim().toLowerCase();
  if (text === '') return NETWORK_MESSAGES.empty;
  if (text.includes('://')) return NETWORK_MESSAGES.noUrl;
  // Two sites on one line ('a.com, b.com', 'a.com b.com').
  if (/[,;\s]/.test(text)) return NETWORK_MESSAGES.oneSitePerLine;
  let rest = text;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(rest);
  if (bracketed) {
    rest = bracketed[1]!;
    if (bracketed[2] !== undefined) {
      port = portOf(bracketed[2]);
      if (port === null) return portProblem(bracketed[2]);
    }
    if (ipVersion(rest) !== 6) return NETWORK_MESSAGES.badHost;
  } else if (!rest.includes('/') && rest.split(':').length === 2) {
    // host:port or IPv4:port (an IPv6 address has more than one colon).
    const [host, portText] = rest.split(':') as [string, string];
    port = portOf(portText);
    if (port === null) return portProblem(portText);
    rest = host;
  }
  const slash = rest.indexOf('/');
  if (slash !== -1) {
    const address = rest.slice(0, slash);
    const prefixText = rest.slice(slash + 1);
    const version = ipVersion(address);
    // A name with a path ('docs.python.org/3/'): a URL's piece, not a network.
    if (version === 0)
      return looksLikeAddress(address) ? NETWORK_MESSAGES.badNetwork : NETWORK_MESSAGES.noUrl;
    if (isLoopback(address, version)) return NETWORK_MESSAGES.local;
    const max = version === 4 ? 32 : 128;
    if (!/^[0-9]{1,3}$/.test(prefixText) || Number(prefixText) > max) return NETWORK_MESSAGES.badNetwork;
    return { kind: 'cidr', address, prefix: Number(prefixText), version: version as 4 | 6, port };
  }
  const version = ipVersion(rest);
  if (version !== 0)
    return isLoopback(rest, version)
      ? NETWORK_MESSAGES.local
      : { kind: 'ip', address: rest, version: version as 4 | 6, port };
  if (looksLikeAddress(rest)) return NETWORK_MESSAGES.badIp;
  const host = rest.endsWith('.') ? rest.slice(0, -1) : rest;
  if (host === 'localhost' || host.endsWith('.localhost')) return NETWORK_MESSAGES.local;
  const labels = host.split('.');
  if (
    host.length > 253 ||
    labels.length < 2 ||
    !labels.every((label) => HOST_LABEL.test(label)) ||
    /^[0-9]+$/.test(labels.at(-1)!)
  ) {
    return NETWORK_MESSAGES.badHost;
  }
  return { kind: 'host', host, port };
}

/** A destination as it is stored and shown: `ejemplo.com:443`, `10.0.0.0/8`, `[2001:db8::1]:443`. */
export function destinationText(destination: NetworkDestination): string {
  const base =
    destination.kind === 'host'
      ? destination.host
      : destination.kind === 'cidr'
        ? `${destination.address}/${destination.prefix}`
        : destination.address;
  if (destination.port === null) return base;
  return destination.kind === 'ip' && destination.version === 6
    ? `[${base}]:${destination.port}`
    : `${base}:${destination.port}`;
}

/**
 * The allowed sites of a contest as the admin sends them (the contest form's «Sitios permitidos»):
 * at most `NETWORK_MAX_DESTINATIONS`, each one a destination (`parseDestination`), none repeated;
 * answered in their stored form (`destinationText`). Errors are on the entry's index.
 */
export const allowedSitesSchema = z
  .array(z.string({ error: NETWORK_MESSAGES.empty }).max(300, { error: NETWORK_MESSAGES.badHost }), {
    error: NETWORK_MESSAGES.empty,
  })
  .max(NETWORK_MAX_DESTINATIONS, { error: NETWORK_MESSAGES.tooMany })
  .transform((entries, ctx) => {
    const out: string[] = [];
    entries.forEach((entry, index) => {
      const parsed = parseDestination(entry);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed, path: [index] });
        return;
      }
      const text = destinationText(parsed);
      if (out.includes(text))
        ctx.addIssue({ code: 'custom', message: NETWORK_MESSAGES.repeated, path: [index] });
      else out.push(text);
    });
    if (new TextEncoder().encode(JSON.stringify(out)).length > NETWORK_MAX_LIST_BYTES)
      ctx.addIssue({ code: 'custom', message: NETWORK_MESSAGES.tooLong, path: [] });
    return out;
  });

/**
 * `POST /api/updateAllowedSites {contests_id, allowed_sites}` (admin): replaces a contest's
 * allowed sites (the «Sitios permitidos» dialog of the contests table).
 */
export const allowedSitesInputSchema = z.object({
  contests_id: idSchema,
  allowed_sites: allowedSitesSchema,
});
export type AllowedSitesInput = z.infer<typeof allowedSitesInputSchema>;

/**
 * The allowed sites as the form's text area holds them, one per line: blank lines dropped, each line
 * trimmed (the schema then checks them).
 */
export const allowedSitesLines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** What the contest form and the dialog say is always allowed, besides the list. */
export const ALWAYS_ALLOWED_TEXT =
  'Siempre están permitidos el servidor del concurso y los servidores DNS de cada máquina.';

/**
 * A network policy as the agents get it: its version and the destinations (stored form),
 * empty while the contest is not the active one or has no list (the agent then lifts its rules).
 */
export const agentNetworkPolicySchema = z.object({
  version: z.number().int().min(0),
  allowed: z.array(z.string()),
});
export type AgentNetworkPolicy = z.infer<typeof agentNetworkPolicySchema>;

/**
 * Most allowed host names a machine reports as not resolved (the first ones of the list, in its
 * order): what the heartbeat carries, the server stores and /laboratorio shows
 * («red: v3 aplicada en parte: no se resolvió …»). A lab machine is in a contestant's hands, so the
 * server keeps no more than this whatever it is sent.
 */
export const NETWORK_UNRESOLVED_MAX = 10;

/**
 * One host name a machine could not resolve, as the heartbeat says it: a host name's characters only
 * (lower-case letters, digits, `-` and `.`; what `parseDestination` stores), at most 253 (DNS's limit).
 */
export const unresolvedHostSchema = z
  .string()
  .max(253)
  .regex(/^[a-z0-9.-]+$/);

/**
 * The allowed host names a machine's network policy left out because they did not resolve (heartbeat,
 * `network_unresolved`): at most `NETWORK_UNRESOLVED_MAX`, each `unresolvedHostSchema`.
 */
export const networkUnresolvedSchema = z.array(unresolvedHostSchema).max(NETWORK_UNRESOLVED_MAX);

/**
 * How a machine's policy in force filters an allowed host name (heartbeat, `network_filter`): `name`
 * by the name itself (Linux: TLS SNI and HTTP Host, DNS through the agent's forwarder), `address` only
 * by the addresses it resolved to (Windows: every site sharing those addresses is reachable too).
 */
export const NETWORK_FILTERS = ['name', 'address'] as const;
export type NetworkFilter = (typeof NETWORK_FILTERS)[number];
