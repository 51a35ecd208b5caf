import { describe, expect, it } from 'vitest';
import { commonProcessesReport } from './common-processes-report';

describe('commonProcessesReport', () => {
  it('says how many were added and how many existed', () => {
    expect(commonProcessesReport(45, 3)).toBe('Se agregaron 45 procesos (3 ya existían).');
    expect(commonProcessesReport(0, 48)).toBe('Se agregaron 0 procesos (48 ya existían).');
  });
});
