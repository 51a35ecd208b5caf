import { describe, expect, it } from 'vitest';
import { TABLE_TEXTS, buildInfoText, copiedText, lengthMenuParts, pageSizeLabel } from './table-texts';

describe('table texts', () => {
  it('fills "Mostrando del _START_ al _END_ de _TOTAL_ registros"', () => {
    expect(buildInfoText({ start: 6, end: 10, total: 12, max: 12 })).toBe(
      'Mostrando del 6 al 10 de 12 registros',
    );
  });

  it('says "Mostrando del 0 al 0 de 0 registros" when empty', () => {
    expect(buildInfoText({ start: 0, end: 0, total: 0, max: 0 })).toBe('Mostrando del 0 al 0 de 0 registros');
  });

  it('adds "(filtrado de _MAX_ registros en total)" while a search hides rows', () => {
    expect(buildInfoText({ start: 1, end: 2, total: 2, max: 40 })).toBe(
      'Mostrando del 1 al 2 de 2 registros (filtrado de 40 registros en total)',
    );
    expect(buildInfoText({ start: 0, end: 0, total: 0, max: 7 })).toBe(
      'Mostrando del 0 al 0 de 0 registros (filtrado de 7 registros en total)',
    );
  });

  it('has the other DataTables texts word for word', () => {
    expect(TABLE_TEXTS.empty).toBe('No hay registros para mostrar');
    expect(TABLE_TEXTS.search).toBe('Buscar:');
    expect(TABLE_TEXTS.previous).toBe('Anterior');
    expect(TABLE_TEXTS.next).toBe('Siguiente');
    expect(lengthMenuParts()).toEqual(['Mostrar', 'registros']);
    expect(pageSizeLabel(-1)).toBe('Todos');
    expect(pageSizeLabel(25)).toBe('25');
    expect(copiedText(3)).toBe('Copiado al portapapeles: 3 registros');
  });
});
