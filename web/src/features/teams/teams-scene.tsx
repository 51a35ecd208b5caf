import { useCallback, useState } from 'react';
import { Box } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { teamInputSchema, type CoachRow, type TeamRow } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useCatalogOptions, useLevelOptions } from '../../catalog-screen/use-catalog-options';
import { useContestOptions } from '../../catalog-screen/use-contest-options';
import { useRowDialog } from '../../catalog-screen/use-row-dialog';
import { RowButton } from '../../ui/data-table/row-actions';
import { SelectField } from '../../ui/form/select-field';
import { AgentKeyDialog } from './agent-key-dialog';
import { ImportTeamsButton } from './import-teams-button';
import { RegisterMembersDialog } from './register-members-dialog';
import { TeamMembersDialog } from './team-members-dialog';
import { useAgentKey } from './use-agent-key';

const coachName = (row: CoachRow) => row.name;

// A new team joins the contest chosen in 'Concurso', the active one by default.
const TEAMS = catalogScreenSpec('teams', zodResolver(teamInputSchema), {
  texts: { add: 'Registrar equipo', titles: ['Registrar Equipo', 'Editar Equipo'], file: 'equipos' },
  columns: [
    { accessorKey: 'name', header: 'NOMBRE' },
    { id: 'coach', accessorFn: (row) => row.coach?.name ?? '', header: 'COACH' },
    { id: 'level', accessorFn: (row) => row.level?.level ?? '', header: 'NIVEL' },
    { id: 'contest', accessorFn: (row) => row.contest?.calendar ?? '', header: 'CONCURSO' },
    { id: 'status', accessorFn: (row) => row.status_team?.status ?? '', header: 'ESTATUS' },
  ],
  // What else a team's delete takes with it (docs/design.md section 3), said in the question.
  deleteWarning: 'También se eliminarán sus integrantes y sus intentos.',
  // Bulk import of teams and members from a registration file.
  headerActions: <ImportTeamsButton />,
  fields: [
    { name: 'name', label: 'Nombre' },
    { kind: 'select', name: 'coaches_id', label: 'Coach', placeholder: 'Seleccione el coach...' },
    { kind: 'select', name: 'levels_id', label: 'Nivel', placeholder: 'Seleccione el nivel...' },
    { kind: 'select', name: 'contests_id', label: 'Concurso', placeholder: 'Seleccione el concurso...' },
  ],
});

/**
 * /teams: ID, NOMBRE, COACH, NIVEL, CONCURSO, ESTATUS, ACCIONES ('Ver integrantes', 'Registrar
 * integrantes', 'Clave del agente', 'Editar', 'Eliminar'), 'Registrar equipo' with the 'Registrar Equipo'
 * / 'Editar Equipo' modal (name, coach, level, and contest: the active one by default), the
 * members dialogs and the agent key (docs/spec.md section 2, docs/design.md section 6). ESTATUS follows the
 * judges' blocks live. 'Concurso' over the table shows one contest's teams, the active one first, or
 * all of them; 'Importar' and 'Importaciones' import a registration file and undo an import.
 */
export function TeamsScene({ title }: CatalogueSceneProps) {
  const coaches = useCatalogOptions('coaches', coachName);
  const levels = useLevelOptions();
  const contests = useContestOptions();
  // 'Concurso' over the table (every contest's teams together made 550 rows): the active
  // contest until the admin chooses another or 'Todos los concursos' (''); null while not chosen.
  const [chosenContest, setChosenContest] = useState<string | null>(null);
  const shownContest = chosenContest ?? contests.active;
  const rowFilter = useCallback(
    (row: TeamRow) => shownContest === '' || String(row.contests_id) === shownContest,
    [shownContest],
  );
  // A team saved into another contest than the one shown: show that contest, so it does not vanish.
  const followSaved = useCallback(
    ({ contests_id }: { contests_id?: number | null }) => {
      if (contests_id && shownContest !== '' && String(contests_id) !== shownContest)
        setChosenContest(String(contests_id));
    },
    [shownContest],
  );
  const agentKey = useAgentKey();
  const { generate } = agentKey;
  const members = useRowDialog<TeamRow, 'view' | 'register'>();
  const { show } = members;
  const rowButtons = useCallback(
    (row: TeamRow) => (
      <>
        <RowButton label="Ver integrantes" palette="teal" onClick={() => show('view', row)} />
        <RowButton label="Registrar integrantes" onClick={() => show('register', row)} />
        <RowButton label="Clave del agente" onClick={() => void generate(row)} />
      </>
    ),
    [show, generate],
  );

  return (
    <CatalogScreen
      spec={TEAMS}
      title={title}
      options={{ coaches_id: coaches, levels_id: levels, contests_id: contests.options }}
      createValues={contests.createValues}
      rowButtons={rowButtons}
      rowFilter={rowFilter}
      onSaved={followSaved}
      filters={
        <Box maxW="xs" data-testid="teams-contest-filter">
          <SelectField
            label="Concurso"
            size="sm"
            value={shownContest}
            options={contests.options}
            emptyOption="Todos los concursos"
            onChange={setChosenContest}
          />
        </Box>
      }
    >
      <TeamMembersDialog team={members.row} open={members.open === 'view'} onClose={members.close} />
      <RegisterMembersDialog team={members.row} open={members.open === 'register'} onClose={members.close} />
      <AgentKeyDialog
        shown={agentKey.shown}
        open={agentKey.open}
        onClose={agentKey.close}
        onExitComplete={agentKey.forget}
        serverText={agentKey.serverText}
        onServerTextChange={agentKey.setServerText}
      />
    </CatalogScreen>
  );
}
