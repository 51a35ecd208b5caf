/** Every entity of DESIGN.md section 3, for the ORM's discovery. */
export { TypeUser } from './type-user.entity.js';
export { User } from './user.entity.js';
export { Level } from './level.entity.js';
export { School } from './school.entity.js';
export { Departament } from './departament.entity.js';
export { Career } from './career.entity.js';
export { Coach } from './coach.entity.js';
export { Contest } from './contest.entity.js';
export { Process } from './process.entity.js';
export { ContestProcess } from './contest-process.entity.js';
export { StatusTeam } from './status-team.entity.js';
export { Team } from './team.entity.js';
export { Member } from './member.entity.js';
export { Exercise } from './exercise.entity.js';
export { Attempt } from './attempt.entity.js';
export { TeamStatusChange } from './team-status-change.entity.js';
export { RevokedToken } from './revoked-token.entity.js';

import { TypeUser } from './type-user.entity.js';
import { User } from './user.entity.js';
import { Level } from './level.entity.js';
import { School } from './school.entity.js';
import { Departament } from './departament.entity.js';
import { Career } from './career.entity.js';
import { Coach } from './coach.entity.js';
import { Contest } from './contest.entity.js';
import { Process } from './process.entity.js';
import { ContestProcess } from './contest-process.entity.js';
import { StatusTeam } from './status-team.entity.js';
import { Team } from './team.entity.js';
import { Member } from './member.entity.js';
import { Exercise } from './exercise.entity.js';
import { Attempt } from './attempt.entity.js';
import { TeamStatusChange } from './team-status-change.entity.js';
import { RevokedToken } from './revoked-token.entity.js';

export const entities = [
  TypeUser,
  User,
  Level,
  School,
  Departament,
  Career,
  Coach,
  Contest,
  Process,
  ContestProcess,
  StatusTeam,
  Team,
  Member,
  Exercise,
  Attempt,
  TeamStatusChange,
  RevokedToken,
];
