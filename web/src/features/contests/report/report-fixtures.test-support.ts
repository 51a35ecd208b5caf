import type { ContestReport } from '@concurso/shared';

/** A small contest report as `GET /api/contestReport/{id}` answers it, for the report's unit tests. */
const ACTIVE = { id: 1, status: 'Activo' };
const DISQUALIFIED = { id: 2, status: 'Descalificado' };

export function sampleReport(): ContestReport {
  return {
    contest: {
      id: 7,
      calendar: '2026B',
      date: '2026-11-21',
      active: true,
      max_attempts: 5,
      observe_processes: true,
      allowed_sites: [],
      network_version: 0,
    },
    bucket_minutes: 1,
    attempts_per_minute: [
      { minute: new Date(2026, 10, 21, 16, 0).toISOString(), attempts: 2 },
      { minute: new Date(2026, 10, 21, 16, 1).toISOString(), attempts: 0 },
      { minute: new Date(2026, 10, 21, 16, 2).toISOString(), attempts: 4 },
    ],
    top_processes: [
      { process: 'Discord.exe', attempts: 4 },
      { process: 'chrome.exe', attempts: 2 },
    ],
    teams_blocked: 1,
    attempts: 6,
    teams: [
      {
        id: 1,
        name: 'Alfa',
        level: 'Básico',
        coach: 'Mtra. Laura Méndez',
        members: 3,
        number_attempts: 1,
        status: 'Activo',
      },
      {
        id: 2,
        name: 'Los Punteros',
        level: 'Avanzado',
        coach: 'Dr. Juan Pérez',
        members: 2,
        number_attempts: 5,
        status: 'Descalificado',
      },
    ],
    status_changes: [
      {
        team: 'Los Punteros',
        level: 'Avanzado',
        at: new Date(2026, 10, 21, 16, 2, 30).toISOString(),
        from: ACTIVE,
        to: DISQUALIFIED,
        user: null,
        automatic: true,
      },
      {
        team: 'Los Punteros',
        level: 'Avanzado',
        at: new Date(2026, 10, 21, 16, 40).toISOString(),
        from: DISQUALIFIED,
        to: ACTIVE,
        user: 'Juez Ana',
        automatic: false,
      },
      {
        team: 'Los Punteros',
        level: 'Avanzado',
        at: new Date(2026, 10, 21, 16, 41, 10).toISOString(),
        from: ACTIVE,
        to: DISQUALIFIED,
        user: null,
        automatic: true,
      },
      {
        team: 'Alfa',
        level: 'Básico',
        at: new Date(2026, 10, 21, 17, 5).toISOString(),
        from: ACTIVE,
        to: DISQUALIFIED,
        user: 'Juez Ana',
        automatic: false,
      },
    ],
  };
}
