/** Every entity of docs/design.md section 3, for the ORM's discovery. */
export { TypeUser } from '../modules/users/type-user.entity.js';
export { User } from '../modules/users/user.entity.js';
export { Level } from '../modules/levels/level.entity.js';
export { School } from '../modules/schools/school.entity.js';
export { Departament } from '../modules/departaments/departament.entity.js';
export { Career } from '../modules/careers/career.entity.js';
export { Coach } from '../modules/coaches/coach.entity.js';
export { Contest } from '../modules/contests/contest.entity.js';
export { Process } from '../modules/processes/process.entity.js';
export { ContestProcess } from '../modules/contests/contest-process.entity.js';
export { StatusTeam } from '../modules/teams/status-team.entity.js';
export { Team } from '../modules/teams/team.entity.js';
export { Member } from '../modules/members/member.entity.js';

import { TypeUser } from '../modules/users/type-user.entity.js';
import { User } from '../modules/users/user.entity.js';
import { Level } from '../modules/levels/level.entity.js';
import { School } from '../modules/schools/school.entity.js';
import { Departament } from '../modules/departaments/departament.entity.js';
import { Career } from '../modules/careers/career.entity.js';
import { Coach } from '../modules/coaches/coach.entity.js';
import { Contest } from '../modules/contests/contest.entity.js';
import { Process } from '../modules/processes/process.entity.js';
import { ProcessFingerprint } from '../modules/fingerprints/process-fingerprint.entity.js';
import { ProcessFingerprintClaim } from '../modules/fingerprints/process-fingerprint-claim.entity.js';
import { ProcessFingerprintDenial } from '../modules/fingerprints/process-fingerprint-denial.entity.js';
import { ContestProcess } from '../modules/contests/contest-process.entity.js';
import { ContestPermittedProcess } from '../modules/contests/contest-permitted-process.entity.js';
import { StatusTeam } from '../modules/teams/status-team.entity.js';
import { Team } from '../modules/teams/team.entity.js';
import { Member } from '../modules/members/member.entity.js';
import { Exercise } from '../modules/exercises/exercise.entity.js';
import { Attempt } from '../modules/agent/attempt.entity.js';
import { ObservedProcess } from '../modules/observed/observed-process.entity.js';
import { TeamStatusChange } from '../modules/teams/team-status-change.entity.js';
import { RevokedToken } from '../modules/auth/revoked-token.entity.js';
import { TeamImport } from '../modules/imports/team-import.entity.js';
import { AgentEvent } from '../modules/agent/agent-event.entity.js';
import { AgentMachine } from '../modules/agent/agent-machine.entity.js';
import { Message } from '../modules/messages/message.entity.js';
import { MessageReceipt } from '../modules/messages/message-receipt.entity.js';
import { ContestNetworkChange } from '../modules/contests/contest-network-change.entity.js';
import { Capture } from '../modules/captures/capture.entity.js';
import { CaptureRequest } from '../modules/captures/capture-request.entity.js';
import { ContestChainHead, ContestChainLink } from '../modules/chain/chain-link.entity.js';

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
  ProcessFingerprint,
  ProcessFingerprintClaim,
  ProcessFingerprintDenial,
  ContestProcess,
  ContestPermittedProcess,
  StatusTeam,
  Team,
  Member,
  Exercise,
  Attempt,
  ObservedProcess,
  TeamStatusChange,
  RevokedToken,
  TeamImport,
  AgentEvent,
  AgentMachine,
  Message,
  MessageReceipt,
  ContestNetworkChange,
  Capture,
  CaptureRequest,
  ContestChainLink,
  ContestChainHead,
];
