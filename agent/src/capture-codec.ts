/**
 * The pixels of a screen capture (agent/README.md, «Capturas de pantalla»): the X server's dump
 * (`xwd -root`, Linux) and the Windows helper's 24-bit BMP (agent/native/screenshot.c) read into RGBA,
 * scaled down to at most a width and encoded as a JPEG of at most a size (the quality goes down, then
 * the size, until it fits) in plain JavaScript (jpeg-js: no native module, bundled into the single
 * executable). The limits are parameters: this file imports nothing of `@concurso/shared`, so the
 * captures' encoder thread (capture-encoder-thread.ts) loads only this and jpeg-js; capture-image.ts
 * gives the same functions with shared's limits as defaults.
 */
import { encode as encodeJpeg } from 'jpeg-js';

/** JPEG qualities tried in order (jpeg-js's 1-100 scale). */
const QUALITIES = [70, 55, 40, 28];

/** An image in memory: `width` × `height` pixels, 4 bytes each (R, G, B, A = 255), rows top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Buffer;
}

/** Why a dump could not be read: one short Spanish phrase for the agent's log. */
class CaptureFormatError extends Error {}

/** Reads a 32-bit field of an XWD header (always most significant byte first). */
const field = (bytes: Buffer, index: number): number => bytes.readUInt32BE(index * 4);

/**
 * Reads `xwd -root` output (X11's XWD format, version 7): its 100-byte header (25 big-endian 32-bit
 * fields), the window name, the colour map (12 bytes per colour) and the pixels, ZPixmap, in the
 * header's byte order. Only true colour (TrueColor or DirectColor visuals, 16, 24 or 32 bits per
 * pixel, the masks of the header), which every current X server uses.
 * @throws CaptureFormatError for anything else or a short file.
 */
function decodeXwd(bytes: Buffer): RgbaImage {
  if (bytes.length < 100) throw new CaptureFormatError('volcado de pantalla incompleto');
  const headerSize = field(bytes, 0);
  const version = field(bytes, 1);
  const format = field(bytes, 2);
  const width = field(bytes, 4);
  const height = field(bytes, 5);
  const byteOrder = field(bytes, 7);
  const bitsPerPixel = field(bytes, 11);
  const bytesPerLine = field(bytes, 12);
  const visualClass = field(bytes, 13);
  const masks = [field(bytes, 14), field(bytes, 15), field(bytes, 16)] as const;
  const colours = field(bytes, 19);
  // ZPixmap (2) of a TrueColor (4) or DirectColor (5) visual.
  if (version !== 7 || format !== 2 || (visualClass !== 4 && visualClass !== 5))
    throw new CaptureFormatError('formato de pantalla no admitido');
  if (![16, 24, 32].includes(bitsPerPixel) || width === 0 || height === 0)
    throw new CaptureFormatError('formato de pantalla no admitido');
  const start = headerSize + colours * 12;
  if (bytes.length < start + bytesPerLine * height)
    throw new CaptureFormatError('volcado de pantalla incompleto');
  const channels = masks.map((mask) => {
    const shift = mask === 0 ? 0 : Math.log2(mask & -mask);
    const max = mask === 0 ? 1 : mask / 2 ** shift;
    return { mask, shift, max };
  });
  // xwd says 24 bits per pixel for a depth-24 screen whose pixels take 32 (its rows tell).
  const pixelBytes = bitsPerPixel >= 24 && bytesPerLine >= width * 4 ? 4 : bitsPerPixel / 8;
  const little = byteOrder === 0;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    let at = start + y * bytesPerLine;
    let to = y * width * 4;
    for (let x = 0; x < width; x++, at += pixelBytes, to += 4) {
      let pixel: number;
      if (pixelBytes === 4) pixel = little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
      else if (pixelBytes === 3)
        pixel = little
          ? bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
          : (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
      else pixel = little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at);
      for (let c = 0; c < 3; c++) {
        const { mask, shift, max } = channels[c]!;
        data[to + c] =
          max === 255 ? (pixel & mask) >>> shift : Math.round((((pixel & mask) >>> shift) * 255) / max);
      }
      data[to + 3] = 255;
    }
  }
  return { width, height, data };
}

/**
 * Reads a 24-bit (or 32-bit) uncompressed BMP, as the Windows helper writes it (BITMAPFILEHEADER,
 * BITMAPINFOHEADER, rows bottom-up unless the height is negative, each padded to 4 bytes, B G R).
 * @throws CaptureFormatError for anything else or a short file.
 */
export function decodeBmp(bytes: Buffer): RgbaImage {
  if (bytes.length < 54 || bytes.toString('latin1', 0, 2) !== 'BM')
    throw new CaptureFormatError('imagen de pantalla no válida');
  const offset = bytes.readUInt32LE(10);
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bitsPerPixel = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  if (width <= 0 || height === 0 || (bitsPerPixel !== 24 && bitsPerPixel !== 32) || compression !== 0)
    throw new CaptureFormatError('imagen de pantalla no admitida');
  const pixelBytes = bitsPerPixel / 8;
  const stride = Math.ceil((width * pixelBytes) / 4) * 4;
  if (bytes.length < offset + stride * height) throw new CaptureFormatError('imagen de pantalla incompleta');
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = rawHeight > 0 ? height - 1 - y : y;
    let at = offset + row * stride;
    let to = y * width * 4;
    for (let x = 0; x < width; x++, at += pixelBytes, to += 4) {
      data[to] = bytes[at + 2]!;
      data[to + 1] = bytes[at + 1]!;
      data[to + 2] = bytes[at]!;
      data[to + 3] = 255;
    }
  }
  return { width, height, data };
}

/** A screen dump as its tool wrote it: `xwd` (Linux) or `bmp` (screenshot.exe, Windows). */
export type DumpFormat = 'xwd' | 'bmp';

/** A dump read into pixels (`decodeXwd` or `decodeBmp`). @throws CaptureFormatError for one it cannot read. */
export function decodeDump(bytes: Buffer, format: DumpFormat): RgbaImage {
  return format === 'xwd' ? decodeXwd(bytes) : decodeBmp(bytes);
}

/**
 * `image` scaled down to at most `maxWidth` px wide (the same image when it already fits), each
 * pixel the average of the source pixels it covers (a box filter: text stays legible, no aliasing).
 */
export function scaleToWidth(image: RgbaImage, maxWidth: number): RgbaImage {
  if (image.width <= maxWidth) return image;
  const width = maxWidth;
  const height = Math.max(1, Math.round((image.height * width) / image.width));
  const data = Buffer.alloc(width * height * 4);
  const sums = new Float64Array(width * 3);
  const counts = new Float64Array(width);
  // Which destination column each source column falls in.
  const column = new Uint32Array(image.width);
  for (let x = 0; x < image.width; x++)
    column[x] = Math.min(width - 1, Math.floor((x * width) / image.width));
  let y0 = 0;
  for (let y = 0; y < height; y++) {
    const y1 = Math.max(y0 + 1, Math.min(image.height, Math.round(((y + 1) * image.height) / height)));
    sums.fill(0);
    counts.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      let at = sy * image.width * 4;
      for (let x = 0; x < image.width; x++, at += 4) {
        const c = column[x]!;
        sums[c * 3]! += image.data[at]!;
        sums[c * 3 + 1]! += image.data[at + 1]!;
        sums[c * 3 + 2]! += image.data[at + 2]!;
        counts[c]! += 1;
      }
    }
    let to = y * width * 4;
    for (let x = 0; x < width; x++, to += 4) {
      const n = counts[x]! || 1;
      data[to] = Math.round(sums[x * 3]! / n);
      data[to + 1] = Math.round(sums[x * 3 + 1]! / n);
      data[to + 2] = Math.round(sums[x * 3 + 2]! / n);
      data[to + 3] = 255;
    }
    y0 = y1;
  }
  return { width, height, data };
}

/** An encoded capture. */
export interface EncodedCapture {
  jpeg: Buffer;
  width: number;
  height: number;
  /** The JPEG quality that fitted (1-100). */
  quality: number;
}

/**
 * `image` as a JPEG of at most `maxBytes` (bytes), at most `maxWidth` px wide: the first of
 * `QUALITIES` that fits; past the last, the image is halved and tried again. About 100-300 ms of CPU
 * for a 1280 × 720 screen (agent/README.md gives the figures): the agent runs it on a thread of its
 * own (capture-encoder.ts), never between the stop and the kill.
 */
export function encodeWithin(image: RgbaImage, maxBytes: number, maxWidth: number): EncodedCapture {
  let scaled = scaleToWidth(image, maxWidth);
  for (;;) {
    for (const quality of QUALITIES) {
      const jpegBytes = Buffer.from(encodeJpeg(scaled, quality).data);
      if (jpegBytes.length <= maxBytes || scaled.width <= 160)
        return { jpeg: jpegBytes, width: scaled.width, height: scaled.height, quality };
    }
    scaled = scaleToWidth(scaled, Math.floor(scaled.width / 2));
  }
}
