/** Where the command saves the key: the user's home, so it works from any folder and stays out of the project. */
export const AGENT_KEY_FILE = '~/concurso-agent.key';

/** `text` quoted for a POSIX shell: inside single quotes nothing is expanded. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The command an admin runs on a team's lab machine (DESIGN.md section 6), with this site's origin as
 * the server. The key never goes on the agent's command line (the process list would show it): the
 * command first saves it to `~/concurso-agent.key` readable only by its owner (`umask 077` in a
 * subshell, so the rest of the session keeps its umask; `printf` is a shell builtin, so the key does
 * not show in the process list either), then runs the agent with `--key-file`. One line, because the
 * dialog shows it in a one-line field; POSIX shells only (Windows steps are in agent/README.md).
 */
export function agentCommand(origin: string, key: string): string {
  return (
    `(umask 077; printf '%s' ${shellQuote(key)} > ${AGENT_KEY_FILE}) && ` +
    `npm run agent -- --server ${origin} --key-file ${AGENT_KEY_FILE}`
  );
}
