import { Button, Table } from '@chakra-ui/react';
import { MESSAGES, membersRoutes, type MemberRow, type TeamRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { confirmedDelete } from '../../catalog-screen/confirmed-delete';
import { ListDialog } from '../../catalog-screen/list-dialog';
import { memberCareerName } from './member-labels';
import { teamMembersQuery } from './team-members-query';

/** Props of {@link TeamMembersDialog}. */
export interface TeamMembersDialogProps {
  /** The team shown; kept while the dialog closes so its text does not vanish. */
  team: TeamRow | null;
  open: boolean;
  onClose: () => void;
}

/** `GET /api/deleteMember/{id}` (`membersRoutes.remove`); the member's team's list refetches after it. */
const deleteMember = (member: MemberRow) => callApi(membersRoutes.remove, { params: { id: member.id } });
const membersKeyOf = (member: MemberRow) => teamMembersQuery(member.teams_id).queryKey;

/**
 * 'Ver integrantes': the team's members with name, code, semester and career ('Sin carrera' when none),
 * or 'No se encontraron participantes.'; each can be removed ('Quitar') after a confirmation. Refetches
 * while open when another admin changes the members.
 */
export function TeamMembersDialog({ team, open, onClose }: TeamMembersDialogProps) {
  const removeMember = useInvalidatingMutation(deleteMember, membersKeyOf);
  const remove = (member: MemberRow) =>
    void confirmedDelete({
      name: member.name,
      what: `integrante ${member.id}`,
      remove: () => removeMember(member),
    });
  return (
    <ListDialog
      open={open}
      onClose={onClose}
      size="xl"
      testId="team-members-dialog"
      title={`Integrantes del equipo: ${team?.name ?? ''}`}
      query={team ? teamMembersQuery(team.id) : null}
      emptyText={MESSAGES.noParticipants}
    >
      {(rows) => (
        <Table.Root size="sm" aria-label="Integrantes">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>NOMBRE</Table.ColumnHeader>
              <Table.ColumnHeader>CÓDIGO</Table.ColumnHeader>
              <Table.ColumnHeader>SEMESTRE</Table.ColumnHeader>
              <Table.ColumnHeader>CARRERA</Table.ColumnHeader>
              <Table.ColumnHeader>ACCIONES</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((member) => (
              <Table.Row key={member.id} data-testid={`member-${member.id}`}>
                <Table.Cell>{member.name}</Table.Cell>
                <Table.Cell>{member.code}</Table.Cell>
                <Table.Cell>{member.semester}</Table.Cell>
                <Table.Cell>{memberCareerName(member)}</Table.Cell>
                <Table.Cell>
                  <Button size="xs" colorPalette="red" onClick={() => remove(member)}>
                    Quitar
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </ListDialog>
  );
}
