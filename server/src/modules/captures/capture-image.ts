import sharp from 'sharp';
import { CAPTURE_MAX_WIDTH, type CaptureMime } from '@concurso/shared';

// No cache of decoded images: each capture is decoded once.
sharp.cache(false);

/** Most pixels a capture may decode to (a 4K screen): a small file claiming a huge image is refused. */
const MAX_INPUT_PIXELS = 3840 * 2160;
/** JPEG quality of a stored capture: the text of a screen stays readable at 1280 pixels wide. */
const JPEG_QUALITY = 70;

/** A capture decoded and written again: JPEG bytes and their size in pixels. */
export interface ReencodedCapture {
  jpeg: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes `bytes` as the `mime` the agent claimed and encodes it again as a baseline JPEG without
 * metadata, at most `CAPTURE_MAX_WIDTH` pixels wide (wider ones scaled down). Null when the bytes are not
 * an image of that format (a PNG, an SVG or text claiming `image/jpeg`), cannot be decoded, or decode to
 * more than `MAX_INPUT_PIXELS`. Only pixels survive: whatever else a polyglot file carried (a ZIP or
 * HTML appended, EXIF, comments) is not in the answer.
 */
export async function reencodeCapture(bytes: Buffer, mime: CaptureMime): Promise<ReencodedCapture | null> {
  const expected = mime === 'image/jpeg' ? 'jpeg' : 'webp';
  try {
    const input = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const metadata = await input.metadata();
    if (metadata.format !== expected) return null;
    const { data, info } = await input
      .resize({ width: CAPTURE_MAX_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: JPEG_QUALITY })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}
