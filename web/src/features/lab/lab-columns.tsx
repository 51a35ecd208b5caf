import { Badge } from '@chakra-ui/react';
import type { DataColumn } from '../../ui/data-table/table-model';
import type { Row } from '@tanstack/react-table';
import { LAB_AGENT_STATES, LAB_NETWORK_PALETTES, LAB_POLICY_LABELS, type LabTableRow } from './lab-rows';

/**
 * AGENTE's order: by rank (`LAB_AGENT_STATES`), then the rows' own order. The table sorts its first
 * column descending by default, so the machines with an alarm lead, then the stopped ones, each group
 * in the server's order (team, host name).
 */
function compareAgentCells(a: Row<LabTableRow>, b: Row<LabTableRow>): number {
  const rank = (row: Row<LabTableRow>) => LAB_AGENT_STATES[row.original.agentState].rank;
  return rank(a) - rank(b) || b.original.id - a.original.id;
}

/**
 * The /laboratorio table's columns, each searched and exported as its text. AGENTE comes
 * first (the default sort: machines with an alarm or stopped on top, `compareAgentCells`) on a red,
 * grey or green badge; POLÍTICA shows its text on a green, amber or red badge, RED on a
 * green, amber, red or grey one.
 */
export const LAB_COLUMNS: DataColumn<LabTableRow>[] = [
  {
    accessorKey: 'agent',
    header: 'AGENTE',
    sortingFn: compareAgentCells,
    cell: ({ row }) => {
      const look = LAB_AGENT_STATES[row.original.agentState];
      return (
        <Badge colorPalette={look.palette} variant={look.variant} data-agent-state={row.original.agentState}>
          {row.original.agent}
        </Badge>
      );
    },
  },
  { accessorKey: 'team', header: 'EQUIPO' },
  { accessorKey: 'level', header: 'NIVEL' },
  { accessorKey: 'hostname', header: 'MÁQUINA' },
  { accessorKey: 'os', header: 'SISTEMA' },
  { accessorKey: 'version', header: 'VERSIÓN' },
  { accessorKey: 'address', header: 'DIRECCIÓN' },
  { accessorKey: 'seen', header: 'EN LÍNEA' },
  {
    accessorKey: 'policy',
    header: 'POLÍTICA',
    cell: ({ row }) => (
      <Badge
        colorPalette={LAB_POLICY_LABELS[row.original.policyState].palette}
        // Amber text on its pale background: white on orange does not reach 4.5:1 (WCAG AA).
        variant={row.original.policyState === 'atrasada' ? 'subtle' : 'solid'}
        data-policy-state={row.original.policyState}
      >
        {row.original.policy}
      </Badge>
    ),
  },
  {
    accessorKey: 'network',
    header: 'RED',
    cell: ({ row }) => (
      <Badge
        colorPalette={LAB_NETWORK_PALETTES[row.original.networkTone]}
        // Amber and grey on their pale backgrounds, as POLÍTICA's 'Atrasada' (WCAG AA).
        variant={
          row.original.networkTone === 'ok' || row.original.networkTone === 'error' ? 'solid' : 'subtle'
        }
        // A failure's reason may be long: wider than a phone it wraps as the cell does.
        whiteSpace={{ base: 'nowrap', md: 'normal' }}
        data-network-tone={row.original.networkTone}
      >
        {row.original.network}
      </Badge>
    ),
  },
  { accessorKey: 'clock', header: 'RELOJ' },
];
