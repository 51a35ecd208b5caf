import { describe, expect, it } from 'vitest';
import { filterProcesses, selectedSummary } from './process-selection';

const PROCESSES = [
  { id: 3, name: 'chrome.exe' },
  { id: 1, name: 'Discord.exe' },
  { id: 2, name: 'AnyDesk.exe' },
];

describe('process selection', () => {
  it('lists the chosen names after "Seleccionaste: "', () => {
    const sorted = filterProcesses(PROCESSES, '');
    expect(sorted.map((p) => p.name)).toEqual(['AnyDesk.exe', 'chrome.exe', 'Discord.exe']);
    expect(selectedSummary(sorted, new Set([1, 2]))).toBe('Seleccionaste: AnyDesk.exe, Discord.exe');
    expect(selectedSummary(sorted, new Set())).toBe('Seleccionaste: ');
  });

  it('searches names ignoring case', () => {
    expect(filterProcesses(PROCESSES, 'DISC').map((p) => p.id)).toEqual([1]);
  });
});
