import { useEffect, useState } from 'react';
import { Box, Spinner, Text } from '@chakra-ui/react';

/** Loads a capture's image with the caller's credentials (an `<img src>` sends no bearer token). */
export type CaptureImageLoader = (id: number, signal: AbortSignal) => Promise<Blob>;

/** Props of {@link CaptureImage}. */
export interface CaptureImageProps {
  id: number;
  load: CaptureImageLoader;
  alt: string;
  /** Height of the box while it loads, and of the image (CSS). */
  height: string;
  /** Most width of the image (CSS). */
  maxWidth?: string;
}

/**
 * A capture's image: fetched once by `load` into an object URL (revoked when it goes), a spinner
 * meanwhile, «Imagen no disponible» when it fails.
 */
export function CaptureImage({ id, load, alt, height, maxWidth = '100%' }: CaptureImageProps) {
  const [state, setState] = useState<{ id: number; url: string | null; failed: boolean }>({
    id,
    url: null,
    failed: false,
  });
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    load(id, controller.signal)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setState({ id, url, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ id, url: null, failed: true });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, load]);

  const current = state.id === id ? state : { url: null, failed: false };
  if (current.url) {
    return <img src={current.url} alt={alt} style={{ height, maxWidth, objectFit: 'contain' }} />;
  }
  return (
    <Box height={height} display="flex" alignItems="center" justifyContent="center" minWidth="12">
      {current.failed ? (
        <Text fontSize="xs" color="fg.muted">
          Imagen no disponible
        </Text>
      ) : (
        <Spinner size="sm" aria-label="Cargando la captura" />
      )}
    </Box>
  );
}
