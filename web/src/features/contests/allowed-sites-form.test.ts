import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { MESSAGES, NETWORK_MAX_DESTINATIONS, NETWORK_MESSAGES } from '@concurso/shared';
import { ApiRequestError } from '../../api/api-error';
import { INVALID_FORM_MESSAGE } from '../../stores/feedback-store';
import {
  allowedSitesErrorText,
  allowedSitesResolver,
  allowedSitesServerErrorText,
  allowedSitesText,
  describeAllowedSitesFailure,
  networkVersionText,
  siteLineNumbers,
  type AllowedSitesFormValues,
} from './allowed-sites-form';

const options = {} as ResolverOptions<AllowedSitesFormValues>;
const resolve = async (text: string) => allowedSitesResolver({ allowed_sites: text }, undefined, options);

describe('«Sitios permitidos»', () => {
  it("shows the stored sites one per line, and finds each site's line past blank ones", () => {
    expect(allowedSitesText(['docs.python.org', '10.0.0.0/8'])).toBe('docs.python.org\n10.0.0.0/8');
    expect(allowedSitesText([])).toBe('');
    expect(siteLineNumbers('a.com\n\n  \r\nb.com\nc.com\n')).toEqual([1, 4, 5]);
  });

  it('answers the non-empty lines in their stored form, none for an empty text', async () => {
    expect(await resolve('Docs.Python.org\n\n[2001:DB8::1]:443')).toEqual({
      values: { allowed_sites: ['docs.python.org', '[2001:db8::1]:443'] },
      errors: {},
    });
    expect((await resolve('')).values).toEqual({ allowed_sites: [] });
  });

  it('says every refused line with its number in the text area, in order', async () => {
    const result = await resolve('docs.python.org\nejemplo\n\n10.0.0.0/40\nejemplo.com:99999');
    expect(result.values).toEqual({});
    expect(result.errors.allowed_sites?.message).toBe(
      [
        `Línea 2: ${NETWORK_MESSAGES.badHost}`,
        `Línea 4: ${NETWORK_MESSAGES.badNetwork}`,
        `Línea 5: ${NETWORK_MESSAGES.badPort}`,
      ].join('\n'),
    );
  });

  it('says precisely what is wrong with each line, with its number', async () => {
    const result = await resolve(
      'docs.python.org\n\nlocalhost\nomegaup.com:8000-8100\na.com, b.com\n300.1.2.3\nomegaup.com:8080',
    );
    expect(result.errors.allowed_sites?.message).toBe(
      [
        'Línea 3: No hace falta permitir la propia máquina (localhost, 127.0.0.1, ::1): siempre está permitida; escriba solo sitios de fuera',
        'Línea 4: Los rangos de puertos no se admiten: escriba un puerto (p. ej. omegaup.com:8080)',
        'Línea 5: Escriba un sitio por línea (sin comas ni espacios entre sitios)',
        'Línea 6: No es una dirección IP válida (cada número de IPv4 va de 0 a 255, como 10.1.2.3)',
      ].join('\n'),
    );
  });

  it('says a list too long without a line', async () => {
    const text = Array.from({ length: NETWORK_MAX_DESTINATIONS + 1 }, (_, i) => `s${i}.ejemplo.com`).join(
      '\n',
    );
    expect((await resolve(text)).errors.allowed_sites?.message).toBe(NETWORK_MESSAGES.tooMany);
  });

  it('keeps the first message of a line', () => {
    expect(
      allowedSitesErrorText('x\ny', [
        { path: [1], message: 'uno' },
        { path: [1], message: 'dos' },
        { path: [0], message: 'cero' },
      ]),
    ).toBe('Línea 1: cero\nLínea 2: uno');
    expect(allowedSitesErrorText('x', [])).toBeNull();
  });

  it("says the server's refused entries (`allowed_sites.<i>`) with their line of the text sent", () => {
    expect(
      allowedSitesServerErrorText('a.com\n\nmal', {
        'allowed_sites.1': [NETWORK_MESSAGES.badHost],
        allowed_sites: [NETWORK_MESSAGES.tooMany],
        contests_id: ['Este campo es requerido'],
      }),
    ).toBe(`${NETWORK_MESSAGES.tooMany}\nLínea 3: ${NETWORK_MESSAGES.badHost}`);
    expect(allowedSitesServerErrorText('a.com', { contests_id: ['x'] })).toBeNull();
  });

  it('puts a 422 under the text area with the invalid-form warning, else the failure text', () => {
    const refused = new ApiRequestError({
      kind: 'http',
      status: 422,
      serverMessage: MESSAGES.validation,
      fieldErrors: { 'allowed_sites.0': [NETWORK_MESSAGES.badHost] },
    });
    expect(describeAllowedSitesFailure(refused, 'mal')).toEqual({
      fieldError: `Línea 1: ${NETWORK_MESSAGES.badHost}`,
      message: INVALID_FORM_MESSAGE,
    });
    const gone = new ApiRequestError({ kind: 'http', status: 404, serverMessage: 'No existe el concurso' });
    expect(describeAllowedSitesFailure(gone, 'a.com')).toEqual({
      fieldError: null,
      message: { title: MESSAGES.error, message: 'No existe el concurso' },
    });
    const down = new ApiRequestError({ kind: 'http', status: 500 });
    expect(describeAllowedSitesFailure(down, 'a.com').message?.message).toBe(
      'Hubo un problema al actualizar los sitios permitidos. Intente de nuevo.',
    );
  });

  it("says the contest's policy version, or that it has none", () => {
    expect(networkVersionText({ network_version: 3, allowed_sites: ['a.com'] })).toBe('Versión actual: v3');
    expect(networkVersionText({ network_version: 0, allowed_sites: [] })).toBe('Sin política de red');
    // Emptied at v4: the machines have no restriction.
    expect(networkVersionText({ network_version: 4, allowed_sites: [] })).toBe('Sin política de red');
  });
});
