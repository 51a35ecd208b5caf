import { describe, expect, it } from 'vitest';
import { CATALOGUE_ROUTES } from './app-routes';
import { CATALOGUE_SCENES } from './catalogue-scenes';

describe('catalogue scenes', () => {
  it('gives every catalogue route of SPEC.md section 2 its lazily loaded scene', () => {
    expect(Object.keys(CATALOGUE_SCENES).sort()).toEqual(CATALOGUE_ROUTES.map((route) => route.path).sort());
  });
});
