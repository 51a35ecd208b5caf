import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import type { CaptureRow } from '@concurso/shared';
import { appSystem } from '../theme';
import { localIso } from '../local-iso.test-support';
import { CaptureThumbnails } from './capture-thumbnails';
import { ViewScreenButton } from './view-screen-button';

const capture = (id: number, overrides: Partial<CaptureRow> = {}): CaptureRow => ({
  id,
  teams_id: 4,
  event_id: 'evt-00001',
  attempts_id: 9,
  request_id: null,
  hostname: 'lab-07',
  moment: 'antes',
  taken_at: localIso(2026, 10, 27, 10, 0, 1),
  bytes: 40_000,
  width: 1280,
  height: 720,
  ...overrides,
});

const never = () => new Promise<Blob>(() => {});
const render = (node: React.ReactNode) =>
  renderToStaticMarkup(<ChakraProvider value={appSystem}>{node}</ChakraProvider>);

describe('capture thumbnails', () => {
  it('shows one button per capture, named by its moment, machine and time, to enlarge it', () => {
    const html = render(
      <CaptureThumbnails
        captures={[capture(1), capture(2, { moment: 'despues', hostname: '' })]}
        load={never}
        title="Intento: juego.exe"
      />,
    );
    expect(html).toContain('data-testid="capture-thumbnail-1"');
    expect(html).toContain('data-testid="capture-thumbnail-2"');
    expect(html).toContain(
      'aria-label="Ampliar la captura: Antes de terminarlo · lab-07 · 27/11/2026 10:00:01"',
    );
    expect(html).toContain('aria-label="Ampliar la captura: Después de terminarlo · 27/11/2026 10:00:01"');
  });

  it('shows nothing for an attempt without captures', () => {
    const html = render(<CaptureThumbnails captures={[]} load={never} title="Intento" />);
    expect(html).not.toContain('capture-thumbnails');
    expect(html).not.toContain('<button');
  });
});

describe('«Ver pantalla» button', () => {
  it('is a button that asks nothing until it is clicked', () => {
    let asked = 0;
    const html = render(
      <ViewScreenButton
        target="Equipo Los Tigres"
        ask={() => {
          asked += 1;
          return Promise.resolve([]);
        }}
        load={never}
        errorText={() => 'error'}
        testId="view-screen-4"
      />,
    );
    expect(html).toMatch(/<button[^>]*data-testid="view-screen-4"[^>]*>Ver pantalla<\/button>/);
    expect(asked).toBe(0);
  });
});
