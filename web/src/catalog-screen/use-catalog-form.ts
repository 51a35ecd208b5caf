import { useCallback, useState, type FormEvent } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { MESSAGES } from '@concurso/shared';
import type { ListCatalog } from '../api/catalog-api';
import { toaster } from '../ui/toaster';
import { catalogListKey } from '../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../api/queries/use-invalidating-mutation';
import { useFeedbackStore, type ProgressHandle } from '../stores/feedback-store';
import { isAbortError } from '../api/upload-request';
import { describeSaveFailure, saveFailureText, type FormMode } from './catalog-failures';
import { showSaveFailure, submitOrWarn } from './form-feedback';

/** What a catalogue's create / edit form needs. */
export interface CatalogFormOptions<TValues extends FieldValues, TOutput, TRow> {
  /** The catalogue saved (its list refetches, its failure texts apply). */
  catalog: ListCatalog;
  /** `zodResolver(<the shared input schema>)`: the same rules as the server. */
  resolver: Resolver<TValues, unknown, TOutput>;
  /** The fields of a new row, computed at each opening (a contest's date is today's). */
  emptyValues: () => TValues;
  /** The fields of a row being edited. */
  valuesOf: (row: TRow) => TValues;
  /**
   * Sends the valid values (create when `editing` is null, else update); answers the server's message.
   * An upload reports its progress and offers 'Cancelar' through `progress`.
   */
  save: (values: TOutput, editing: TRow | null, progress: ProgressHandle) => Promise<{ message?: string }>;
  /** 'Registrar Escuela' / 'Editar Escuela'. */
  titles: { create: string; update: string };
  /** After a save succeeded, with the values sent (the teams' filter follows a team's contest). */
  onSaved?: (values: TOutput) => void;
}

/** What the modal frame needs of a form, whatever its fields. */
export interface CatalogFormControls {
  open: boolean;
  title: string;
  submitting: boolean;
  submit: (event?: FormEvent<HTMLFormElement>) => Promise<void>;
  close: () => void;
  /** After the closing animation: resets the fields and the validation state. */
  afterClose: () => void;
}

/** The state and actions of a catalogue form modal. */
export interface CatalogForm<TValues extends FieldValues, TOutput, TRow> extends CatalogFormControls {
  form: UseFormReturn<TValues, unknown, TOutput>;
  mode: FormMode;
  /** The row being edited; null when creating. */
  editing: TRow | null;
  openCreate: () => void;
  openEdit: (row: TRow) => void;
}

/**
 * The shared behaviour of every catalogue modal (docs/spec.md sections 4 and 5): create and edit modes,
 * validation by the shared zod schema with 'Este campo es requerido' under each field, the 'Información'
 * warning on an invalid submit, server 422 messages mapped onto the fields, 'Procesando…' while saving,
 * 'Registrado' / 'Guardado' on success (then the modal closes and resets; the save is a mutation
 * after which the list refetches), and the docs/spec.md section 8 failure texts (or the server's own text
 * of a duplicate, a missing row or a refused file). An upload shows its progress, and 'Cancelar'
 * aborts it leaving the modal open.
 */
export function useCatalogForm<TValues extends FieldValues, TOutput, TRow>(
  options: CatalogFormOptions<TValues, TOutput, TRow>,
): CatalogForm<TValues, TOutput, TRow> {
  const { catalog, resolver, emptyValues, valuesOf, save, titles, onSaved } = options;
  const form = useForm<TValues, unknown, TOutput>({
    resolver,
    defaultValues: emptyValues() as DefaultValues<TValues>,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<TRow | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const mode: FormMode = editing ? 'update' : 'create';
  const saveRow = useInvalidatingMutation(
    (job: { values: TOutput; editing: TRow | null; progress: ProgressHandle }) =>
      save(job.values, job.editing, job.progress),
    () => catalogListKey(catalog),
  );

  const openCreate = useCallback(() => {
    form.reset(emptyValues());
    setEditing(null);
    setOpen(true);
  }, [form, emptyValues]);

  const openEdit = useCallback(
    (row: TRow) => {
      form.reset(valuesOf(row));
      setEditing(row);
      setOpen(true);
    },
    [form, valuesOf],
  );

  const close = useCallback(() => setOpen(false), []);
  const afterClose = useCallback(() => {
    form.reset(emptyValues());
    setEditing(null);
  }, [form, emptyValues]);

  const onValid = async (values: TOutput) => {
    const saveMode: FormMode = editing ? 'update' : 'create';
    const feedback = useFeedbackStore.getState();
    setSubmitting(true);
    try {
      const answer = await feedback.withProgress((progress) => saveRow({ values, editing, progress }));
      toaster.create({
        type: 'success',
        title: answer.message || (saveMode === 'create' ? MESSAGES.created : MESSAGES.saved),
        duration: 2500,
      });
      setOpen(false);
      onSaved?.(values);
    } catch (error) {
      if (isAbortError(error)) {
        // The user pressed 'Cancelar': the modal stays open with what they chose.
        toaster.create({ type: 'info', title: 'Se canceló la carga del archivo.', duration: 2500 });
        return;
      }
      console.error(`No se pudo guardar (${catalog})`, error);
      const fields = Object.keys(form.getValues());
      showSaveFailure(form, describeSaveFailure(error, saveFailureText(catalog, saveMode), fields));
    } finally {
      setSubmitting(false);
    }
  };

  const submit = submitOrWarn(form, onValid);

  return {
    form,
    open,
    mode,
    title: mode === 'create' ? titles.create : titles.update,
    editing,
    submitting,
    openCreate,
    openEdit,
    close,
    afterClose,
    submit,
  };
}
