import { useEffect, useMemo, useState } from 'react';
import { Button, HStack, Spinner, Stack, Switch, Text } from '@chakra-ui/react';
import type { CaptureRow } from '@concurso/shared';
import { AppDialog } from '../dialog/app-dialog';
import { CaptureImage, type CaptureImageLoader } from './capture-image';
import { captureCaption } from './capture-texts';
import { LiveView } from './live-view';

/** «Ver en vivo» asks again this long after each answer (ms). */
const LIVE_VIEW_EVERY_MS = 3_000;

/** Props of {@link ViewScreenButton}. */
export interface ViewScreenButtonProps {
  /** Who is looked at, for the dialog's title: «Equipo Los Tigres» or «lab-07 (Los Tigres)». */
  target: string;
  /** Asks the machines for a capture now and answers the captures that arrived. */
  ask: (signal: AbortSignal) => Promise<readonly CaptureRow[]>;
  load: CaptureImageLoader;
  /** Spanish text of a failed request (the server's message). */
  errorText: (error: unknown) => string;
  testId?: string;
}

/**
 * «Ver pantalla»: a button whose dialog asks for a fresh capture when it opens and shows it (one per
 * machine that answered, with its caption); «Ver en vivo» asks again every `LIVE_VIEW_EVERY_MS` while
 * the dialog is open, one request at a time (`LiveView`). Closing it stops everything.
 */
export function ViewScreenButton({ target, ask, load, errorText, testId }: ViewScreenButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="xs" variant="outline" onClick={() => setOpen(true)} data-testid={testId ?? 'view-screen'}>
        Ver pantalla
      </Button>
      {open ? (
        <ViewScreenDialog
          target={target}
          ask={ask}
          load={load}
          errorText={errorText}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

/** The open dialog of {@link ViewScreenButton}: mounted while open, so its `LiveView` lives as long. */
function ViewScreenDialog({
  target,
  ask,
  load,
  errorText,
  onClose,
}: Omit<ViewScreenButtonProps, 'testId'> & { onClose: () => void }) {
  const [captures, setCaptures] = useState<readonly CaptureRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [live, setLive] = useState(false);
  const view = useMemo(
    () =>
      new LiveView(
        ask,
        {
          result: (rows) => {
            setCaptures(rows);
            setError(null);
          },
          error: (failure) => setError(errorText(failure)),
          busy: setBusy,
        },
        LIVE_VIEW_EVERY_MS,
      ),
    [ask, errorText],
  );
  useEffect(() => {
    view.request();
    return () => view.dispose();
  }, [view]);

  return (
    <AppDialog
      open
      onClose={onClose}
      title={`Pantalla: ${target}`}
      size="xl"
      closeLabel="Cerrar"
      testId="view-screen-dialog"
    >
      <Stack gap="3">
        <HStack justifyContent="space-between">
          <Switch.Root
            checked={live}
            onCheckedChange={({ checked }) => {
              setLive(checked);
              view.live(checked);
            }}
            data-testid="view-screen-live"
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label>Ver en vivo</Switch.Label>
          </Switch.Root>
          {busy ? (
            <HStack gap="2">
              <Spinner size="sm" />
              <Text fontSize="sm">Pidiendo la captura…</Text>
            </HStack>
          ) : null}
        </HStack>
        {error ? (
          <Text color="fg.error" role="alert">
            {error}
          </Text>
        ) : null}
        {captures.map((capture) => (
          <Stack key={capture.id} gap="1" alignItems="center" data-testid="view-screen-capture">
            <CaptureImage id={capture.id} load={load} alt={captureCaption(capture)} height="auto" />
            <Text fontSize="sm">{captureCaption(capture)}</Text>
          </Stack>
        ))}
      </Stack>
    </AppDialog>
  );
}
