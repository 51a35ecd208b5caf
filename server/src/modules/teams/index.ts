/**
 * The teams module's public face: teams, their status and the one writer of a team's
 * board row. app.ts registers what it exports; another module imports it from here only (lint:
 * boundaries/dependencies). The rest of the folder is private to the module.
 */
export { boardRows, boardRowsStatement, readBoardRows } from './board-rows.repository.js';
export {
  addAttemptCountsStatement,
  changeTeamStatus,
  clearNewProgramMarks,
  lockTeam,
  markAgentSeen,
  markAgentsOffline,
  setAgentPresence,
  setNewProgramMark,
} from './team-row-writer.js';
export type { NewProgramMark } from './team-row-writer.js';
export { agentTeams, labTeams, setAgentKeyHash, teamByAgentKeyHash } from './team-agent-keys.repository.js';
export {
  lockAgentPresence,
  lockAgentTeams,
  lockSilentAgents,
  lockStoppedAgents,
  touchOnlineAgentStatement,
} from './team-agent-presence.repository.js';
export type { AgentPresence } from './team-agent-presence.repository.js';
export { lockTeamContestsStatement, readTeamContests } from './attempt-teams.repository.js';
export type { TeamContest } from './attempt-teams.repository.js';
export { TeamStatusChange } from './team-status-change.entity.js';
export { Team } from './team.entity.js';
export type { ITeam } from './team.entity.js';
export {
  deleteTeams,
  findContestTeamNames,
  insertTeams,
  lockImportedTeams,
  requireTeam,
  teamUsages,
} from './teams.repository.js';
export type { ImportedTeam } from './teams.repository.js';
export { default as teamsRoutes } from './teams.routes.js';
