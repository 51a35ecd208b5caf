import { Alert, Stack, Text } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';
import type { GeneratedAgentKey } from './use-agent-key';
import { agentCommand } from './agent-command';
import { CopyableValue } from '../../ui/copyable-value';
import { AppDialog } from '../../ui/dialog/app-dialog';

/** Props of {@link AgentKeyDialog}. */
export interface AgentKeyDialogProps {
  /** The key just generated and its team; kept while the dialog closes. */
  shown: GeneratedAgentKey | null;
  open: boolean;
  onClose: () => void;
  /** After the closing animation (the key leaves memory). */
  onExitComplete: () => void;
}

/**
 * The team's new agent key, shown once (DESIGN.md section 6): the key and the command to run on the
 * team's lab machine (`agentCommand`: save the key to an owner-only file, then run the agent with
 * `--key-file`; the key never goes on a command line), each with a copy button,
 * and the warning that it will not be shown again. An outside click does not close it, so the key is
 * not lost by accident.
 */
export function AgentKeyDialog({ shown, open, onClose, onExitComplete }: AgentKeyDialogProps) {
  const key = shown?.key ?? '';
  const command = agentCommand(window.location.origin, key);
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      onExitComplete={onExitComplete}
      closeOnInteractOutside={false}
      title={`Clave del agente del equipo: ${shown?.team.name ?? ''}`}
      size="lg"
      testId="agent-key-dialog"
      closeLabel="Cerrar"
    >
      <Stack gap="4">
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>{MESSAGES.agentKeyGenerated}</Alert.Title>
        </Alert.Root>
        <CopyableValue
          label="Clave del agente"
          value={key}
          testId="agent-key"
          copyLabel="Copiar clave"
          copiedText="Clave copiada."
        />
        <CopyableValue
          label="Comando para la máquina del equipo"
          value={command}
          testId="agent-command"
          copyLabel="Copiar comando"
          copiedText="Comando copiado."
        />
        <Text color="fg.muted" fontSize="sm">
          Ejecútelo en la máquina del laboratorio del equipo, desde la carpeta del proyecto. Si se pierde la
          clave, genere otra: la anterior dejará de funcionar.
        </Text>
      </Stack>
    </AppDialog>
  );
}
