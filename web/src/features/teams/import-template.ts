import {
  IMPORT_COLUMNS,
  IMPORT_EXAMPLE_TEAM,
  careerLabel,
  type CareerRow,
  type CoachRow,
  type LevelRow,
} from '@concurso/shared';
import type { ExportCell } from '../../ui/data-table/export-data';
import { downloadXlsx, writeWorkbook, type WorkbookSheet } from '../../ui/data-table/export-excel';

/** The template's file name, without extension. */
const IMPORT_TEMPLATE_NAME = 'plantilla-equipos';

/** The catalogues the template lists, as their lists answer them. */
export interface TemplateCatalogs {
  levels: readonly LevelRow[];
  coaches: readonly CoachRow[];
  careers: readonly CareerRow[];
}

/** The template's header row: the columns of a registration file, in order (Equipo … Carrera). */
export function importTemplateHeaders(): string[] {
  return IMPORT_COLUMNS.map((column) => column.header);
}

/** A career as a file may name it: with its departament (`careerLabel`, always accepted). */
const careerText = (career: CareerRow) => careerLabel(career.name, career.departament?.name);

/**
 * The sheets of 'Descargar plantilla': 'Equipos', the headers and one example row
 * (team `IMPORT_EXAMPLE_TEAM`, which the import refuses if it is left in, with the catalogues' first
 * level, coach and career), and 'Catálogos', the valid levels, coaches and careers (a career with its
 * departament, as the import accepts it when two departaments share a name) side by side.
 */
export function importTemplateSheets({ levels, coaches, careers }: TemplateCatalogs): WorkbookSheet[] {
  const example: ExportCell[] = [
    IMPORT_EXAMPLE_TEAM,
    levels[0]?.level ?? '',
    coaches[0]?.name ?? '',
    '219000001',
    'Ana López Pérez',
    3,
    careers[0] ? careerText(careers[0]) : '',
  ];
  const columns = [levels.map((row) => row.level), coaches.map((row) => row.name), careers.map(careerText)];
  const length = Math.max(...columns.map((column) => column.length));
  const listed = Array.from({ length }, (_, i) => columns.map((column) => column[i] ?? ''));
  return [
    { name: 'Equipos', data: { headers: importTemplateHeaders(), rows: [example] } },
    { name: 'Catálogos', data: { headers: ['Nivel', 'Coach', 'Carrera'], rows: listed } },
  ];
}

/** 'Descargar plantilla': writes {@link importTemplateSheets} with exceljs (loaded only now) and downloads it. */
export async function downloadImportTemplate(catalogs: TemplateCatalogs): Promise<void> {
  const bytes = await writeWorkbook(importTemplateSheets(catalogs), 'Plantilla de equipos');
  downloadXlsx(bytes, `${IMPORT_TEMPLATE_NAME}.xlsx`);
}
