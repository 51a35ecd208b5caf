import { Status } from '@chakra-ui/react';
import { CONNECTION_LABELS, type ConnectionState } from '../stores/connection-state';

const PALETTES: Record<ConnectionState, string> = {
  conectado: 'green',
  reconectando: 'orange',
  'sin conexión': 'red',
};

/** The live board's connection state: 'Conectado', 'Reconectando…' or 'Sin conexión'. */
export function ConnectionIndicator({ state }: { state: ConnectionState }) {
  return (
    <Status.Root
      colorPalette={PALETTES[state]}
      size="lg"
      role="status"
      aria-live="polite"
      data-testid="connection-state"
      data-state={state}
    >
      <Status.Indicator />
      {CONNECTION_LABELS[state]}
    </Status.Root>
  );
}
