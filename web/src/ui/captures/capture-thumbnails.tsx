import { useState } from 'react';
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { CaptureRow } from '@concurso/shared';
import { AppDialog } from '../dialog/app-dialog';
import { CaptureImage, type CaptureImageLoader } from './capture-image';
import { captureCaption } from './capture-texts';

/** Props of {@link CaptureThumbnails}. */
export interface CaptureThumbnailsProps {
  captures: readonly CaptureRow[];
  load: CaptureImageLoader;
  /** What the enlarged view's title names: «Intento: juego.exe». */
  title: string;
}

/** Height of a thumbnail (CSS). */
const THUMBNAIL_HEIGHT = '48px';

/**
 * A row of capture thumbnails (each a button: «Ampliar la captura …»); a click shows that capture
 * enlarged in a dialog with its caption (moment, machine, time on the machine). Nothing when empty.
 */
export function CaptureThumbnails({ captures, load, title }: CaptureThumbnailsProps) {
  const [shown, setShown] = useState<CaptureRow | null>(null);
  if (captures.length === 0) return null;
  return (
    <>
      <HStack gap="1" data-testid="capture-thumbnails">
        {captures.map((capture) => (
          <Button
            key={capture.id}
            variant="ghost"
            p="0"
            height="auto"
            minWidth="0"
            aria-label={`Ampliar la captura: ${captureCaption(capture)}`}
            title={captureCaption(capture)}
            onClick={() => setShown(capture)}
            data-testid={`capture-thumbnail-${capture.id}`}
          >
            <CaptureImage
              id={capture.id}
              load={load}
              alt={captureCaption(capture)}
              height={THUMBNAIL_HEIGHT}
            />
          </Button>
        ))}
      </HStack>
      <AppDialog
        open={shown !== null}
        onClose={() => setShown(null)}
        title={title}
        size="xl"
        closeLabel="Cerrar"
        testId="capture-enlarged"
      >
        {shown ? (
          <Stack gap="2" alignItems="center">
            <CaptureImage id={shown.id} load={load} alt={captureCaption(shown)} height="auto" />
            <Text fontSize="sm">{captureCaption(shown)}</Text>
          </Stack>
        ) : null}
      </AppDialog>
    </>
  );
}
