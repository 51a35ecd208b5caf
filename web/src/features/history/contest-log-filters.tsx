import { SimpleGrid } from '@chakra-ui/react';
import type { SelectOption } from '../../ui/form/form-select-field';
import { SelectField } from '../../ui/form/select-field';

/** The three filters' values as the selects hold them ('' for 'Todos'). */
export interface ContestLogFilterValues {
  level: string;
  team: string;
  process: string;
}

/** Props of {@link ContestLogFiltersBar}. */
export interface ContestLogFiltersBarProps {
  values: ContestLogFilterValues;
  onChange: (values: ContestLogFilterValues) => void;
  levels: readonly SelectOption[];
  teams: readonly SelectOption[];
  processes: readonly SelectOption[];
}

/**
 * NIVEL, EQUIPO and PROCESO of /bitacora (issue 13). Choosing a level clears the team: the team
 * list follows the level.
 */
export function ContestLogFiltersBar({
  values,
  onChange,
  levels,
  teams,
  processes,
}: ContestLogFiltersBarProps) {
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="3" role="group" aria-label="Filtros de la bitácora">
      <SelectField
        size="sm"
        emptyOption="Todos"
        label="Nivel"
        value={values.level}
        options={levels}
        onChange={(level) => onChange({ ...values, level, team: '' })}
      />
      <SelectField
        size="sm"
        emptyOption="Todos"
        label="Equipo"
        value={values.team}
        options={teams}
        onChange={(team) => onChange({ ...values, team })}
      />
      <SelectField
        size="sm"
        emptyOption="Todos"
        label="Proceso"
        value={values.process}
        options={processes}
        onChange={(process) => onChange({ ...values, process })}
      />
    </SimpleGrid>
  );
}
