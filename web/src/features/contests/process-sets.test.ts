import { describe, expect, it } from 'vitest';
import { MESSAGES, blockedPermittedConflict, permittedBlockedConflict } from '@concurso/shared';
import { ApiRequestError } from '../../api/api-error';
import { BLOCKED_SET, PERMITTED_SET, permittedFailure } from './process-sets';

describe('«Programas permitidos» (docs/design.md section 6a)', () => {
  it("says the server's reason when a blocked program is permitted, else a general failure", () => {
    const refused = new ApiRequestError({
      kind: 'http',
      status: 422,
      serverMessage: MESSAGES.validation,
      fieldErrors: { processes_id: [permittedBlockedConflict(['chrome.exe'])] },
    });
    expect(permittedFailure(refused)).toBe(
      'Un programa bloqueado en el concurso no puede estar permitido: chrome.exe.',
    );
    expect(permittedFailure(new Error('red'))).toBe('No se pudieron guardar los programas permitidos');
    expect(BLOCKED_SET.failure(new Error('red'))).toBe(MESSAGES.processesAssignFailed);
    const permitted = new ApiRequestError({
      kind: 'http',
      status: 422,
      fieldErrors: { processes_id: [blockedPermittedConflict(['code.exe'])] },
    });
    expect(BLOCKED_SET.failure(permitted)).toBe(
      'Un programa permitido en el concurso no puede estar bloqueado: code.exe.',
    );
  });

  it('reads and keys each set apart, so saving one never shows the other', () => {
    expect(PERMITTED_SET.title).toBe('Programas permitidos del concurso');
    expect(PERMITTED_SET.query(4).queryKey).not.toEqual(BLOCKED_SET.query(4).queryKey);
  });
});
