import type { EntityManager } from '@mikro-orm/mysql';
import type { ExerciseRow } from '@concurso/shared';

interface ExerciseSql {
  id: number;
  path: string;
  original_name: string;
  levels_id: number;
  contests_id: number;
  level: string;
  calendar: string;
}

const EXERCISE_SELECT = `select e.id, e.path, e.original_name, e.levels_id, e.contests_id, l.level, k.calendar
  from exercises e join levels l on l.id = e.levels_id join contests k on k.id = e.contests_id`;

const toRow = (r: ExerciseSql): ExerciseRow => ({
  id: Number(r.id),
  path: r.path,
  original_name: r.original_name,
  levels_id: Number(r.levels_id),
  contests_id: Number(r.contests_id),
  level: { id: Number(r.levels_id), level: r.level },
  contest: { id: Number(r.contests_id), calendar: r.calendar },
});

/** Every exercise with its level and contest (SPEC.md section 3), oldest first. */
export async function listExercises(em: EntityManager): Promise<ExerciseRow[]> {
  return (await em.execute<ExerciseSql[]>(`${EXERCISE_SELECT} order by e.id`)).map(toRow);
}

/** One exercise, or null. */
export async function exerciseRow(em: EntityManager, id: number): Promise<ExerciseRow | null> {
  const rows = await em.execute<ExerciseSql[]>(`${EXERCISE_SELECT} where e.id = ?`, [id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** The exercises of one contest and level, as `exercisesCombo` lists them (`name` is the PDF's name). */
export async function exercisesOf(
  em: EntityManager,
  contestId: number,
  levelId: number,
): Promise<Array<{ id: number; name: string }>> {
  const rows = await em.execute<Array<{ id: number; original_name: string }>>(
    'select id, original_name from exercises where contests_id = ? and levels_id = ? order by id',
    [contestId, levelId],
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.original_name }));
}
