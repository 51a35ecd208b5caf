/**
 * The captures' image functions (capture-codec.ts) with shared's limits as defaults: at most
 * `CAPTURE_MAX_WIDTH` px wide and `CAPTURE_MAX_BYTES` per JPEG, which the server enforces
 * (agent/README.md, «Capturas de pantalla»).
 */
import { CAPTURE_MAX_BYTES, CAPTURE_MAX_WIDTH } from '@concurso/shared';
import {
  encodeWithin,
  scaleToWidth as scaleWithin,
  type EncodedCapture,
  type RgbaImage,
} from './capture-codec.js';

export { decodeBmp, decodeDump, type DumpFormat, type RgbaImage } from './capture-codec.js';

/** `image` scaled down to at most `maxWidth` px wide (default `CAPTURE_MAX_WIDTH`); capture-codec.ts. */
export function scaleToWidth(image: RgbaImage, maxWidth = CAPTURE_MAX_WIDTH): RgbaImage {
  return scaleWithin(image, maxWidth);
}

/**
 * `image` as a JPEG of at most `maxBytes` (default `CAPTURE_MAX_BYTES`), at most `CAPTURE_MAX_WIDTH`
 * px wide (capture-codec.ts `encodeWithin`).
 */
export function encodeCapture(image: RgbaImage, maxBytes = CAPTURE_MAX_BYTES): EncodedCapture {
  return encodeWithin(image, maxBytes, CAPTURE_MAX_WIDTH);
}
