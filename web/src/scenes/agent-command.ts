/**
 * The command an admin runs on a team's lab machine (DESIGN.md section 6), with this site's origin as
 * the server and the team's key.
 */
export function agentCommand(origin: string, key: string): string {
  return `npm run agent -- --server ${origin} --key ${key}`;
}
