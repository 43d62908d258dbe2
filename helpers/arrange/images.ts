import { crc32, deflateSync } from 'node:zlib';
import { uploadFile, type UploadFile } from '../net/multipart.js';

/**
 * Real image files made in code for the card uploads of section 4.6a (section 8: jpg, jpeg, bmp or
 * png, at most 10240 KB each). Every image here is a well-formed file of its format, so a target that
 * decodes uploads (as PHP's finfo/getimagesize do) judges it by its content, not by its name.
 */

/**
 * Section 8: the upload limit, "10240 KB". The specification does not say whether a KB is 1024 or
 * 1000 bytes, so the suite tests only sizes on which both readings agree:
 * - AT_LIMIT_IMAGE_BYTES, 10 240 000 bytes: inside the limit under both readings (10240 x 1000);
 * - OVER_LIMIT_IMAGE_BYTES, 10240 x 1024 + 1024 bytes: over the limit under both readings.
 * MAX_IMAGE_BYTES (10240 x 1024, Laravel's `max:10240` on a file) is the largest size of the
 * 1024-byte reading, the one the reference implements; the suite never requires it to be accepted.
 */
export const MAX_IMAGE_BYTES = 10240 * 1024;
export const AT_LIMIT_IMAGE_BYTES = 10240 * 1000;
export const OVER_LIMIT_IMAGE_BYTES = 10240 * 1024 + 1024;

/** The whole content of a file, in one buffer (for the reference's own tests; the suite streams files). */
export function fileBytes(file: UploadFile): Buffer {
  return Buffer.concat([...file.chunks()]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The blue of a PNG's gradient, one a picture: the card, and the card with the user holding it (section 4.6a gives the
 * two images as two pictures; a target may refuse the same file sent as both, so a valid card is sent with two).
 */
const PNG_BLUE = { card: 0x80, held: 0x30 } as const;
export type PngPicture = keyof typeof PNG_BLUE;

/** The chunks of a small truecolour PNG (8x8 gradient): IHDR and IDAT, without signature and IEND. */
function pngCore(size = 8, picture: PngPicture = 'card'): Buffer[] {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter type None
    for (let x = 0; x < size; x++) rows.push((x * 32) & 0xff, (y * 32) & 0xff, PNG_BLUE[picture]);
  }
  return [pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.from(rows)))];
}

const IEND = pngChunk('IEND', Buffer.alloc(0));

/** A valid 8x8 PNG (signature, IHDR, zlib-compressed IDAT, IEND, correct CRCs); `held`: another picture, its bytes other. */
export function pngBytes(picture: PngPicture = 'card'): Buffer {
  return Buffer.concat([PNG_SIGNATURE, ...pngCore(8, picture), IEND]);
}

/**
 * White-box round wb21 (fix-wb21b): the other members of the class "png" (section 8 gives the type, no colour model, depth,
 * layout, metadata or dimension). Each is a valid PNG of its kind, made in code and a few hundred bytes at most:
 * - `rgba`: truecolour with alpha (colour type 6, what a phone's screenshot is);
 * - `palette`: indexed colour (type 3, with a PLTE of four colours, what pngquant writes);
 * - `grey`: greyscale (type 0, what a document scanner writes);
 * - `deep`: truecolour of 16 bits a channel;
 * - `adam7`: truecolour, interlaced (Adam7: seven passes);
 * - `text`: truecolour with a tEXt chunk (Software), the metadata most editors write;
 * - `wide`: truecolour of 4608x8 pixels (wider than 4096; it compresses to a few hundred bytes).
 */
export type PngKind = 'rgba' | 'palette' | 'grey' | 'deep' | 'adam7' | 'text' | 'wide';

/** Adam7's seven passes: the first column and row of each, and its steps across and down. */
const ADAM7: readonly [x0: number, y0: number, dx: number, dy: number][] = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

export function pngOfKind(kind: PngKind): Buffer {
  const width = kind === 'wide' ? 4608 : 8;
  const height = 8;
  const colour = { rgba: 6, palette: 3, grey: 0 }[kind as string] ?? 2;
  const depth = kind === 'deep' ? 16 : 8;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colour;
  ihdr[12] = kind === 'adam7' ? 1 : 0;
  /** The samples of pixel (x, y), as its colour type and depth write them. */
  const pixel = (x: number, y: number): number[] => {
    const r = (x * 32) & 0xff;
    const g = (y * 32) & 0xff;
    if (colour === 3) return [(x + y) & 3];
    if (colour === 0) return [(r + g) >> 1];
    if (colour === 6) return [r, g, 0x60, 0x80 + y * 16];
    if (depth === 16) return [r, r, g, g, 0x50, 0x05];
    return [r, g, 0x50];
  };
  const rows: number[] = [];
  const passes = kind === 'adam7' ? ADAM7 : [[0, 0, 1, 1] as const];
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0; y < height; y += dy) {
      if (x0 >= width) continue;
      rows.push(0); // filter type None
      for (let x = x0; x < width; x += dx) rows.push(...pixel(x, y));
    }
  }
  const chunks = [pngChunk('IHDR', ihdr)];
  if (colour === 3) chunks.push(pngChunk('PLTE', Buffer.from([0x10, 0x20, 0x80, 0x80, 0x40, 0x10, 0xf0, 0xe0, 0x30, 0x20, 0xa0, 0x60])));
  if (kind === 'text') chunks.push(pngChunk('tEXt', Buffer.from('Software\0account-api-conformance', 'latin1')));
  chunks.push(pngChunk('IDAT', deflateSync(Buffer.from(rows), { level: 9 })));
  return Buffer.concat([PNG_SIGNATURE, ...chunks, IEND]);
}

/** The padding of the large PNGs, 64 KiB of one byte a picture: shared by every chunk and never written after they are made. */
const PADDINGS = new Map<PngPicture, Buffer>();
const paddingOf = (picture: PngPicture) => PADDINGS.get(picture) ?? PADDINGS.set(picture, Buffer.alloc(64 * 1024, picture === 'card' ? 0x20 : 0x2e)).get(picture)!;

/**
 * A valid PNG of exactly `total` bytes: the small image plus one private ancillary chunk (`paDd`,
 * which decoders skip) carrying the padding, so the file stays a real PNG at any size. Its padding
 * is sent as views of one 64 KiB buffer, so a 10 MB file costs no 10 MB of memory; only its CRC is
 * computed ahead, once. `held`: another picture (its pixels and padding other), of the same size.
 */
export function paddedPng(name: string, total: number, picture: PngPicture = 'card'): UploadFile {
  const pad = paddingOf(picture);
  const core = Buffer.concat([PNG_SIGNATURE, ...pngCore(8, picture)]);
  const padding = total - core.length - IEND.length - 12;
  if (padding < 0) throw new Error(`a padded PNG cannot be smaller than ${core.length + IEND.length + 12} bytes`);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(padding, 0);
  head.write('paDd', 4, 'ascii');
  function* paddingChunks(): Generator<Buffer> {
    for (let left = padding; left > 0; left -= pad.length) yield left >= pad.length ? pad : pad.subarray(0, left);
  }
  let crc = crc32(head.subarray(4));
  for (const chunk of paddingChunks()) crc = crc32(chunk, crc);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc >>> 0, 0);
  return {
    name,
    type: 'image/png',
    size: total,
    *chunks() {
      yield core;
      yield head;
      yield* paddingChunks();
      yield tail;
      yield IEND;
    },
  };
}

/** APP0 JFIF: the segment a JFIF JPEG opens with. */
const APP0_JFIF = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
/** APP1 Exif: the segment a camera's or phone's JPEG opens with (Exif 2.3): "Exif\0\0", a little-endian TIFF header and an empty IFD0. */
const APP1_EXIF = [0xff, 0xe1, 0x00, 0x16, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00, 0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];

/**
 * A minimal valid baseline JPEG (1x1 grey): one quantisation table, one-code DC and AC Huffman tables, and a scan
 * whose only block is DC difference 0 followed by end-of-block. JFIF (APP0) by default; `exif`: an Exif JPEG (APP1,
 * no APP0), as cameras and phones write (white-box round wb10).
 */
export function jpegBytes(kind: 'jfif' | 'exif' = 'jfif'): Buffer {
  const ones = new Array<number>(64).fill(1);
  const oneCodeTable = (classAndId: number) => [0xff, 0xc4, 0x00, 0x14, classAndId, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    0xff, 0xd8, // SOI
    ...(kind === 'jfif' ? APP0_JFIF : APP1_EXIF),
    0xff, 0xdb, 0x00, 0x43, 0x00, ...ones, // DQT, table 0
    0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00, // SOF0: 8-bit, 1x1, one component
    ...oneCodeTable(0x00), // DHT: DC table 0, code "0" = category 0
    ...oneCodeTable(0x10), // DHT: AC table 0, code "0" = EOB
    0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, // SOS
    0x3f, // entropy-coded data: DC "0", EOB "0", padded with ones
    0xff, 0xd9, // EOI
  ]);
}

/**
 * White-box round wb21 (fix-wb21b): a minimal valid progressive JPEG (SOF2, 1x1 grey), as many web tools and phones save
 * one: the quantisation table and one-code Huffman tables of jpegBytes, then two scans, the DC coefficients (Ss=Se=0: a
 * difference of 0) and the AC band 1 to 63 (an end of band, EOB0, for the one block).
 */
export function progressiveJpegBytes(): Buffer {
  const ones = new Array<number>(64).fill(1);
  const oneCodeTable = (classAndId: number) => [0xff, 0xc4, 0x00, 0x14, classAndId, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    0xff, 0xd8, // SOI
    ...APP0_JFIF,
    0xff, 0xdb, 0x00, 0x43, 0x00, ...ones, // DQT, table 0
    0xff, 0xc2, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00, // SOF2: progressive, 8-bit, 1x1, one component
    ...oneCodeTable(0x00), // DHT: DC table 0, code "0" = category 0
    0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, // SOS: DC scan (Ss 0, Se 0, Ah/Al 0)
    0x7f, // DC "0", padded with ones
    ...oneCodeTable(0x10), // DHT: AC table 0, code "0" = EOB0
    0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3f, 0x00, // SOS: AC scan, band 1 to 63
    0x7f, // EOB0 "0", padded with ones
    0xff, 0xd9, // EOI
  ]);
}

/**
 * A valid 2x2 24-bit BMP, rows padded to 4 bytes, stored bottom-up. White-box round wb21 (fix-wb21b): `topDown`, its rows
 * stored top-down (a negative height, as Windows' DIB sections and many writers store them); `bits` 32, BGRA pixels
 * (BI_RGB, the fourth byte unused or alpha: what a Windows screenshot is). Its DIB header: BITMAPINFOHEADER (40 bytes) by default;
 * BITMAPV4HEADER (108) or BITMAPV5HEADER (124, GIMP's default), as sRGB without masks (BI_RGB) (white-box round wb10).
 */
export function bmpBytes(header: 40 | 108 | 124 = 40, layout: { topDown?: boolean; bits?: 24 | 32 } = {}): Buffer {
  const width = 2;
  const height = 2;
  const bits = layout.bits ?? 24;
  const bytesPerPixel = bits / 8;
  const rowSize = Math.ceil((width * bytesPerPixel) / 4) * 4;
  const pixels = rowSize * height;
  const offset = 14 + header;
  const buffer = Buffer.alloc(offset + pixels);
  buffer.write('BM', 0, 'ascii');
  buffer.writeUInt32LE(buffer.length, 2);
  buffer.writeUInt32LE(offset, 10);
  buffer.writeUInt32LE(header, 14);
  buffer.writeInt32LE(width, 18);
  buffer.writeInt32LE(layout.topDown ? -height : height, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(bits, 28);
  buffer.writeUInt32LE(0, 30);
  buffer.writeUInt32LE(pixels, 34);
  buffer.writeInt32LE(2835, 38);
  buffer.writeInt32LE(2835, 42);
  // V4 and V5: colour masks (unused under BI_RGB, left 0), the colour space sRGB ('sRGB' as LCS_sRGB), endpoints and
  // gammas 0; V5 adds the rendering intent (LCS_GM_IMAGES) and no profile.
  if (header >= 108) buffer.writeUInt32LE(0x73524742, 14 + 56);
  if (header >= 124) buffer.writeUInt32LE(4, 14 + 108);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) buffer.set(bits === 32 ? [0x20 * x, 0x40 * y, 0xc0, 0xff] : [0x20 * x, 0x40 * y, 0xc0], offset + y * rowSize + x * bytesPerPixel);
  return buffer;
}

/**
 * White-box round wb24 (fix-wb24open): a minimal valid baseline JPEG (1x1) of `components` components, each sampled 1x1
 * and sharing jpegBytes' quantisation and one-code Huffman tables, one interleaved scan (each block DC "0" and EOB "0").
 * Three: a YCbCr JPEG under JFIF (APP0), as most cameras write colour. Four: a CMYK JPEG under an Adobe APP14 segment
 * (transform 0, no colour transform), as print software and scanners write it. `trailer`: bytes after the end-of-image
 * marker (a phone's motion photo appends its video so).
 */
export function colourJpegBytes(components: 3 | 4, trailer?: Buffer): Buffer {
  const ones = new Array<number>(64).fill(1);
  const oneCodeTable = (classAndId: number) => [0xff, 0xc4, 0x00, 0x14, classAndId, 1, ...new Array<number>(15).fill(0), 0x00];
  const ids = Array.from({ length: components }, (_, i) => i + 1);
  // Adobe APP14: "Adobe", version 100, flags 0 and 0, transform 0 (CMYK as is).
  const adobe = [0xff, 0xee, 0x00, 0x0e, 0x41, 0x64, 0x6f, 0x62, 0x65, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00];
  // The entropy-coded data: two bits "0" a component, padded with ones to the byte.
  const bits = 2 * components;
  const data = Array.from({ length: Math.ceil(bits / 8) }, (_, i) => (0xff >> Math.min(8, bits - i * 8)) & 0xff);
  return Buffer.concat([
    Buffer.from([
      0xff, 0xd8, // SOI
      ...(components === 4 ? adobe : APP0_JFIF),
      0xff, 0xdb, 0x00, 0x43, 0x00, ...ones, // DQT, table 0
      0xff, 0xc0, 0x00, 8 + 3 * components, 0x08, 0x00, 0x01, 0x00, 0x01, components, ...ids.flatMap((id) => [id, 0x11, 0x00]), // SOF0: 8-bit, 1x1
      ...oneCodeTable(0x00), // DHT: DC table 0, code "0" = category 0
      ...oneCodeTable(0x10), // DHT: AC table 0, code "0" = EOB
      0xff, 0xda, 0x00, 6 + 2 * components, components, ...ids.flatMap((id) => [id, 0x00]), 0x00, 0x3f, 0x00, // SOS: every component, tables 0
      ...data,
      0xff, 0xd9, // EOI
    ]),
    trailer ?? Buffer.alloc(0),
  ]);
}

/** An ISO base media `ftyp` box of `major` with `compatible` brands, and the start of a video's `mdat` (a motion photo's trailer). */
function isoBox(type: string, payload: Buffer): Buffer {
  const box = Buffer.alloc(8 + payload.length);
  box.writeUInt32BE(box.length, 0);
  box.write(type, 4, 'latin1');
  payload.copy(box, 8);
  return box;
}
function ftyp(major: string, compatible: readonly string[]): Buffer {
  return isoBox('ftyp', Buffer.concat([Buffer.from(major, 'latin1'), Buffer.alloc(4), ...compatible.map((brand) => Buffer.from(brand, 'latin1'))]));
}
/** The MP4 a phone appends after a JPEG's end-of-image marker (a motion photo): its ftyp and an mdat of a few bytes. */
export function motionPhotoTrailer(): Buffer {
  return Buffer.concat([ftyp('isom', ['isom', 'mp42']), isoBox('mdat', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]))]);
}

/**
 * White-box round wb24 (fix-wb24open): a HEIF image file of `kind` (ISO/IEC 23008-12), its `ftyp` (major brand heic, or
 * avif for AV1, both with mif1) and a `meta` box whose handler is `pict`, as an iPhone's HEIC or a browser's AVIF opens:
 * an image of a type section 8 does not list (jpg, jpeg, bmp, png), refused however the target tells types apart.
 */
export function heifBytes(kind: 'heic' | 'avif'): Buffer {
  const hdlr = isoBox('hdlr', Buffer.concat([Buffer.alloc(4), Buffer.alloc(4), Buffer.from('pict', 'latin1'), Buffer.alloc(12), Buffer.from([0])]));
  const meta = isoBox('meta', Buffer.concat([Buffer.alloc(4), hdlr]));
  return Buffer.concat([kind === 'heic' ? ftyp('heic', ['mif1', 'heic']) : ftyp('avif', ['avif', 'mif1', 'miaf']), meta]);
}

/**
 * White-box round wb24 (fix-wb24open): a valid 2x2 BMP of another layout than bmpBytes': `bits` 1, 4 or 8 with a palette
 * of two colours (BI_RGB; the indexed BMPs of old tools and of Windows' Paint), 16 (BI_RGB, 5-5-5), 8 or 4 compressed
 * with RLE (`rle`: BI_RLE8, BI_RLE4), or `os2`: a BITMAPCOREHEADER (12 bytes) of 24 bits, as OS/2 and old writers store
 * it. Rows bottom-up, padded to 4 bytes.
 */
export function bmpOfLayout(layout: { bits: 1 | 4 | 8 | 16; rle?: boolean } | 'os2'): Buffer {
  const [width, height] = [2, 2];
  if (layout === 'os2') {
    const rowSize = 8; // 2 pixels x 3 bytes, padded to 8
    const buffer = Buffer.alloc(14 + 12 + rowSize * height);
    buffer.write('BM', 0, 'ascii');
    buffer.writeUInt32LE(buffer.length, 2);
    buffer.writeUInt32LE(26, 10);
    buffer.writeUInt32LE(12, 14);
    buffer.writeUInt16LE(width, 18);
    buffer.writeUInt16LE(height, 20);
    buffer.writeUInt16LE(1, 22);
    buffer.writeUInt16LE(24, 24);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) buffer.set([0x20 * x, 0x40 * y, 0xc0], 26 + y * rowSize + x * 3);
    return buffer;
  }
  const { bits, rle } = layout;
  const palette = bits <= 8 ? Buffer.from([0xc0, 0x40, 0x20, 0x00, 0x20, 0x80, 0xe0, 0x00]) : Buffer.alloc(0); // two BGRx entries
  const rowSize = Math.ceil((width * bits) / 32) * 4;
  // Pixels: index 0 then 1 on each row (a 16-bit pixel: two 5-5-5 colours).
  const row = (): number[] => (bits === 1 ? [0b01000000] : bits === 4 ? [0x01] : bits === 8 ? [0x00, 0x01] : [0x1f, 0x00, 0xe0, 0x7f]);
  const pixels = rle
    ? Buffer.from(bits === 8 ? [0x01, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x01, 0x00, 0x01] : [0x02, 0x01, 0x00, 0x00, 0x02, 0x01, 0x00, 0x01])
    : Buffer.concat(Array.from({ length: height }, () => { const line = Buffer.alloc(rowSize); line.set(row()); return line; }));
  const offset = 14 + 40 + palette.length;
  const buffer = Buffer.alloc(offset + pixels.length);
  buffer.write('BM', 0, 'ascii');
  buffer.writeUInt32LE(buffer.length, 2);
  buffer.writeUInt32LE(offset, 10);
  buffer.writeUInt32LE(40, 14);
  buffer.writeInt32LE(width, 18);
  buffer.writeInt32LE(height, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(bits, 28);
  buffer.writeUInt32LE(rle ? (bits === 8 ? 1 : 2) : 0, 30);
  buffer.writeUInt32LE(pixels.length, 34);
  buffer.writeInt32LE(2835, 38);
  buffer.writeInt32LE(2835, 42);
  buffer.writeUInt32LE(palette.length / 4, 46);
  palette.copy(buffer, 54);
  pixels.copy(buffer, offset);
  return buffer;
}

/** A valid 1x1 GIF89a: an image, but not one of the allowed types. */
export function gifBytes(): Buffer {
  return Buffer.from([
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00,
    0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
  ]);
}

const made = new Map<string, UploadFile>();

function once(key: string, make: () => UploadFile): UploadFile {
  let file = made.get(key);
  if (!file) made.set(key, (file = make()));
  return file;
}

/** A real PNG written as a data URL: what a client sends when it puts the image in a plain text part instead of a file. */
export function pngDataUrl(): string {
  return `data:image/png;base64,${pngBytes().toString('base64')}`;
}

/**
 * An https URL of an image, what a client sends when it names a remote image in a plain text part instead of uploading
 * it (white-box round wb15: a server that fetches it, addMediaFromUrl). The host is example.com, reserved for examples
 * (RFC 2606): nothing of the target's is ever pointed at a real third party.
 */
export function imageUrl(): string {
  return 'https://example.com/images/card.png';
}

/**
 * A valid lossless WebP of 1x1 pixel (RIFF, WEBP, one VP8L chunk): an image, but of a type section 8 does not
 * list (jpg, jpeg, bmp, png), so it is refused however the target tells types apart.
 */
export function webpBytes(): Buffer {
  return Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
}

/**
 * A valid 1x1 SVG: an image format (XML text), but not one of the types section 8 lists (jpg, jpeg, bmp, png), so it
 * is refused however the target tells types apart (white-box round wb9).
 */
export function svgBytes(): Buffer {
  return Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1" fill="#000"/></svg>\n', 'utf8');
}

/**
 * A valid uncompressed 1x1 greyscale TIFF, little-endian (`II*\0`) or big-endian (`MM\0*`): an image, but not one of
 * the types section 8 lists (white-box round wb9). One IFD of eight entries, then the one pixel.
 */
export function tiffBytes(order: 'little' | 'big'): Buffer {
  const count = 8;
  const entries: [tag: number, type: 3 | 4, value: number][] = [
    [256, 3, 1], // ImageWidth
    [257, 3, 1], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: BlackIsZero
    [273, 4, 8 + 2 + count * 12 + 4], // StripOffsets: the pixel after the IFD
    [278, 3, 1], // RowsPerStrip
    [279, 4, 1], // StripByteCounts
  ];
  const buffer = Buffer.alloc(8 + 2 + entries.length * 12 + 4 + 1);
  const u16 = (value: number, at: number) => (order === 'little' ? buffer.writeUInt16LE(value, at) : buffer.writeUInt16BE(value, at));
  const u32 = (value: number, at: number) => (order === 'little' ? buffer.writeUInt32LE(value, at) : buffer.writeUInt32BE(value, at));
  buffer.write(order === 'little' ? 'II' : 'MM', 0, 'ascii');
  u16(42, 2);
  u32(8, 4);
  u16(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    u16(tag, at);
    u16(type, at + 2);
    u32(1, at + 4);
    if (type === 3) u16(value, at + 8);
    else u32(value, at + 8);
  });
  u32(0, 10 + entries.length * 12);
  buffer[buffer.length - 1] = 0x80;
  return buffer;
}

/**
 * SUM_OVER_LIMIT_IMAGE_BYTES, 6 000 000 bytes: inside the limit of section 8 under both readings of a KB, while two
 * of them (12 000 000 bytes) are over it under both: what tells a limit per image from one on the images together.
 */
export const SUM_OVER_LIMIT_IMAGE_BYTES = 6_000_000;

export const IMAGES = {
  png: () => once('png', () => uploadFile('card.png', 'image/png', pngBytes())),
  /**
   * Issue 28 (reading round r21, allowed-r21-card-images-must-differ): the second image of a valid card, another
   * picture than `png` (its bytes and name other): "cardImage2 ... the card with the user holding it".
   */
  pngHeld: () => once('png-held', () => uploadFile('card-held.png', 'image/png', pngBytes('held'))),
  jpeg: () => once('jpeg', () => uploadFile('card.jpg', 'image/jpeg', jpegBytes())),
  bmp: () => once('bmp', () => uploadFile('card.bmp', 'image/bmp', bmpBytes())),
  /** White-box round wb10: a JPEG that opens with an Exif segment (APP1, no JFIF APP0), as cameras and phones write. */
  jpegExif: () => once('jpeg-exif', () => uploadFile('IMG_0002.jpg', 'image/jpeg', jpegBytes('exif'))),
  /** White-box round wb10: BMPs with a BITMAPV4HEADER (108 bytes) and a BITMAPV5HEADER (124 bytes, GIMP's default). */
  bmpV4: () => once('bmp-v4', () => uploadFile('card-v4.bmp', 'image/bmp', bmpBytes(108))),
  bmpV5: () => once('bmp-v5', () => uploadFile('card-v5.bmp', 'image/bmp', bmpBytes(124))),
  /** The same JPEG named `.jpeg`, the other extension section 8 names. */
  jpegNamedJpeg: () => once('jpeg-name', () => uploadFile('card.jpeg', 'image/jpeg', jpegBytes())),
  /** The same JPEG and PNG named in capitals (`.JPG` as cameras write it, `.PNG`): the letter case of an extension is not said. */
  jpegNamedUpperCase: () => once('jpeg-upper', () => uploadFile('IMG_0001.JPG', 'image/jpeg', jpegBytes())),
  pngNamedUpperCase: () => once('png-upper', () => uploadFile('CARD.PNG', 'image/png', pngBytes())),
  gif: () => once('gif', () => uploadFile('card.gif', 'image/gif', gifBytes())),
  webp: () => once('webp', () => uploadFile('card.webp', 'image/webp', webpBytes())),
  svg: () => once('svg', () => uploadFile('card.svg', 'image/svg+xml', svgBytes())),
  /** TIFFs of both byte orders, as a scanner writes them. */
  tiff: (order: 'little' | 'big') => once(`tiff-${order}`, () => uploadFile(order === 'little' ? 'card.tif' : 'card.tiff', 'image/tiff', tiffBytes(order))),
  /** Real PNGs of 6 000 000 bytes each, one a name and a picture (two different files): each inside the limit, the two together over it. */
  pngHalfOverLimit: (which: 1 | 2) => once(`half-${which}`, () => paddedPng(`card-6000000b-${which}.png`, SUM_OVER_LIMIT_IMAGE_BYTES, which === 1 ? 'card' : 'held')),
  /** Plain text named and declared as a PNG: only its content says it is no image. */
  textAsPng: () => once('text', () => uploadFile('card.png', 'image/png', Buffer.from('This is a text file, not an image.\n'.repeat(8), 'utf8'))),
  /**
   * White-box round wb15: the same text named and declared as each other type section 8 lists (`.jpg`, `.jpeg`, `.bmp`),
   * as a rule that trusts one extension (and sniffs the others) lets it in. A file that is no image is none whatever its name.
   */
  textNamed: (extension: 'jpg' | 'jpeg' | 'bmp') => once(`text-${extension}`, () => uploadFile(`card.${extension}`, extension === 'bmp' ? 'image/bmp' : 'image/jpeg', Buffer.from('This is a text file, not an image.\n'.repeat(8), 'utf8'))),
  /** A file of no bytes, named and declared as a PNG. */
  empty: () => once('empty', () => uploadFile('card.png', 'image/png', Buffer.alloc(0))),
  /** A real PNG of 10 240 000 bytes: 10240 KB of 1000 bytes, inside the limit of section 8 whatever a KB is. */
  pngAtLimit: () => once('limit', () => paddedPng('card-10240000b.png', AT_LIMIT_IMAGE_BYTES)),
  /** A real PNG of 10240 x 1024 + 1024 bytes: over the limit of section 8 whatever a KB is. */
  pngOverLimit: () => once('over', () => paddedPng('card-10241kib.png', OVER_LIMIT_IMAGE_BYTES)),
  /** White-box round wb21 (fix-wb21b): the other members of the class "png" (pngOfKind). */
  pngKind: (kind: PngKind) => once(`png-${kind}`, () => uploadFile(`card-${kind}.png`, 'image/png', pngOfKind(kind))),
  /** White-box round wb21 (fix-wb21b): a progressive JPEG (SOF2). */
  jpegProgressive: () => once('jpeg-progressive', () => uploadFile('card-progressive.jpg', 'image/jpeg', progressiveJpegBytes())),
  /** White-box round wb21 (fix-wb21b): a BMP stored top-down, and one of 32 bits a pixel. */
  bmpTopDown: () => once('bmp-top-down', () => uploadFile('card-top-down.bmp', 'image/bmp', bmpBytes(40, { topDown: true }))),
  bmp32: () => once('bmp-32', () => uploadFile('card-32.bmp', 'image/bmp', bmpBytes(40, { bits: 32 }))),
  /** White-box round wb24 (fix-wb24open): a YCbCr JPEG of three components, a CMYK one (Adobe APP14), and a JPEG with a motion photo's video after its end. */
  jpegYcbcr: () => once('jpeg-ycbcr', () => uploadFile('card-ycbcr.jpg', 'image/jpeg', colourJpegBytes(3))),
  jpegCmyk: () => once('jpeg-cmyk', () => uploadFile('card-cmyk.jpg', 'image/jpeg', colourJpegBytes(4))),
  jpegWithTrailer: () => once('jpeg-trailer', () => uploadFile('MVIMG_0001.jpg', 'image/jpeg', Buffer.concat([jpegBytes('exif'), motionPhotoTrailer()]))),
  /** White-box round wb24 (fix-wb24open): BMPs of 1, 4 and 8 bits (a palette), of 16 bits, compressed RLE8 and RLE4, and one with an OS/2 header (12 bytes). */
  bmpOfLayout: (layout: 1 | 4 | 8 | 16 | 'rle8' | 'rle4' | 'os2') => once(`bmp-layout-${layout}`, () => uploadFile(`card-${layout}.bmp`, 'image/bmp', bmpOfLayout(layout === 'os2' ? 'os2' : layout === 'rle8' ? { bits: 8, rle: true } : layout === 'rle4' ? { bits: 4, rle: true } : { bits: layout }))),
  /** White-box round wb24 (fix-wb24open): a HEIC (an iPhone's photo) and an AVIF, named by their own extensions. */
  heif: (kind: 'heic' | 'avif') => once(`heif-${kind}`, () => uploadFile(`card.${kind}`, `image/${kind}`, heifBytes(kind))),
  /**
   * White-box round wb21 (fix-wb21b): valid PNGs under file names of other classes (section 8 gives the type, not the
   * name): a space (`Card front.png`), letters outside ASCII (`carte-été.png`) and two dots (`card.front.png`). The last
   * extension is `.png` in each, so a reading that checks the extension too (allowed-r8-card-image-name-and-content) takes
   * them; each is another picture or file than the one it is sent beside.
   */
  pngNamedWithSpace: () => once('png-name-space', () => uploadFile('Card front.png', 'image/png', pngBytes())),
  pngNamedNonAscii: () => once('png-name-non-ascii', () => uploadFile('carte-\u00e9t\u00e9.png', 'image/png', pngBytes('held'))),
  pngNamedWithTwoDots: () => once('png-name-two-dots', () => uploadFile('card.front.png', 'image/png', pngBytes())),
} as const;
