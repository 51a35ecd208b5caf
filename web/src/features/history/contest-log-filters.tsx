import { Field, NativeSelect, SimpleGrid } from '@chakra-ui/react';
import type { SelectOption } from '../../ui/form/form-select-field';

/** Props of {@link FilterSelect}. */
interface FilterSelectProps {
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
}

/** One filter of /bitacora: a labelled native select whose first choice, 'Todos' (''), filters nothing. */
function FilterSelect({ label, value, options, onChange }: FilterSelectProps) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          <option value="">Todos</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

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
      <FilterSelect
        label="Nivel"
        value={values.level}
        options={levels}
        onChange={(level) => onChange({ ...values, level, team: '' })}
      />
      <FilterSelect
        label="Equipo"
        value={values.team}
        options={teams}
        onChange={(team) => onChange({ ...values, team })}
      />
      <FilterSelect
        label="Proceso"
        value={values.process}
        options={processes}
        onChange={(process) => onChange({ ...values, process })}
      />
    </SimpleGrid>
  );
}
