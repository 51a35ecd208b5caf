import { describe, expect, it } from 'vitest';
import { exerciseFormData } from './exercise-api';

describe('exerciseFormData (docs/spec.md section 7: path, levels_id, and id on update)', () => {
  const pdf = new File(['%PDF-1.4'], 'problema-a.pdf', { type: 'application/pdf' });

  it('sends the level and the file in `path` on create', () => {
    const form = exerciseFormData({ levels_id: 2, file: pdf });
    expect([...form.keys()]).toEqual(['levels_id', 'path']);
    expect(form.get('levels_id')).toBe('2');
    const file = form.get('path') as File;
    expect(file.name).toBe('problema-a.pdf');
  });

  it('sends the id first on update, and no file when the current PDF stays', () => {
    const form = exerciseFormData({ id: 7, levels_id: 3, file: null });
    expect([...form.keys()]).toEqual(['id', 'levels_id']);
    expect(form.get('id')).toBe('7');
  });

  it('sends the chosen contest before the file, and none when the server picks the active one', () => {
    const form = exerciseFormData({ levels_id: 2, contests_id: 5, file: pdf });
    expect([...form.keys()]).toEqual(['levels_id', 'contests_id', 'path']);
    expect(form.get('contests_id')).toBe('5');
    expect(exerciseFormData({ levels_id: 2, file: null }).has('contests_id')).toBe(false);
  });
});
