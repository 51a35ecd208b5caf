/**
 * A catalogue screen as a declaration (docs/spec.md sections 2 and 4): its texts, its columns after ID, its
 * modal's fields and how a row is saved. `catalogScreenSpec` completes what a declaration leaves out
 * (the ID column, the fields' values of a new and of an edited row, the JSON save, the row's name), so
 * a screen only says what is its own. Pure: `CatalogScreen` draws the result.
 */
import type { ReactNode } from 'react';
import type { FieldValues, Path, Resolver } from 'react-hook-form';
import {
  createCatalogRow,
  updateCatalogRow,
  type CatalogInputs,
  type CatalogRows,
  type JsonCatalog,
  type ListCatalog,
} from '../api/catalog-api';
import type { DataColumn } from '../ui/data-table/table-model';
import type { SelectOption } from '../ui/form/form-select-field';
import type { ProgressHandle } from '../stores/feedback-store';
import type { CatalogForm } from './use-catalog-form';

/** The texts of a catalogue screen besides its route's title. */
interface CatalogTexts {
  /** The create button: 'Registrar escuela'. */
  add: string;
  /** The modal's title when creating and when editing: ['Registrar Escuela', 'Editar Escuela']. */
  titles: readonly [create: string, update: string];
  /** Base name of the Excel and PDF exports, without extension: 'escuelas'. */
  file: string;
}

/** A text (date, password, number) input of the modal. */
interface TextFieldSpec<TValues extends FieldValues> {
  name: Path<TValues>;
  /** The visible label; the browser journeys find the field by it. */
  label: string;
  /** 'number' still gives the form a string ('' when empty): the shared schema reads it. */
  type?: 'text' | 'date' | 'password' | 'number';
  placeholder?: string;
  helperText?: string;
  autoComplete?: string;
  /** A new row's value, '' by default. */
  initial?: string;
}

/** A native select of the modal. */
interface SelectFieldSpec<TValues extends FieldValues> {
  kind: 'select';
  name: Path<TValues>;
  label: string;
  /** The empty first choice ('Seleccione…'); none when the field always has a value. */
  placeholder?: string;
  /** Fixed choices; without them the screen passes the choices (another catalogue's list) by name. */
  options?: readonly SelectOption[];
  /** A new row's value, '' by default. */
  initial?: string;
}

/** A part of the modal drawn by the screen itself (a field with its own hooks, a preview). */
type FieldRender<TValues extends FieldValues, TOutput, TRow> = (
  dialog: CatalogForm<TValues, TOutput, TRow>,
) => ReactNode;

/** One entry of the modal, in order. */
export type FieldSpec<TValues extends FieldValues, TOutput, TRow> =
  TextFieldSpec<TValues> | SelectFieldSpec<TValues> | FieldRender<TValues, TOutput, TRow>;

/** Sends the valid values: create when `editing` is null, else update; answers the server's message. */
type SaveRow<TOutput, TRow> = (
  values: TOutput,
  editing: TRow | null,
  progress: ProgressHandle,
) => Promise<{ message?: string }>;

/** What a screen declares; `catalogScreenSpec` fills in the rest. */
interface CatalogDeclaration<K extends ListCatalog, TValues extends FieldValues, TOutput> {
  texts: CatalogTexts;
  /** The columns after ID (ACCIONES is added by the screen). */
  columns: DataColumn<CatalogRows[K]>[];
  fields: FieldSpec<TValues, TOutput, CatalogRows[K]>[];
  /** The row's name in the delete question; its `name` by default. */
  nameOf?: (row: CatalogRows[K]) => string;
  /** What else goes with a deleted row, said in the question (a team's members and attempts). */
  deleteWarning?: string;
  /** Header buttons before the create button. */
  headerActions?: ReactNode;
  /**
   * A new row's fields, computed at each opening; by default each field's `initial` (or ''). Give it
   * (and `valuesOf`) when the fields are not the row's columns as strings.
   */
  emptyValues?: () => TValues;
  /** An edited row's fields; by default each field's column of the row, as a string. */
  valuesOf?: (row: CatalogRows[K]) => TValues;
  /** How a save is sent; the catalogue's JSON create / update by default. */
  save?: SaveRow<TOutput, CatalogRows[K]>;
}

/** A declaration whose save may be left out only when the catalogue saves its form's output as JSON. */
export type CatalogDeclarationFor<
  K extends ListCatalog,
  TValues extends FieldValues,
  TOutput,
> = CatalogDeclaration<K, TValues, TOutput> &
  (K extends JsonCatalog
    ? TOutput extends CatalogInputs[K]
      ? unknown
      : { save: SaveRow<TOutput, CatalogRows[K]> }
    : { save: SaveRow<TOutput, CatalogRows[K]> });

/** A catalogue screen, complete. */
export interface CatalogScreenSpec<K extends ListCatalog, TValues extends FieldValues, TOutput> {
  catalog: K;
  /** The form's rules: `zodResolver(<the shared input schema>)`, the same as the server's. */
  resolver: Resolver<TValues, unknown, TOutput>;
  texts: CatalogTexts;
  /** ID first (every catalogue table of docs/spec.md section 2 starts with it), then the declared ones. */
  columns: DataColumn<CatalogRows[K]>[];
  fields: FieldSpec<TValues, TOutput, CatalogRows[K]>[];
  nameOf: (row: CatalogRows[K]) => string;
  deleteWarning?: string;
  headerActions?: ReactNode;
  emptyValues: () => TValues;
  valuesOf: (row: CatalogRows[K]) => TValues;
  save: SaveRow<TOutput, CatalogRows[K]>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any resolver; its types are read back below
type AnyResolver = Resolver<any, unknown, any>;
/** The form values a resolver takes (the shared schema's input: select values may be strings). */
export type ResolverValues<R extends AnyResolver> = Parameters<R>[0];
/** What a resolver answers for valid values (the schema's output: the request body). */
export type ResolverOutput<R extends AnyResolver> =
  Awaited<ReturnType<R>> extends infer Result
    ? Result extends { values: infer TOutput; errors: Record<string, never> }
      ? TOutput
      : never
    : never;

/**
 * Creates a row of a JSON catalogue (`create…`) when nothing is edited, else updates the edited row
 * (`update…` with its id) (docs/spec.md section 7).
 */
export function saveJson<K extends JsonCatalog>(
  catalog: K,
  input: CatalogInputs[K],
  editing: { id: number } | null,
): Promise<{ message?: string }> {
  return editing ? updateCatalogRow(catalog, editing.id, input) : createCatalogRow(catalog, input);
}

/** The declared fields: not the ones a screen draws itself. */
function declaredFields<TValues extends FieldValues>(
  fields: readonly FieldSpec<TValues, unknown, unknown>[],
): Array<TextFieldSpec<TValues> | SelectFieldSpec<TValues>> {
  return fields.filter((field) => typeof field !== 'function');
}

/**
 * Completes a declaration: call it once per screen at module level, so what it returns stays the same
 * object across renders (the table and the form depend on it). Without `save`, a JSON catalogue is
 * created with `create…` and updated with `update…` and the row's id (docs/spec.md section 7).
 */
export function catalogScreenSpec<K extends ListCatalog, R extends AnyResolver>(
  catalog: K,
  resolver: R,
  // Not a source of inference: the resolver (the shared schema) alone types the values and the output.
  declaration: NoInfer<CatalogDeclarationFor<K, ResolverValues<R>, ResolverOutput<R>>>,
): CatalogScreenSpec<K, ResolverValues<R>, ResolverOutput<R>> {
  type TValues = ResolverValues<R>;
  type TOutput = ResolverOutput<R>;
  type Row = CatalogRows[K];
  const fields = declaredFields(declaration.fields as FieldSpec<TValues, unknown, unknown>[]);
  // Only the default of a JSON catalogue whose form output is its input (CatalogDeclarationFor).
  const jsonSave: SaveRow<TOutput, Row> = (values, editing) =>
    saveJson(catalog as JsonCatalog, values as CatalogInputs[JsonCatalog], editing);
  return {
    catalog,
    // The same function: its types as read back by ResolverValues / ResolverOutput.
    resolver: resolver as unknown as Resolver<TValues, unknown, TOutput>,
    texts: declaration.texts,
    columns: [{ accessorKey: 'id', header: 'ID' }, ...declaration.columns],
    fields: declaration.fields,
    nameOf: declaration.nameOf ?? ((row) => String((row as { name?: unknown }).name ?? '')),
    deleteWarning: declaration.deleteWarning,
    headerActions: declaration.headerActions,
    emptyValues:
      declaration.emptyValues ??
      (() => Object.fromEntries(fields.map((field) => [field.name, field.initial ?? ''])) as TValues),
    valuesOf:
      declaration.valuesOf ??
      ((row) =>
        Object.fromEntries(
          fields.map((field) => [field.name, String((row as Record<string, unknown>)[field.name])]),
        ) as TValues),
    save: declaration.save ?? jsonSave,
  };
}
