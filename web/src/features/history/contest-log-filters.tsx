import { SimpleGrid } from '@chakra-ui/react';
import type { SelectOption } from '../../ui/form/form-select-field';
import { SelectField } from '../../ui/form/select-field';

/** The four filters' values as the selects hold them ('' for 'Todos'). */
export interface ContestLogFilterValues {
  level: string;
  team: string;
  process: string;
  /** «Tipo»: one kind of row (`KIND_FILTER_OPTIONS`). */
  kind: string;
}

/** Props of {@link ContestLogFiltersBar}. */
export interface ContestLogFiltersBarProps {
  values: ContestLogFilterValues;
  onChange: (values: ContestLogFilterValues) => void;
  levels: readonly SelectOption[];
  teams: readonly SelectOption[];
  processes: readonly SelectOption[];
  kinds: readonly SelectOption[];
}

/**
 * TIPO, NIVEL, EQUIPO and PROCESO of /bitacora. Choosing a level clears the team: the team
 * list follows the level. TIPO keeps one kind of row (intentos, estatus, agentes, mensajes, red), so
 * an agent's alert is never pushed off the first page by other rows.
 */
export function ContestLogFiltersBar({
  values,
  onChange,
  levels,
  teams,
  processes,
  kinds,
}: ContestLogFiltersBarProps) {
  // One 'Todos'-first select per filter; `clears` empties the filters that follow this one.
  const select = (
    key: keyof ContestLogFilterValues,
    label: string,
    options: readonly SelectOption[],
    clears: Partial<ContestLogFilterValues> = {},
  ) => (
    <SelectField
      size="sm"
      emptyOption="Todos"
      label={label}
      value={values[key]}
      options={options}
      onChange={(value) => onChange({ ...values, [key]: value, ...clears })}
    />
  );
  return (
    <SimpleGrid columns={{ base: 1, md: 4 }} gap="3" role="group" aria-label="Filtros de la bitácora">
      {select('kind', 'Tipo', kinds)}
      {select('level', 'Nivel', levels, { team: '' })}
      {select('team', 'Equipo', teams)}
      {select('process', 'Proceso', processes)}
    </SimpleGrid>
  );
}
