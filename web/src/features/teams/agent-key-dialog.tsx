import type { ReactNode } from 'react';
import { Alert, Code, Field, Input, Stack, Text } from '@chakra-ui/react';
import { MESSAGES, agentExecutableFile } from '@concurso/shared';
import type { GeneratedAgentKey } from './use-agent-key';
import {
  BAD_SERVER_ADDRESS,
  LINUX_EXECUTABLE,
  LOCAL_SERVER_WARNING,
  WINDOWS_EXECUTABLE,
  agentCommand,
  isLocalServer,
  linuxExecutableCommand,
  serverOrigin,
  windowsExecutableCommand,
} from './agent-command';
import { AGENT_VERSION } from './agent-version';
import { CopyableValue } from '../../ui/copyable-value';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { Notice } from '../../ui/layout/notice';

/**
 * The single executables' install commands, each with what to copy where and its copy field: the file
 * `npm run agent:build` made for this agent version, copied to the lab machine, and the command run in
 * that folder.
 */
const installCommands = (server: string, key: string) => {
  const windowsFile = agentExecutableFile(AGENT_VERSION, 'win-x64');
  const linuxFile = agentExecutableFile(AGENT_VERSION, 'linux-x64');
  return [
    {
      how: (
        <>
          <strong>Windows:</strong> copie <Code>{windowsFile}</Code> a la máquina, abra PowerShell como
          administrador en esa carpeta y ejecute este comando. Lo copia como <Code>{WINDOWS_EXECUTABLE}</Code>{' '}
          y guarda la clave; una tarea programada lo inicia como SYSTEM al arrancar la máquina y de nuevo si
          se detiene.
        </>
      ),
      label: 'Comando de Windows (PowerShell como administrador)',
      value: windowsExecutableCommand(server, key, AGENT_VERSION),
      testId: 'agent-command-windows',
      copyLabel: 'Copiar comando de Windows',
    },
    {
      how: (
        <>
          <strong>Linux:</strong> copie <Code>{linuxFile}</Code> a la máquina, abra en esa carpeta una
          terminal de root con <Code>sudo -s</Code> y ejecute este comando. Lo instala como{' '}
          <Code>{LINUX_EXECUTABLE}</Code> y guarda la clave; un servicio de systemd lo inicia al arrancar la
          máquina y de nuevo si se detiene.
        </>
      ),
      label: 'Comando de Linux (como root)',
      value: linuxExecutableCommand(server, key, AGENT_VERSION),
      testId: 'agent-command-linux',
      copyLabel: 'Copiar comando de Linux',
    },
  ];
};

/** Props of {@link AgentKeyDialog}. */
export interface AgentKeyDialogProps {
  /** The key just generated and its team; kept while the dialog closes. */
  shown: GeneratedAgentKey | null;
  open: boolean;
  onClose: () => void;
  /** After the closing animation (the key leaves memory). */
  onExitComplete: () => void;
  /** The server address the admin typed (kept for the next keys), null until they type one. */
  serverText: string | null;
  onServerTextChange: (text: string) => void;
}

/** One paragraph of the dialog's small print. */
const Small = ({ children, testId }: { children: ReactNode; testId?: string }) => (
  <Text fontSize="sm" data-testid={testId}>
    {children}
  </Text>
);

/**
 * The team's new agent key, shown once (docs/design.md section 6): the key, the server address the lab
 * machines reach (the server's `PUBLIC_URL`, else this browser's address; the admin may type another,
 * and a warning shows when it is this very machine: `LOCAL_SERVER_WARNING`), and the commands to run on
 * the team's lab machine, each with a copy button: the single executable, named as the build names it
 * for this version, installed to start with the machine and again whenever it stops, on Windows (a
 * scheduled task as SYSTEM) and on Linux (a systemd service) (`windowsExecutableCommand`,
 * `linuxExecutableCommand`), and the agent from a copy of the project (`agentCommand`); each saves the
 * key to a file only its administrator reads and runs the agent with `--key-file` (the key never goes
 * on a command line), and the warning that it will not be shown again. An outside click does not close
 * it, so the key is not lost by accident.
 */
export function AgentKeyDialog({
  shown,
  open,
  onClose,
  onExitComplete,
  serverText,
  onServerTextChange,
}: AgentKeyDialogProps) {
  const key = shown?.key ?? '';
  const publicUrl = shown?.publicUrl ?? null;
  const typed = serverText ?? publicUrl ?? window.location.origin;
  const server = serverOrigin(typed);
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
        <Field.Root invalid={server === null}>
          <Field.Label>Dirección del servidor para las máquinas del laboratorio</Field.Label>
          <Input
            value={typed}
            onChange={(event) => onServerTextChange(event.currentTarget.value)}
            fontFamily="mono"
            fontSize="sm"
            autoComplete="off"
            spellCheck={false}
            data-testid="agent-server"
          />
          {server === null ? null : (
            <Field.HelperText>
              {publicUrl === null
                ? 'El servidor no tiene PUBLIC_URL: se propone la dirección de este navegador.'
                : 'Por omisión, la de PUBLIC_URL del servidor.'}
            </Field.HelperText>
          )}
          <Field.ErrorText>{BAD_SERVER_ADDRESS}</Field.ErrorText>
        </Field.Root>
        {server !== null && isLocalServer(server) ? (
          <Notice status="warning" testId="agent-server-local">
            {LOCAL_SERVER_WARNING}
          </Notice>
        ) : null}
        {server === null ? null : (
          <>
            <Small testId="agent-install-intro">
              Compile el agente una vez con <Code>npm run agent:build</Code> y encontrará en{' '}
              <Code>agent/dist/bin/</Code> un archivo por sistema, que no necesita Node.js en las máquinas;
              los detalles están en el archivo <Code>agent/README.md</Code> del proyecto.
            </Small>
            {installCommands(server, key).map(({ how, ...install }) => (
              <Stack key={install.testId} gap="2">
                <Small>{how}</Small>
                <CopyableValue copiedText="Comando copiado." {...install} />
              </Stack>
            ))}
            <CopyableValue
              label="O, para probar, desde una copia del proyecto"
              value={agentCommand(server, key)}
              testId="agent-command"
              copyLabel="Copiar comando"
              copiedText="Comando copiado."
            />
          </>
        )}
        <Text color="fg.muted" fontSize="sm">
          La clave queda en un archivo que solo puede leer el administrador de la máquina. Si se pierde la
          clave, genere otra: la anterior dejará de funcionar.
        </Text>
      </Stack>
    </AppDialog>
  );
}
