import { describe, expect, it } from 'vitest';
import type { SimilarProgram } from '@concurso/shared';
import { ALSO_MATCHES_UNKNOWN, alsoMatchesQuestion } from './also-matches';

const question = {
  title: '¿Bloquear notas en el concurso 2026-11-27?',
  message: 'Los agentes lo terminarán en su siguiente actualización.',
  confirmLabel: 'Sí, bloquear',
  cancelLabel: 'Cancelar',
};
const program = (name: string, by: SimilarProgram['by'] = 'tlsh', distance = 3): SimilarProgram => ({
  name,
  sha256: 'ab'.repeat(32),
  machines: 1,
  by,
  distance,
});

describe('«también coincide con» before a block or a confirmation applies', () => {
  it('names the other programs the same or a similar file is, after the question', () => {
    const asked = alsoMatchesQuestion(question, 'gcc', {
      programs: [program('g++'), program('c++', 'sha256', 0)],
      total: 2,
    });
    expect(asked.title).toBe(question.title);
    expect(asked.confirmLabel).toBe('Sí, bloquear');
    expect(asked.message).toBe(
      'Los agentes lo terminarán en su siguiente actualización. gcc también coincide con: g++, c++. ' +
        'Son el mismo archivo con otro nombre o uno muy parecido: las máquinas que apliquen esta huella ' +
        'también los terminarán.',
    );
  });

  it('counts the ones past those listed', () => {
    const asked = alsoMatchesQuestion(question, 'gcc', { programs: [program('g++')], total: 4 });
    expect(asked.message).toContain('gcc también coincide con: g++ y 3 más.');
  });

  it('leaves the question as it was when nothing else matches, and says so when the check failed', () => {
    expect(alsoMatchesQuestion(question, 'gcc', { programs: [], total: 0 })).toEqual(question);
    expect(alsoMatchesQuestion(question, 'gcc', null)).toEqual(question);
    expect(alsoMatchesQuestion(question, 'gcc', 'error').message).toBe(
      `Los agentes lo terminarán en su siguiente actualización. ${ALSO_MATCHES_UNKNOWN}`,
    );
  });
});
