import { Alert, Code, Stack, Text } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';
import type { GeneratedAgentKey } from './use-agent-key';
import { agentCommand, linuxExecutableCommand, windowsExecutableCommand } from './agent-command';
import { CopyableValue } from '../../ui/copyable-value';
import { AppDialog } from '../../ui/dialog/app-dialog';

/** The single executables' install commands (issue 27), each in its own copy field. */
const installCommands = (origin: string, key: string) => [
  {
    label: 'Windows (PowerShell como administrador): tarea programada como SYSTEM',
    value: windowsExecutableCommand(origin, key),
    testId: 'agent-command-windows',
    copyLabel: 'Copiar comando de Windows',
  },
  {
    label: 'Linux (como root): servicio de systemd',
    value: linuxExecutableCommand(origin, key),
    testId: 'agent-command-linux',
    copyLabel: 'Copiar comando de Linux',
  },
];

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
 * The team's new agent key, shown once (DESIGN.md section 6): the key and the commands to run on the
 * team's lab machine, each with a copy button: the single executable installed to start with the
 * machine, on Windows (a scheduled task as SYSTEM) and on Linux (a systemd service) (issue 27,
 * `windowsExecutableCommand`, `linuxExecutableCommand`), and the agent from a copy of the project
 * (`agentCommand`); each saves the key to a file only its administrator reads and runs the agent with
 * `--key-file` (the key never goes on a command line),
 * and the warning that it will not be shown again. An outside click does not close it, so the key is
 * not lost by accident.
 */
export function AgentKeyDialog({ shown, open, onClose, onExitComplete }: AgentKeyDialogProps) {
  const key = shown?.key ?? '';
  const origin = window.location.origin;
  const command = agentCommand(origin, key);
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
        <Text fontSize="sm">
          En la máquina del laboratorio del equipo, con el agente ya copiado (<Code>npm run agent:build</Code>
          , ver <Code>agent/README.md</Code>), el comando de su sistema guarda la clave y lo instala para que
          arranque con la máquina:
        </Text>
        {installCommands(origin, key).map((install) => (
          <CopyableValue key={install.testId} copiedText="Comando copiado." {...install} />
        ))}
        <CopyableValue
          label="O, para probar, desde una copia del proyecto"
          value={command}
          testId="agent-command"
          copyLabel="Copiar comando"
          copiedText="Comando copiado."
        />
        <Text color="fg.muted" fontSize="sm">
          La clave queda en un archivo que solo puede leer el administrador de la máquina. Si se pierde la
          clave, genere otra: la anterior dejará de funcionar.
        </Text>
      </Stack>
    </AppDialog>
  );
}
