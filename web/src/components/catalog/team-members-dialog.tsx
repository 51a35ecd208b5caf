import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, Portal, Spinner, Table, Text } from '@chakra-ui/react';
import { MESSAGES, type MemberRow, type TeamRow } from '@concurso/shared';
import { deleteMember, fetchTeamMembers } from '../../api/team-api';
import { confirmedDelete } from '../../hooks/confirmed-delete';
import { memberCareerName } from '../../scenes/catalog-labels';
import { ListWarning, describeListError } from '../../stores/catalog-state';
import { useCatalogStore } from '../../stores/catalog-store';

/** Props of {@link TeamMembersDialog}. */
export interface TeamMembersDialogProps {
  /** The team shown; kept while the dialog closes so its text does not vanish. */
  team: TeamRow | null;
  open: boolean;
  onClose: () => void;
}

interface Loaded {
  teamId: number;
  rows: MemberRow[];
  error: string | null;
}

/**
 * 'Ver integrantes': the team's members with name, code, semester and career ('Sin carrera' when none),
 * or 'No se encontraron participantes.'; each can be removed after a confirmation
 * (`GET /api/deleteMember/{id}`). Refetches while open when another admin changes the members.
 */
export function TeamMembersDialog({ team, open, onClose }: TeamMembersDialogProps) {
  const version = useCatalogStore((state) => state.versions.members);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [reloads, setReloads] = useState(0);
  const teamId = team?.id ?? null;

  useEffect(() => {
    if (!open || teamId === null) return;
    const controller = new AbortController();
    fetchTeamMembers(teamId, controller.signal)
      .then((answer) => {
        if (answer.success === false) throw new ListWarning(answer.message);
        setLoaded({ teamId, rows: answer.data, error: null });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('No se pudieron cargar los integrantes del equipo', error);
        setLoaded({ teamId, rows: [], error: describeListError(error).message });
      });
    return () => controller.abort();
  }, [open, teamId, version, reloads]);

  // Members of another team are never shown, not even for a moment.
  const current = loaded && loaded.teamId === teamId ? loaded : null;

  const remove = (member: MemberRow) =>
    void confirmedDelete({
      name: member.name,
      what: `integrante ${member.id}`,
      remove: () => deleteMember(member.id),
      after: () => setReloads((count) => count + 1),
    });

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      placement="center"
      scrollBehavior="inside"
      size="xl"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="team-members-dialog">
            <Dialog.Header>
              <Dialog.Title>Integrantes del equipo: {team?.name ?? ''}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {!current ? (
                <Spinner size="sm" aria-label="Cargando…" />
              ) : current.error ? (
                <Alert.Root status="error">
                  <Alert.Indicator />
                  <Alert.Title>{current.error}</Alert.Title>
                </Alert.Root>
              ) : current.rows.length === 0 ? (
                <Text color="fg.muted">{MESSAGES.noParticipants}</Text>
              ) : (
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
                    {current.rows.map((member) => (
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
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="blue" onClick={onClose}>
                Cerrar
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
