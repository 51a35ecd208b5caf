import type { ApiOk, MemberInput, MemberRow } from '@concurso/shared';
import { apiRequest } from './api-client';
import type { DeleteAnswer, ListAnswer } from './catalog-api';

/** `GET /api/getParticipantTeam/{teamId}`: a team's members with `career.name` (null: 'Sin carrera'). */
export function fetchTeamMembers(teamId: number, signal?: AbortSignal): Promise<ListAnswer<MemberRow>> {
  return apiRequest<ListAnswer<MemberRow>>(`/api/getParticipantTeam/${teamId}`, { signal });
}

/**
 * `POST /api/createMember` with the whole list of one team: saved all or none; 409 names the team that
 * already has one of the codes. Answers the team's members.
 */
export function createMembers(members: MemberInput[]): Promise<ApiOk<MemberRow[]>> {
  return apiRequest<ApiOk<MemberRow[]>>('/api/createMember', { method: 'POST', body: members });
}

/** `GET /api/deleteMember/{id}`: removes one member from its team. */
export function deleteMember(id: number): Promise<DeleteAnswer> {
  return apiRequest<DeleteAnswer>(`/api/deleteMember/${id}`);
}

/** What `POST /api/generateAgentKey/{teamId}` answers in `data`: the key, shown once. */
export interface AgentKeyAnswer {
  key: string;
  teams_id: number;
}

/** `POST /api/generateAgentKey/{teamId}`: a new key for the team's agent; the previous one stops working. */
export function generateAgentKey(teamId: number): Promise<ApiOk<AgentKeyAnswer>> {
  return apiRequest<ApiOk<AgentKeyAnswer>>(`/api/generateAgentKey/${teamId}`, { method: 'POST' });
}
