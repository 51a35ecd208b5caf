import { Badge } from '@chakra-ui/react';
import type { DataColumn } from '../../ui/data-table/table-model';
import { LAB_NETWORK_PALETTES, LAB_POLICY_LABELS, type LabTableRow } from './lab-rows';

/**
 * The /laboratorio table's columns (issue 24), each searched and exported as its text; POLÍTICA shows
 * its text on a green, amber or red badge, RED (issue 25) on a green, amber, red or grey one.
 */
export const LAB_COLUMNS: DataColumn<LabTableRow>[] = [
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
        // A failure's reason may be long: wider than a phone it wraps as the cell does (issue 14).
        whiteSpace={{ base: 'nowrap', md: 'normal' }}
        data-network-tone={row.original.networkTone}
      >
        {row.original.network}
      </Badge>
    ),
  },
  { accessorKey: 'clock', header: 'RELOJ' },
  { accessorKey: 'agent', header: 'AGENTE' },
];
