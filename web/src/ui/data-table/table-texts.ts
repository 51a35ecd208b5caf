/**
 * The Spanish texts of every table, in the wording of the DataTables Spanish translation the product
 * used (docs/spec.md section 2, "Table behaviour"). Templates keep their `_START_`-style placeholders so they
 * read like the spec; the builders below fill them.
 */
export const TABLE_TEXTS = {
  empty: 'No hay registros para mostrar',
  info: 'Mostrando del _START_ al _END_ de _TOTAL_ registros',
  infoEmpty: 'Mostrando del 0 al 0 de 0 registros',
  infoFiltered: '(filtrado de _MAX_ registros en total)',
  lengthMenu: 'Mostrar _MENU_ registros',
  search: 'Buscar:',
  previous: 'Anterior',
  next: 'Siguiente',
  all: 'Todos',
  copied: 'Copiado al portapapeles: _TOTAL_ registros',
} as const;

/** Where the visible page sits in the rows: 1-based first and last row, rows after the search, all rows. */
export interface PageSummary {
  start: number;
  end: number;
  /** Rows left after the search. */
  total: number;
  /** Rows before the search. */
  max: number;
}

/**
 * 'Mostrando del 1 al 5 de 12 registros', 'Mostrando del 0 al 0 de 0 registros' when nothing shows, plus
 * ' (filtrado de 40 registros en total)' when the search hides rows.
 */
export function buildInfoText({ start, end, total, max }: PageSummary): string {
  const main =
    total === 0
      ? TABLE_TEXTS.infoEmpty
      : TABLE_TEXTS.info
          .replace('_START_', String(start))
          .replace('_END_', String(end))
          .replace('_TOTAL_', String(total));
  return total === max ? main : `${main} ${TABLE_TEXTS.infoFiltered.replace('_MAX_', String(max))}`;
}

/** The words around the page-size select of 'Mostrar _MENU_ registros': `['Mostrar', 'registros']`. */
export function lengthMenuParts(): [before: string, after: string] {
  const [before = '', after = ''] = TABLE_TEXTS.lengthMenu.split('_MENU_');
  return [before.trim(), after.trim()];
}

/** The toast after 'Copiar': 'Copiado al portapapeles: 3 registros'. */
export function copiedText(rows: number): string {
  return TABLE_TEXTS.copied.replace('_TOTAL_', String(rows));
}

/** The page-size select's option text: the number, or 'Todos' for -1. */
export function pageSizeLabel(size: number): string {
  return size < 0 ? TABLE_TEXTS.all : String(size);
}
