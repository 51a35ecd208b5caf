import { useCallback, useMemo, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { teamInputSchema, type TeamInput, type TeamRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { AgentKeyDialog } from './agent-key-dialog';
import { FormSelectField } from '../../ui/form/form-select-field';
import { FormTextField } from '../../ui/form/form-text-field';
import { RegisterMembersDialog } from './register-members-dialog';
import { RowButton } from '../../ui/data-table/row-actions';
import { TeamMembersDialog } from './team-members-dialog';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useAgentKey } from './use-agent-key';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import { useCatalogList } from '../../api/catalog-cache/use-catalog-list';
import { levelOptions, toOptions } from '../../catalog-screen/select-options';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

const resolver = zodResolver(teamInputSchema);
// Select values are strings; the shared schema turns them into ids.
const emptyValues = () => ({ name: '', coaches_id: '', levels_id: '' });
const valuesOf = (row: TeamRow) => ({
  name: row.name,
  coaches_id: String(row.coaches_id),
  levels_id: String(row.levels_id),
});
// A new team joins the current contest (the server picks it).
const save = (values: TeamInput, editing: TeamRow | null) =>
  editing ? updateCatalogRow('teams', editing.id, values) : createCatalogRow('teams', values);
const TITLES = { create: 'Registrar Equipo', update: 'Editar Equipo' };
/** What else a team's delete takes with it (DESIGN.md section 3), said in the question. */
const DELETE_WARNING = 'También se eliminarán sus integrantes y sus intentos.';

/** Which members dialog is open, for which team (kept while it closes). */
interface MembersDialogState {
  team: TeamRow | null;
  open: 'view' | 'register' | null;
}

const COLUMNS: DataColumn<TeamRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'NOMBRE' },
  { id: 'coach', accessorFn: (row) => row.coach?.name ?? '', header: 'COACH' },
  { id: 'level', accessorFn: (row) => row.level?.level ?? '', header: 'NIVEL' },
  { id: 'contest', accessorFn: (row) => row.contest?.calendar ?? '', header: 'CONCURSO' },
  { id: 'status', accessorFn: (row) => row.status_team?.status ?? '', header: 'ESTATUS' },
];
const nameOf = (row: TeamRow) => row.name;

/**
 * /teams: ID, NOMBRE, COACH, NIVEL, CONCURSO, ESTATUS, ACCIONES ('Ver integrantes', 'Registrar
 * integrantes', 'Clave del agente', 'Editar', 'Eliminar'), 'Registrar equipo' with the 'Registrar Equipo'
 * / 'Editar Equipo' modal (name, coach, level), the members dialogs and the agent key (SPEC.md
 * section 2, DESIGN.md section 6). ESTATUS follows the judges' blocks live.
 */
export function TeamsScene({ title }: CatalogueSceneProps) {
  const coaches = useCatalogList('coaches');
  const levels = useCatalogList('levels');
  const agentKey = useAgentKey();
  const { generate } = agentKey;
  const dialog = useCatalogForm({
    catalog: 'teams',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { errors } = dialog.form.formState;
  const coachOptions = useMemo(() => toOptions(coaches.rows, (row) => row.name), [coaches.rows]);
  const levelChoices = useMemo(() => levelOptions(levels.rows), [levels.rows]);
  const [members, setMembers] = useState<MembersDialogState>({ team: null, open: null });

  const showMembers = useCallback((team: TeamRow) => setMembers({ team, open: 'view' }), []);
  const registerMembers = useCallback((team: TeamRow) => setMembers({ team, open: 'register' }), []);
  const closeMembers = useCallback(() => setMembers((state) => ({ ...state, open: null })), []);

  const rowButtons = useCallback(
    (row: TeamRow) => (
      <>
        <RowButton label="Ver integrantes" palette="teal" onClick={() => showMembers(row)} />
        <RowButton label="Registrar integrantes" onClick={() => registerMembers(row)} />
        <RowButton label="Clave del agente" onClick={() => void generate(row)} />
      </>
    ),
    [showMembers, registerMembers, generate],
  );

  return (
    <CatalogScene
      catalog="teams"
      title={title}
      createLabel="Registrar equipo"
      exportName="equipos"
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      deleteWarning={DELETE_WARNING}
      rowButtons={rowButtons}
      fields={
        <>
          <FormTextField
            label="Nombre"
            error={errors.name?.message}
            registration={dialog.form.register('name')}
          />
          <FormSelectField
            label="Coach"
            placeholder="Seleccione el coach..."
            options={coachOptions}
            error={errors.coaches_id?.message}
            registration={dialog.form.register('coaches_id')}
          />
          <FormSelectField
            label="Nivel"
            placeholder="Seleccione el nivel..."
            options={levelChoices}
            error={errors.levels_id?.message}
            registration={dialog.form.register('levels_id')}
          />
        </>
      }
    >
      <TeamMembersDialog team={members.team} open={members.open === 'view'} onClose={closeMembers} />
      <RegisterMembersDialog team={members.team} open={members.open === 'register'} onClose={closeMembers} />
      <AgentKeyDialog
        shown={agentKey.shown}
        open={agentKey.open}
        onClose={agentKey.close}
        onExitComplete={agentKey.forget}
      />
    </CatalogScene>
  );
}
