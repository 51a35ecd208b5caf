import { Button, Table } from '@chakra-ui/react';
import { MESSAGES, membersRoutes, type MemberRow, type TeamRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { confirmedDelete } from '../../catalog-screen/confirmed-delete';
import { memberCareerName } from './member-labels';
import { ListDialog } from '../../catalog-screen/list-dialog';

/** Props of {@link TeamMembersDialog}. */
export interface TeamMembersDialogProps {
  /** The team shown; kept while the dialog closes so its text does not vanish. */
  team: TeamRow | null;
  open: boolean;
  onClose: () => void;
}

/** Asks, then removes one member (`GET /api/deleteMember/{id}`) and refetches the list. */
const remove = (member: MemberRow, reload: () => void) =>
  void confirmedDelete({
    name: member.name,
    what: `integrante ${member.id}`,
    remove: () => callApi(membersRoutes.remove, { params: { id: member.id } }),
    after: reload,
  });

/**
 * 'Ver integrantes': the team's members with name, code, semester and career ('Sin carrera' when none),
 * or 'No se encontraron participantes.'; each can be removed after a confirmation. Refetches while open
 * when another admin changes the members.
 */
export function TeamMembersDialog({ team, open, onClose }: TeamMembersDialogProps) {
  return (
    <ListDialog<MemberRow>
      open={open}
      onClose={onClose}
      size="xl"
      testId="team-members-dialog"
      title={`Integrantes del equipo: ${team?.name ?? ''}`}
      listKey={team ? String(team.id) : null}
      fetchRows={(signal) => callApi(membersRoutes.list, { params: { teamId: team!.id }, signal })}
      follows="members"
      emptyText={MESSAGES.noParticipants}
      what="los integrantes del equipo"
    >
      {(rows, reload) => (
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
                  <Button size="xs" colorPalette="red" onClick={() => remove(member, reload)}>
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
