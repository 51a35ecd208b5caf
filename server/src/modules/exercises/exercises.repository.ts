import { LockMode, type Loaded } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { ExerciseRow } from '@concurso/shared';
import { fieldError } from '../../lib/http-error.js';
import type { CatalogUsage } from '../catalogs/index.js';
import { Contest } from '../contests/index.js';
import { Level } from '../levels/index.js';
import { Exercise, type IExercise } from './exercise.entity.js';

/**
 * The only place that reads and writes `exercises` (docs/design.md section 3). The PDFs themselves live
 * on disk (pdf-upload.ts); a row keeps the generated file name in `path`. Functions take the
 * EntityManager first so they run inside `transaction(em, work)` forks.
 */

/** What a row embeds (docs/spec.md section 3). */
const EXERCISE_ROW_POPULATE = ['level', 'contest'] as const;

function toExerciseRow(e: Loaded<IExercise, (typeof EXERCISE_ROW_POPULATE)[number]>): ExerciseRow {
  return {
    id: e.id,
    path: e.path,
    original_name: e.originalName,
    levels_id: e.level.id,
    contests_id: e.contest.id,
    level: { id: e.level.id, level: e.level.level },
    contest: { id: e.contest.id, calendar: e.contest.calendar },
  };
}

/** Every exercise with its level and contest, oldest first. */
export async function listExerciseRows(em: EntityManager): Promise<ExerciseRow[]> {
  const exercises = await em.find(Exercise, {}, { populate: EXERCISE_ROW_POPULATE, orderBy: { id: 'asc' } });
  return exercises.map(toExerciseRow);
}

/** One exercise as the list shows it, or null. */
export async function findExerciseRow(em: EntityManager, id: number): Promise<ExerciseRow | null> {
  const exercise = await em.findOne(Exercise, id, { populate: EXERCISE_ROW_POPULATE, refresh: true });
  return exercise ? toExerciseRow(exercise) : null;
}

/** The exercises of one contest and level, as `exercisesCombo` lists them (`name` is the PDF's name). */
export async function listExerciseItems(
  em: EntityManager,
  contestId: number,
  levelId: number,
): Promise<Array<{ id: number; name: string }>> {
  const exercises = await em.find(
    Exercise,
    { contest: contestId, level: levelId },
    { fields: ['originalName'], orderBy: { id: 'asc' } },
  );
  return exercises.map((e) => ({ id: e.id, name: e.originalName }));
}

/** 422 on `levels_id` unless the level exists. */
export async function requireLevel(em: EntityManager, levelId: number): Promise<void> {
  if ((await em.count(Level, { id: levelId })) === 0) {
    throw fieldError('levels_id', 'El nivel seleccionado no existe.');
  }
}

/** A stored PDF: the generated file name and the client's, for display. */
export interface StoredPdf {
  storedName: string;
  originalName: string;
}

/** Inserts an exercise of `contestId` and answers its row. */
export async function insertExercise(
  em: EntityManager,
  levelId: number,
  contestId: number,
  file: StoredPdf,
): Promise<ExerciseRow> {
  const exercise = em.create(Exercise, {
    path: file.storedName,
    originalName: file.originalName,
    level: em.getReference(Level, levelId),
    contest: em.getReference(Contest, contestId),
  });
  await em.flush();
  return (await findExerciseRow(em, exercise.id))!;
}

/** An exercise with its row locked until the transaction ends (its file is about to change), or null. */
export function lockExercise(em: EntityManager, id: number) {
  return em.findOne(Exercise, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * Moves a locked exercise to another level (and contest) and, with `file`, points it at a new
 * PDF; answers its row.
 */
export async function updateExercise(
  em: EntityManager,
  exercise: Loaded<IExercise>,
  levelId: number,
  file: StoredPdf | null,
  contestId = exercise.contest.id,
): Promise<ExerciseRow> {
  em.assign(exercise, {
    level: em.getReference(Level, levelId),
    // Loaded, not a reference: the answered row embeds the contest's calendar.
    contest:
      contestId === exercise.contest.id ? exercise.contest : await em.findOneOrFail(Contest, contestId),
    ...(file && { path: file.storedName, originalName: file.originalName }),
  });
  await em.flush();
  return (await findExerciseRow(em, exercise.id))!;
}

/** Deletes an exercise; answers the stored file name it had, or null when the id does not exist. */
export async function deleteExercise(em: EntityManager, id: number): Promise<string | null> {
  const exercise = await lockExercise(em, id);
  if (!exercise) return null;
  await em.nativeDelete(Exercise, { id });
  return exercise.path;
}

/**
 * The catalogue rows an exercise uses, which it keeps from being deleted (the 409 "in use"): its level
 * and its contest ('N ejercicio(s)'). Handed to the catalogues by app.ts (`catalogUsages`).
 */
export const exerciseUsages: readonly CatalogUsage[] = [
  {
    catalog: 'levels',
    one: 'ejercicio',
    many: 'ejercicios',
    count: (em, id) => em.count(Exercise, { level: id }),
  },
  {
    catalog: 'contests',
    one: 'ejercicio',
    many: 'ejercicios',
    count: (em, id) => em.count(Exercise, { contest: id }),
  },
];
