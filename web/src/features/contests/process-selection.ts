import { MESSAGES, type ProcessRow } from '@concurso/shared';
import { normalizeForSearch } from '../../ui/data-table/search-normalize';

/** 'Seleccionaste: ' followed by the chosen names, comma separated, in the list's order. */
export function selectedSummary(processes: readonly ProcessRow[], selected: ReadonlySet<number>): string {
  const names = processes.filter((process) => selected.has(process.id)).map((process) => process.name);
  return `${MESSAGES.selectedPrefix}${names.join(', ')}`;
}

const byName = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** The processes whose name contains the search (accents and case ignored), sorted by name. */
export function filterProcesses(processes: readonly ProcessRow[], search: string): ProcessRow[] {
  const wanted = normalizeForSearch(search);
  return processes
    .filter((process) => wanted === '' || normalizeForSearch(process.name).includes(wanted))
    .sort((a, b) => byName.compare(a.name, b.name));
}
