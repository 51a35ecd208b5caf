import { useCallback, useMemo, type ReactNode } from 'react';
import { Button } from '@chakra-ui/react';
import type { FieldValues } from 'react-hook-form';
import type { CatalogRows, ListCatalog } from '../api/catalog-api';
import { useCatalogRows } from '../api/queries/catalog-queries';
import { actionsColumn } from '../ui/data-table/actions-column';
import { DataTable } from '../ui/data-table/data-table';
import { EditDeleteButtons, RowActions } from '../ui/data-table/row-actions';
import type { SelectOption } from '../ui/form/form-select-field';
import { PageFrame } from '../ui/layout/page-frame';
import { CatalogFields } from './catalog-fields';
import { CatalogFormDialog } from './catalog-form-dialog';
import type { CatalogScreenSpec } from './catalog-screen-spec';
import { FeedbackHost } from './feedback-host';
import { useCatalogDelete } from './use-catalog-delete';
import { useCatalogForm } from './use-catalog-form';

/** Props of {@link CatalogScreen}. */
export interface CatalogScreenProps<K extends ListCatalog, TValues extends FieldValues, TOutput> {
  /** The screen's declaration (`catalogScreenSpec`, at module level). */
  spec: CatalogScreenSpec<K, TValues, TOutput>;
  /** The route's title (docs/spec.md section 2), also the table's print and PDF title. */
  title: string;
  /** Choices of the selects without fixed ones, by field name (another catalogue's list). */
  options?: Readonly<Record<string, readonly SelectOption[]>>;
  /**
   * Values a new row starts with that only the screen knows at run time, over the spec's `emptyValues`
   * at each opening (the active contest, docs/design.md section 3). Keep it stable (`useMemo`).
   */
  createValues?: Partial<TValues>;
  /** Buttons before 'Editar' and 'Eliminar' in ACCIONES; keep the function stable (`useCallback`). */
  rowButtons?: (row: CatalogRows[K]) => ReactNode;
  /** After a create or edit succeeded, with the values sent; keep it stable (`useCallback`). */
  onSaved?: (values: TOutput) => void;
  /** Controls over the table that narrow its rows (the teams' 'Concurso'). */
  filters?: ReactNode;
  /** The rows the table shows (search, exports and paging included); keep it stable (`useCallback`). */
  rowFilter?: (row: CatalogRows[K]) => boolean;
  /** The screen's other dialogs. */
  children?: ReactNode;
}

/**
 * The shape every catalogue screen shares (docs/spec.md sections 2 and 4): the title and a create button,
 * the live table of the catalogue with ACCIONES ('Editar', 'Eliminar' after a confirmation, plus the
 * screen's own buttons), the create / edit modal with the declared fields, and the modal feedback.
 */
export function CatalogScreen<K extends ListCatalog, TValues extends FieldValues, TOutput>({
  spec,
  title,
  options = {},
  createValues,
  rowButtons,
  filters,
  rowFilter,
  onSaved,
  children,
}: CatalogScreenProps<K, TValues, TOutput>) {
  const { catalog, columns, nameOf, texts, emptyValues: specEmptyValues } = spec;
  const emptyValues = useCallback(
    () => (createValues ? { ...specEmptyValues(), ...createValues } : specEmptyValues()),
    [specEmptyValues, createValues],
  );
  const list = useCatalogRows(catalog);
  const rows = useMemo(() => (rowFilter ? list.rows.filter(rowFilter) : list.rows), [list.rows, rowFilter]);
  const remove = useCatalogDelete(catalog, spec.deleteWarning);
  const dialog = useCatalogForm({
    catalog,
    resolver: spec.resolver,
    emptyValues,
    valuesOf: spec.valuesOf,
    save: spec.save,
    titles: { create: texts.titles[0], update: texts.titles[1] },
    onSaved,
  });
  // Read here, by the form's owner, so its error state re-renders the fields.
  const { errors } = dialog.form.formState;
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
          {spec.headerActions}
          <Button colorPalette="blue" onClick={dialog.openCreate}>
            {texts.add}
          </Button>
        </>
      }
    >
      {filters}
      <DataTable
        data={rows}
        columns={withActions}
        title={title}
        exportName={texts.file}
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
        <CatalogFields fields={spec.fields} dialog={dialog} errors={errors} options={options} />
      </CatalogFormDialog>
      {children}
      <FeedbackHost />
    </PageFrame>
  );
}
