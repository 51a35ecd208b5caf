import { useMemo, type ReactNode } from 'react';
import { Button } from '@chakra-ui/react';
import type { CatalogRows, ListCatalog } from '../api/catalog-api';
import type { CatalogFormControls } from './use-catalog-form';
import { useCatalogDelete } from './use-catalog-delete';
import { useCatalogList } from '../api/catalog-cache/use-catalog-list';
import { actionsColumn } from '../ui/data-table/actions-column';
import { DataTable } from '../ui/data-table/data-table';
import type { DataColumn } from '../ui/data-table/table-model';
import { CatalogFormDialog } from './catalog-form-dialog';
import { FeedbackHost } from './feedback-host';
import { PageFrame } from '../ui/layout/page-frame';
import { EditDeleteButtons, RowActions } from '../ui/data-table/row-actions';

/** Props of {@link CatalogScene}. */
export interface CatalogSceneProps<K extends ListCatalog> {
  catalog: K;
  /** The screen's title (SPEC.md section 2), also the table's print and PDF title. */
  title: string;
  /** The create button's text, e.g. 'Registrar escuela'. */
  createLabel: string;
  /** File name of the Excel and PDF exports, without extension. */
  exportName: string;
  /** The modal form (`useCatalogForm`) that 'Editar' and the create button open. */
  dialog: CatalogFormControls & {
    openCreate: () => void;
    openEdit: (row: CatalogRows[K]) => void;
  };
  /** The data columns; keep the array stable (module level or memoized). ACCIONES is added here. */
  columns: DataColumn<CatalogRows[K]>[];
  /** The row's name in the delete question. */
  nameOf: (row: CatalogRows[K]) => string;
  /** What else goes with a deleted row, said in the question (a team's members and attempts). */
  deleteWarning?: string;
  /** Buttons before 'Editar' and 'Eliminar' in ACCIONES; keep the function stable (`useCallback`). */
  rowButtons?: (row: CatalogRows[K]) => ReactNode;
  /** Header buttons before the create button. */
  headerActions?: ReactNode;
  /** The modal's fields. */
  fields: ReactNode;
  /** The screen's other dialogs. */
  children?: ReactNode;
}

/**
 * The shape every catalogue screen shares (SPEC.md sections 2 and 4): the title and a create button,
 * the live table of the catalogue with ACCIONES ('Editar', 'Eliminar' after a confirmation, plus the
 * screen's own buttons) and the create/edit modal with the screen's fields.
 */
export function CatalogScene<K extends ListCatalog>({
  catalog,
  title,
  createLabel,
  exportName,
  dialog,
  columns,
  nameOf,
  deleteWarning,
  rowButtons,
  headerActions,
  fields,
  children,
}: CatalogSceneProps<K>) {
  const list = useCatalogList(catalog);
  const remove = useCatalogDelete(catalog, deleteWarning);
  const { openEdit } = dialog;
  const withActions = useMemo(
    () => [
      ...columns,
      actionsColumn<CatalogRows[K]>((row) => (
        <RowActions>
          {rowButtons?.(row)}
          <EditDeleteButtons onEdit={() => openEdit(row)} onDelete={() => void remove(row.id, nameOf(row))} />
        </RowActions>
      )),
    ],
    [columns, rowButtons, openEdit, remove, nameOf],
  );

  return (
    <PageFrame
      title={title}
      actions={
        <>
          {headerActions}
          <Button colorPalette="blue" onClick={dialog.openCreate}>
            {createLabel}
          </Button>
        </>
      }
    >
      <DataTable
        data={list.rows}
        columns={withActions}
        title={title}
        exportName={exportName}
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>{fields}</CatalogFormDialog>
      {children}
      <FeedbackHost />
    </PageFrame>
  );
}
