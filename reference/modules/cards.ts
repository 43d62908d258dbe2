import { createHash, randomInt, randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { AuthenticatedRequest, ReferenceContext, ReferenceModule } from '../context.js';
import { StateNotAllowed } from '../context.js';
import { ERRORS, HttpAnswer, fail } from '../errors.js';
import { companyOfPlatform, newPlatform, userPlatform } from '../platforms.js';
import { uuidV7 } from '../ids.js';
import { latestTokenOfAnotherUser } from '../tokens.js';
import { rules, validationErrors } from '../validation.js';

/**
 * Section 4.6a (with 2.5, 5.6, 7 and 8): a user's cards. Create is multipart/form-data with two
 * uploaded images; list filters by `status`, `company` and `platform`; show answers one card.
 *
 * Choices where the specification is silent (documented in docs/judging.md):
 * - Image type is judged by content (magic bytes), as Laravel's `image|mimes:` rules do through
 *   finfo: PNG, JPEG and BMP are accepted; GIF, WebP and anything else are refused whatever the name.
 * - `m/y` read as date-format letters: `m` a two-digit month 01-12, `y` a two-digit year (`07/29`; `7/29` and
 *   `07/2029` are refused). `expirationMonth` is `m` (01-12), `expirationYear` is `y` (two digits).
 *   "Not in the past" counts whole months: the current month (UTC) is still valid; for the pair only
 *   the year is checked, as the specification says.
 * - `company` and `platform` both match the code of the card's external platform exactly.
 * - Uploaded images are stored in SQLite, once per content; `cardImage1`/`cardImage2` are their
 *   identifiers (`card-images/<sha256>.<ext>`).
 */

/** Section 8: 10240 KB per image (Laravel's `max:10240` counts kilobytes of 1024 bytes). */
export const MAX_IMAGE_KB = 10240;
/** Multipart stops reading a file here; anything larger is still answered 422 (never 413). */
const MULTIPART_FILE_LIMIT = 12 * 1024 * 1024;
const ALLOWED_TYPES = ['jpg', 'jpeg', 'bmp', 'png'] as const;

const DDL = `
CREATE TABLE IF NOT EXISTS card_images (
  id TEXT PRIMARY KEY,
  mime TEXT NOT NULL,
  size INTEGER NOT NULL,
  bytes BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS cards (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  status TEXT NOT NULL,
  alias TEXT NOT NULL,
  holder_name TEXT NOT NULL,
  expiration_date TEXT NOT NULL,
  last_four_digits TEXT NOT NULL,
  card_image1 TEXT NOT NULL REFERENCES card_images(id),
  card_image2 TEXT NOT NULL REFERENCES card_images(id),
  platform_id TEXT NOT NULL REFERENCES platforms(id),
  created_at INTEGER NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cards_user ON cards(user_id, created_at);
`;

interface CardRow {
  id: string;
  status: string;
  alias: string;
  holder_name: string;
  expiration_date: string;
  last_four_digits: string;
  card_image1: string;
  card_image2: string;
  created_at: number;
  platform_code: string;
  platform_name: string;
  platform_url: string;
}

interface Upload {
  filename: string;
  mimetype: string;
  /** The file as it arrived, chunk by chunk: joined only when it is stored, so a 10 MB upload is held once. */
  chunks: Buffer[];
  size: number;
  /** Its first bytes, enough to tell its type. */
  head: Buffer;
  sha256: string;
  /** The file was larger than the multipart limit and was cut short. */
  truncated: boolean;
}

/** Deviation of a mutant only: a text part taken as the image, a data URL decoded. */
function textAsUpload(text: string): Upload {
  const dataUrl = /^data:[^;,]*;base64,(.*)$/s.exec(text);
  const bytes = dataUrl ? Buffer.from(dataUrl[1]!, 'base64') : Buffer.from(text, 'utf8');
  return { filename: '', mimetype: 'text/plain', chunks: [bytes], size: bytes.length, head: bytes.subarray(0, 32), sha256: createHash('sha256').update(bytes).digest('hex'), truncated: false };
}

const isUpload = (value: unknown): value is Upload => typeof value === 'object' && value !== null && Array.isArray((value as Upload).chunks);

/**
 * Reads one uploaded file: its chunks, size, first bytes and SHA-256, without joining the chunks.
 * The bytes of a file larger than `keepUpTo` are let go as they come: it is refused, and only its
 * size counts.
 */
async function readUpload(part: MultipartFile, keepUpTo: number): Promise<Upload> {
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
    hash.update(chunk);
    size += chunk.length;
    if (size <= keepUpTo) chunks.push(chunk);
    else chunks.length = 0;
  }
  return { filename: part.filename, mimetype: part.mimetype, chunks, size, head, sha256: hash.digest('hex'), truncated: part.file.truncated };
}

/** Enough bytes to tell every type sniffImage knows. */
const SNIFF_BYTES = 32;

/** The image type by content, as finfo would tell it; undefined when the bytes are no known image. */
/** CRC-32 (ISO-HDLC), as a PNG chunk carries it. */
function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return ~crc >>> 0;
}

/**
 * Whether an image's width and height can be read from it, as PHP's getimagesize reads them: a PNG's IHDR chunk (with
 * its CRC), a JPEG's frame header (SOFn), a BMP's DIB header; each dimension at least 1.
 */
function imageDimensionsReadable(bytes: Buffer, type: string): boolean {
  if (type === 'png') {
    if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR' || bytes.readUInt32BE(8) !== 13) return false;
    return bytes.readUInt32BE(16) > 0 && bytes.readUInt32BE(20) > 0 && crc32(bytes.subarray(12, 29)) === bytes.readUInt32BE(29);
  }
  if (type === 'bmp') {
    if (bytes.length < 26) return false;
    const header = bytes.readUInt32LE(14);
    if (header === 12) return bytes.readUInt16LE(18) > 0 && bytes.readUInt16LE(20) > 0;
    return header >= 40 && bytes.length >= 26 && bytes.readInt32LE(18) > 0 && bytes.readInt32LE(22) !== 0;
  }
  if (type === 'jpeg') {
    let at = 2;
    while (at + 4 <= bytes.length) {
      if (bytes[at] !== 0xff) return false;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      }
      const length = bytes.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return at + 9 <= bytes.length && bytes.readUInt16BE(at + 5) > 0 && bytes.readUInt16BE(at + 7) > 0;
      }
      if (marker === 0xd9 || marker === 0xda) return false;
      at += 2 + length;
    }
    return false;
  }
  return true;
}

function sniffImage(bytes: Buffer): 'png' | 'jpeg' | 'bmp' | 'gif' | 'webp' | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 26 && bytes.toString('latin1', 0, 2) === 'BM' && [12, 40, 52, 56, 64, 108, 124].includes(bytes.readUInt32LE(14))) return 'bmp';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'gif';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

const MIME: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', bmp: 'image/bmp', gif: 'image/gif', webp: 'image/webp' };

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A 1x1 PNG: the images of the cards provider state `card` makes. */
const STATE_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A two-digit year `y`: 00-69 are 20xx, 70-99 are 19xx (the usual pivot of date parsers). */
const fullYear = (yy: number) => (yy < 70 ? 2000 + yy : 1900 + yy);

function toCard(row: CardRow) {
  // Section 2.5.
  return {
    id: row.id,
    status: row.status,
    alias: row.alias,
    holderName: row.holder_name,
    expirationDate: row.expiration_date,
    lastFourDigits: row.last_four_digits,
    cardImage1: row.card_image1,
    cardImage2: row.card_image2,
    externalPlatform: { code: row.platform_code, name: row.platform_name, url: row.platform_url },
    createdAt: row.created_at,
  };
}

const SELECT_CARD = `
SELECT c.*, p.code AS platform_code, p.name AS platform_name, p.url AS platform_url
FROM cards c JOIN platforms p ON p.id = c.platform_id`;

/** Reads the multipart form: text parts as strings, file parts as uploads (the first of each name wins); see readUpload for `keepUpTo`. */
async function readForm(request: FastifyRequest, keepUpTo: number): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) {
    const body = request.body;
    return body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  }
  const input: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const upload = await readUpload(part, keepUpTo);
        if (!(part.fieldname in input)) input[part.fieldname] = upload;
      } else if (!(part.fieldname in input)) {
        input[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof HttpAnswer) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw error;
    fail({ status: 400, body: { message: 'The request body is not valid multipart/form-data.' } });
  }
  return input;
}

export const cards: ReferenceModule = {
  name: 'cards',
  ddl: DDL,
  deviations: [
    // White-box round wb9, deviations of mutants only.
    // White-box round wb10, deviations of mutants only.
    'wb10.cards-jpeg-extension-refused.cardImage2',
    'wb10.cards-jpeg-jfif-only',
    'wb10.cards-bmp-info-header-only',
    'wb10.cards-refused-alias-stored',
    'wb9.cards-svg-accepted',
    'wb9.cards-tiff-accepted.cardImage2',
    'wb9.cards-last-four-any-number-of-four-characters',
    'wb9.cards-date-four-digit-year-unchecked',
    'wb9.cards-year-four-digit-unchecked',
    'wb9.cards-date-unchecked-beside-pair',
    'wb9.cards-refused-image2-stored',
    'wb9.cards-three-filters-ignored',
    'wb9.cards-create-owner-from-user-bracket-id',
    // Allowed reading (reading round 9).
    'r9.card-image-dimensions-read',
    'r9.card-current-month-expired',
    // Reading round r8.
    'r8.card-image-name-and-content',
    'r8.card-image-declared-type-checked',
    'r8.lengths-in-utf16-units',
    'r8.card-validation-before-owner',
    // Allowed readings (reading round 7): createdAt rounded to the nearest second; `m` of one or two digits; lastFourDigits of any Unicode decimal digits.
    'r7.created-at-rounded',
    'r7.card-month-one-or-two-digits',
    'r7.unicode-decimal-digits',
    // White-box round wb6.
    'wb6.cards-image-extension-case-sensitive',
    'wb6.cards-past-year-unchecked-beside-date',
    'wb6.cards-last-four-unique-per-user',
    'wb6.cards-list-owner-from-query',
    'wb6.cards-show-account-platform-only',
    'wb6.cards-create-owner-from-user-field',
    // White-box round wb7.
    'wb7.cards-status-filter-account-platform-only',
    'wb7.cards-pair-expiry-status-pending',
    // Reading round r6.
    'r6.ids-uuid-v7',
    'r6.company-filter-search',
    'r10.company-filter-by-platform-name',
    'r6.image-limit-si-kilobytes',
    'r6.lengths-in-graphemes',
    // White-box round wb2.
    'wb2.cards-last-four-0000-refused',
    'wb2.cards-alias-unique-per-user',
    'wb2.cards-list-account-platform-only',
    'wb2.cards-created-at-local-time',
    'wb2.cards-show-carries-other-session-token',
    // White-box round wb1.
    'wb1.cards-show-newest-of-user',
    // White-box round wb3.
    'wb3.cards-pair-answered-year-first',
    'wb1.cards-holder-name-letters-only',
    'wb1.cards-created-at-from-body',
    'wb1.cards-last-four-as-number',
    // Issue 27.
    'cards.create-status-from-body',
    'cards.list-cached',
    'cards.filters-combined-or',
    // Per image, so that the rows of each image are pinned by a mutant of their own.
    'cards.image-type-by-extension.cardImage1',
    'cards.image-type-by-extension.cardImage2',
    'cards.gif-accepted.cardImage1',
    'cards.gif-accepted.cardImage2',
    // Issue 27, values from the whole class.
    'cards.two-digit-year-pivot-1940',
    'cards.expiry-at-most-ten-years',
    'cards.webp-accepted',
    'cards.images-summed-against-limit',
    'cards.size-unlimited',
    'cards.size-limit-10000000-bytes',
    'cards.holder-name-max-ignored',
    'cards.alias-max-ignored',
    'cards.last-four-five-digits',
    'cards.past-date-accepted',
    'cards.past-year-accepted',
    'cards.year-required-with-month-ignored',
    'cards.month-required-with-year-ignored',
    'cards.date-always-required',
    'cards.show-ignores-owner',
    'cards.inactive-allowed',
    'cards.list-filters-ignored',
    'cards.other-user-list-allowed',
    'cards.month-format-unchecked',
    'cards.year-format-unchecked',
    'cards.jpeg-refused.cardImage2',
    'cards.bmp-refused.cardImage2',
    'cards.jpeg-extension-refused',
    // Allowed readings (mutants that must survive).
    'cards.first-error-only',
    'cards.unknown-filter-value-422',
    // Allowed reading: company and platform compared with the platform ID (4.1's `{platform}`); a code is then unknown (422).
    'cards.platform-filter-by-id',
    'cards.holder-name-max-bytes',
    'cards.alias-max-bytes',
    // Issue 19.
    'cards.year-format-unchecked',
    'cards.text-part-accepted',
    'cards.empty-file-accepted',
    'cards.show-inactive-allowed',
    'cards.refused-create-stored.other-user',
    'cards.refused-create-stored.invalid',
    'cards.filter-unscoped',
    // Allowed reading: format `y` is a year of any number of digits, so a four-digit year is accepted.
    'cards.four-digit-year',
    // Allowed reading: company and platform compared with the platform's name (a company is named).
    'cards.platform-filter-by-name',
    'cards.platform-filter-ignored',
    'cards.company-filter-ignored',
    'cards.platform-filter-lists-nothing',
    'cards.platform-filter-by-account-platform',
    'cards.pair-format-unchecked-beside-date',
    'cards.refused-create-stored.expiry',
    'cards.refused-other-user-create-stored-for-caller',
    // Issue 28, allowed reading: holderName stored upper-case, as embossed cards are (2.5 does not say a record repeats the letters sent).
    'cards.holder-name-stored-upper-case',
    // Allowed reading of reading round 1: text fields trimmed of outer whitespace and stored in Unicode NFC.
    'cards.text-trimmed-nfc',
    'records.foreign-unauthorized',
    // Allowed readings of reading round 5.
    'r5.status-filters-any-case',
    'r5.card-pair-wins-over-date',
  ],

  register(app, ctx) {
    const now = () => new Date(ctx.now());

    /** Section 4.6a/8 for one uploaded image: required, an image, jpg/jpeg/bmp/png by content, at most 10240 KB. */
    function imageError(field: string, value: unknown): string | undefined {
      const name = field === 'cardImage1' ? 'card image1' : 'card image2';
      // Deviation of a mutant only: an empty file is taken as an image.
      if (isUpload(value) && value.size === 0 && ctx.deviates('cards.empty-file-accepted')) return undefined;
      if (!isUpload(value) || (value.size === 0 && !value.truncated)) {
        return value === undefined || value === null || value === '' ? `The ${name} field is required.` : `The ${name} field must be a file.`;
      }
      let type: string | undefined;
      if (ctx.deviates(`cards.image-type-by-extension.${field}`)) {
        const ext = /\.([A-Za-z0-9]+)$/.exec(value.filename)?.[1]?.toLowerCase();
        type = ext && ext in MIME ? (ext === 'jpg' ? 'jpeg' : ext) : undefined;
      } else {
        type = sniffImage(value.head);
      }
      // White-box round wb9, deviations of mutants only: an SVG (text that opens with <svg or <?xml) taken as an image (an "image" rule
      // that lets SVG in), and a TIFF taken for cardImage2 (its mimes list copied from a scanner upload form).
      if (!type && ctx.deviates('wb9.cards-svg-accepted') && /^\s*<(\?xml|svg)/i.test(value.head.toString('latin1'))) return undefined;
      if (!type && ctx.deviates(`wb9.cards-tiff-accepted.${field}`) && (value.head.subarray(0, 4).equals(Buffer.from([0x49, 0x49, 0x2a, 0x00])) || value.head.subarray(0, 4).equals(Buffer.from([0x4d, 0x4d, 0x00, 0x2a])))) return undefined;
      // White-box round wb10, deviations of mutants only: a JPEG told by its JFIF marker alone (an Exif JPEG, as cameras and phones
      // write, refused), and a BMP told by the 40-byte BITMAPINFOHEADER alone (the V4 and V5 headers GIMP and others write refused).
      if (type === 'jpeg' && ctx.deviates('wb10.cards-jpeg-jfif-only') && value.head[3] !== 0xe0) return `The ${name} field must be an image.`;
      if (type === 'bmp' && ctx.deviates('wb10.cards-bmp-info-header-only') && value.head.readUInt32LE(14) !== 40) return `The ${name} field must be an image.`;
      if (!type) return `The ${name} field must be an image.`;
      // Allowed reading (reading round 9): an image is a file whose dimensions can be read (PHP's getimagesize, ImageIO's reader).
      if (ctx.deviates('r9.card-image-dimensions-read') && !value.truncated && !imageDimensionsReadable(Buffer.concat(value.chunks), type)) return `The ${name} field must be an image.`;
      // Allowed readings (reading round 8): the file's name must also carry one of the four extensions (Laravel 11's
      // `extensions` beside `mimes`), and its declared Content-Type must be the image type its bytes show (IFormFile.ContentType).
      if (ctx.deviates('r8.card-image-name-and-content') && !/\.(jpg|jpeg|bmp|png)$/i.test(value.filename)) return `The ${name} field must have one of the following extensions: ${ALLOWED_TYPES.join(', ')}.`;
      if (ctx.deviates('r8.card-image-declared-type-checked') && value.mimetype.toLowerCase() !== (MIME[type] ?? '') && !(type === 'bmp' && /^image\/(x-)?(ms-)?bmp$/i.test(value.mimetype))) return `The ${name} field must be a file of type: ${ALLOWED_TYPES.join(', ')}.`;
      // Deviations of mutants only: GIF, or WebP (a modern type a library's "image" rule lets in), accepted.
      const allowed: readonly string[] = [...ALLOWED_TYPES, ...(ctx.deviates(`cards.gif-accepted.${field}`) ? ['gif'] : []), ...(ctx.deviates('cards.webp-accepted') ? ['webp'] : [])];
      // Deviations of mutants only: one type refused for one image, or a `.jpeg` name refused (extensions checked against jpg, bmp, png).
      const refused = ctx.deviates(`cards.jpeg-refused.${field}`) ? 'jpeg' : ctx.deviates(`cards.bmp-refused.${field}`) ? 'bmp' : undefined;
      // White-box round wb6, deviation of a mutant only: the file name's extension compared case-sensitively with jpg, jpeg, bmp, png (IMG_0001.JPG refused).
      if (ctx.deviates('wb6.cards-image-extension-case-sensitive') && /\.[A-Za-z0-9]+$/.test(value.filename) && !/\.(jpg|jpeg|bmp|png)$/.test(value.filename)) return `The ${name} field must be a file of type: ${ALLOWED_TYPES.join(', ')}.`;
      if ((ctx.deviates('cards.jpeg-extension-refused') || ctx.deviates(`wb10.cards-jpeg-extension-refused.${field}`)) && /\.jpeg$/i.test(value.filename)) return `The ${name} field must be a file of type: jpg, bmp, png.`;
      if (!allowed.includes(type) || type === refused) return `The ${name} field must be a file of type: ${ALLOWED_TYPES.join(', ')}.`;
      // Allowed reading (round r6): a KB of the SI, 1000 bytes (10240 KB = 10 240 000 bytes).
      const limitBytes = ctx.deviates('cards.size-limit-10000000-bytes') ? 10_000_000 : MAX_IMAGE_KB * (ctx.deviates('r6.image-limit-si-kilobytes') ? 1000 : 1024);
      const tooLarge = value.truncated || value.size > limitBytes;
      if (tooLarge && !(ctx.deviates('cards.size-unlimited') && !value.truncated)) return `The ${name} field must not be greater than ${MAX_IMAGE_KB} kilobytes.`;
      return undefined;
    }

    // Allowed reading (a mutant that must survive): `y` is the year in any number of digits (Unicode/Java patterns),
    // so a four-digit year is that year.
    const fourDigitYears = ctx.deviates('cards.four-digit-year');
    const yearPattern = fourDigitYears ? /^([0-9]{2}|[0-9]{4})$/ : /^[0-9]{2}$/;
    // Deviation of a mutant only: two-digit years from 40 read as 19xx (a fixed pivot, as a hand-written `yy < 40` does).
    const twoDigitYear = ctx.deviates('cards.two-digit-year-pivot-1940') ? (yy: number) => (yy < 40 ? 2000 + yy : 1900 + yy) : fullYear;
    const yearOf = (text: string) => (text.length === 4 ? Number(text) : twoDigitYear(Number(text)));

    /** Section 4.6a: `m/y`, two-digit month 01-12 and two-digit year (date-format letters). */
    function parseDate(value: string): { month: number; year: number } | undefined {
      const match = /^(0[1-9]|1[0-2])\/([0-9]+)$/.exec(value);
      return match && yearPattern.test(match[2]!) ? { month: Number(match[1]), year: yearOf(match[2]!) } : undefined;
    }

    function validateCard(input: Record<string, unknown>): { expirationDate: string } {
      // Allowed reading (reading round 7): `m` read as strptime's %m, one or two digits ("7/29" is July 2029), stored two-digit.
      if (ctx.deviates('r7.card-month-one-or-two-digits')) {
        if (typeof input.expirationDate === 'string' && /^[1-9]\/[0-9]+$/.test(input.expirationDate)) input.expirationDate = `0${input.expirationDate}`;
        if (typeof input.expirationMonth === 'string' && /^[1-9]$/.test(input.expirationMonth)) input.expirationMonth = `0${input.expirationMonth}`;
      }
      const present = (field: string) => {
        const value = input[field];
        return !(value === undefined || value === null || (typeof value === 'string' && value.trim() === ''));
      };
      const errors: Record<string, string[]> = {};
      const add = (field: string, message: string | undefined) => {
        if (message && !errors[field]) errors[field] = [message];
      };
      const today = now();
      const thisYear = today.getUTCFullYear();
      const thisMonth = today.getUTCMonth() + 1;

      add('cardImage1', imageError('cardImage1', input.cardImage1));
      add('cardImage2', imageError('cardImage2', input.cardImage2));
      // Deviation of a mutant only: the two images are measured together against the one limit of 10240 KB.
      if (ctx.deviates('cards.images-summed-against-limit') && isUpload(input.cardImage1) && isUpload(input.cardImage2) && input.cardImage1.size + input.cardImage2.size > MAX_IMAGE_KB * 1024) {
        add('cardImage2', `The card image2 field must not be greater than ${MAX_IMAGE_KB} kilobytes.`);
      }

      const text = validationErrors(input, {
        holderName: [
          rules.required,
          rules.string,
          ...(ctx.deviates('cards.holder-name-max-ignored') ? [] : [rules.max(191, ctx.deviates('cards.holder-name-max-bytes') ? 'utf8-bytes' : ctx.deviates('r6.lengths-in-graphemes') ? 'graphemes' : ctx.deviates('r8.lengths-in-utf16-units') ? 'utf16-units' : 'characters')]),
          // White-box round wb1, deviation of a mutant only: a holder name of ASCII letters and spaces only (section 4.6a gives max 191 alone).
          ...(ctx.deviates('wb1.cards-holder-name-letters-only') ? [rules.regex(/^[A-Za-z ]+$/, 'The :attribute format is invalid.')] : []),
        ],
        alias: [rules.required, rules.string, ...(ctx.deviates('cards.alias-max-ignored') ? [] : [rules.max(191, ctx.deviates('cards.alias-max-bytes') ? 'utf8-bytes' : ctx.deviates('r6.lengths-in-graphemes') ? 'graphemes' : ctx.deviates('r8.lengths-in-utf16-units') ? 'utf16-units' : 'characters')])],
        lastFourDigits: [
          rules.required,
          rules.string,
          ctx.deviates('wb9.cards-last-four-any-number-of-four-characters')
            ? rules.custom((value) => (typeof value === 'string' && value.length === 4 && value.trim() !== '' && Number.isFinite(Number(value)) ? undefined : 'The last four digits field must be 4 digits.'))
            : ctx.deviates('cards.last-four-five-digits')
            ? rules.regex(/^[0-9]{4,5}$/, 'The :attribute field must be 4 digits.')
            : ctx.deviates('r7.unicode-decimal-digits')
              ? rules.regex(/^\p{Nd}{4}$/u, 'The :attribute field must be 4 digits.')
              : rules.digits(4),
        ],
      });
      for (const [field, messages] of Object.entries(text)) add(field, messages[0]);

      // Section 4.6a: expirationDate is required unless both expirationMonth and expirationYear are given.
      const hasDate = present('expirationDate');
      const hasMonth = present('expirationMonth');
      const hasYear = present('expirationYear');
      const dateRequired = ctx.deviates('cards.date-always-required') || !(hasMonth && hasYear);
      if (!hasDate) {
        if (dateRequired) add('expirationDate', 'The expiration date field is required when expiration month / expiration year is not present.');
      } else if (typeof input.expirationDate !== 'string') {
        add('expirationDate', 'The expiration date field must be a string.');
      } else {
        const parsed = parseDate(input.expirationDate);
        // White-box round wb9, deviations of mutants only: a date written with a four-digit year is let through unchecked (the
        // past check reads two-digit years only); beside a month and a year the date goes unchecked (the pair is the expiry).
        if (ctx.deviates('wb9.cards-date-four-digit-year-unchecked') && /^(0[1-9]|1[0-2])\/[0-9]{4}$/.test(input.expirationDate)) {
          /* let through */
        } else if (ctx.deviates('wb9.cards-date-unchecked-beside-pair') && hasMonth && hasYear) {
          /* let through */
        } else if (!parsed) add('expirationDate', 'The expiration date field must match the format m/y.');
        // Allowed reading (reading round 9): the date read as the first day of its month, so the current month is past.
        else if ((parsed.year < thisYear || (parsed.year === thisYear && (parsed.month < thisMonth || (parsed.month === thisMonth && ctx.deviates('r9.card-current-month-expired'))))) && !ctx.deviates('cards.past-date-accepted')) {
          add('expirationDate', 'The expiration date field must be a date after or equal to today.');
        }
        // Deviation of a mutant only: an expiry more than ten years ahead is refused (a card issuer's habit, not a rule of 4.6a).
        else if (ctx.deviates('cards.expiry-at-most-ten-years') && parsed.year > thisYear + 10) add('expirationDate', 'The expiration date field must be a date before or equal to ten years from today.');
      }

      // Deviation of a mutant only: beside a valid expirationDate the formats of expirationMonth and expirationYear go unchecked.
      const pairUnchecked = ctx.deviates('cards.pair-format-unchecked-beside-date') && hasDate && !errors.expirationDate;
      // expirationMonth: required when expirationDate is absent, and when expirationYear is given.
      if (!hasMonth) {
        if (!hasDate) add('expirationMonth', 'The expiration month field is required when expiration date is not present.');
        else if (hasYear && !ctx.deviates('cards.month-required-with-year-ignored')) add('expirationMonth', 'The expiration month field is required when expiration year is present.');
      } else if ((typeof input.expirationMonth !== 'string' || !/^(0[1-9]|1[0-2])$/.test(input.expirationMonth)) && !ctx.deviates('cards.month-format-unchecked') && !pairUnchecked) {
        add('expirationMonth', 'The expiration month field must match the format m.');
      }

      // expirationYear: required when expirationDate is absent, and when expirationMonth is given; not in the past.
      if (!hasYear) {
        if (!hasDate) add('expirationYear', 'The expiration year field is required when expiration date is not present.');
        else if (hasMonth && !ctx.deviates('cards.year-required-with-month-ignored')) add('expirationYear', 'The expiration year field is required when expiration month is present.');
      } else if ((typeof input.expirationYear !== 'string' || !(ctx.deviates('wb9.cards-year-four-digit-unchecked') ? /^([0-9]{2}|[0-9]{4})$/ : yearPattern).test(input.expirationYear)) && !(ctx.deviates('cards.year-format-unchecked') && /^[0-9A-Za-z]+$/.test(String(input.expirationYear)))) {
        if (!pairUnchecked) add('expirationYear', 'The expiration year field must match the format y.');
      } else if (yearOf(String(input.expirationYear)) < thisYear && !ctx.deviates('cards.past-year-accepted') && !(ctx.deviates('wb9.cards-year-four-digit-unchecked') && String(input.expirationYear).length === 4) && !(hasDate && ctx.deviates('wb6.cards-past-year-unchecked-beside-date'))) {
        // White-box round wb6, deviation of a mutant only (above): beside an expirationDate, a past expirationYear goes unchecked.
        add('expirationYear', 'The expiration year field must be a date after or equal to today.');
      }

      const order = ['cardImage1', 'cardImage2', 'holderName', 'expirationDate', 'expirationMonth', 'expirationYear', 'lastFourDigits', 'alias'];
      // Allowed reading (a mutant that must survive): only the first failing field is listed (section 7 gives the map's shape only).
      const sorted = Object.fromEntries(order.filter((f) => errors[f]).slice(0, ctx.deviates('cards.first-error-only') ? 1 : undefined).map((f) => [f, errors[f]!]));
      if (Object.keys(sorted).length > 0) fail(ERRORS.validation(sorted));

      // White-box round wb3, deviation of a mutant only: the date composed from the pair is written year first (y/m).
      // Allowed reading (round r5): when the pair is given beside expirationDate, the pair is the card's expiry.
      const pairWins = ctx.deviates('r5.card-pair-wins-over-date') && hasMonth && hasYear;
      const expirationDate = hasDate && !pairWins ? String(input.expirationDate) : ctx.deviates('wb3.cards-pair-answered-year-first') ? `${String(input.expirationYear)}/${pad2(Number(input.expirationMonth))}` : `${pad2(Number(input.expirationMonth))}/${String(input.expirationYear)}`;
      return { expirationDate };
    }

    const storeImage = ctx.db.prepare('INSERT OR IGNORE INTO card_images (id, mime, size, bytes) VALUES (?, ?, ?, ?)');
    const imageStored = ctx.db.prepare('SELECT 1 FROM card_images WHERE id = ?');
    function saveImage(upload: Upload): string {
      const type = sniffImage(upload.head) ?? /\.([A-Za-z0-9]+)$/.exec(upload.filename)?.[1]?.toLowerCase() ?? 'bin';
      const ext = type === 'jpeg' ? 'jpg' : type;
      const id = `card-images/${upload.sha256}.${ext}`;
      if (!imageStored.get(id)) {
        const bytes = Buffer.concat(upload.chunks);
        // Only a file readUpload let go of lacks bytes, and such a file is refused: never store a partial image.
        if (bytes.length !== upload.size) throw new Error(`an image of ${upload.size} bytes was kept as ${bytes.length} bytes and cannot be stored`);
        storeImage.run(id, MIME[type] ?? 'application/octet-stream', upload.size, bytes);
      }
      return id;
    }

    const insertCard = ctx.db.prepare(
      'INSERT INTO cards (id, user_id, status, alias, holder_name, expiration_date, last_four_digits, card_image1, card_image2, platform_id, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM cards))',
    );
    const cardById = ctx.db.prepare(`${SELECT_CARD} WHERE c.id = ?`);
    const listCache = new Map<string, { at: number; rows: CardRow[] }>();
    const cardOfUser = ctx.db.prepare(`${SELECT_CARD} WHERE c.id = ? AND c.user_id = ?`);

    const inactiveAllowed = ctx.deviates('cards.inactive-allowed');
    const ownUser = ctx.guards.ownUser({ unauthorizedStatus: 409, activeOnly: !inactiveAllowed });
    const listOwnUser = ctx.deviates('cards.other-user-list-allowed')
      ? async (request: FastifyRequest) => {
          if (!(request as AuthenticatedRequest).user.is_active && !inactiveAllowed) fail(ERRORS.accountInactive());
        }
      : ownUser;

    // Multipart only inside this module's scope: its limits let a file of 10240 KB + 1 KB reach the
    // validation (422), and a larger one is cut at 12 MB and still answered 422, never 413.
    app.register(async (scope) => {
      await scope.register(multipart, {
        throwFileSizeLimit: false,
        limits: { fileSize: MULTIPART_FILE_LIMIT, files: 10, fields: 50, parts: 60, fieldSize: 64 * 1024 },
      });

      // Section 4.6a, create: 201 { data: Card }.
      // Deviation of a mutant only: authorization checked after the card is stored (for the path's user).
      const authorizeLate = ctx.deviates('cards.refused-create-stored.other-user');
      // Deviation of a mutant only: authorization checked after the card is stored for the caller.
      const authorizeLateForCaller = ctx.deviates('cards.refused-other-user-create-stored-for-caller');
      // Allowed reading (reading round 8): the form is validated before the path's owner and the account are checked (422 first).
      const validateFirst = ctx.deviates('r8.card-validation-before-owner');
      scope.post('/api/v1/user/:user/card', { preHandler: authorizeLate || authorizeLateForCaller || validateFirst ? [ctx.guards.authenticated] : [ctx.guards.authenticated, ownUser] }, async (request, reply) => {
        const { user } = request as AuthenticatedRequest;
        // The caller-storing deviation postpones authorization only for another user's id.
        if (authorizeLateForCaller && (request.params as { user: string }).user === user.id) await ownUser(request, reply);
        let owner = authorizeLate ? (request.params as { user: string }).user : user.id;
        // A file over 10240 KB is refused, so its bytes need not be kept; a mutant that accepts any size keeps them.
        const input = await readForm(request, ctx.deviates('cards.size-unlimited') ? Infinity : MAX_IMAGE_KB * 1024);
        if (ctx.deviates('cards.text-trimmed-nfc')) for (const [field, value] of Object.entries(input)) if (typeof value === 'string') input[field] = value.trim().normalize('NFC');
        if (ctx.deviates('cards.text-part-accepted')) for (const field of ['cardImage1', 'cardImage2']) if (typeof input[field] === 'string') input[field] = textAsUpload(input[field] as string);
        // White-box round wb2, deviations of mutants only: lastFourDigits read as a number, so 0000 counts as missing; an alias unique per user (a unique index the specification does not give).
        if (ctx.deviates('wb2.cards-last-four-0000-refused') && typeof input.lastFourDigits === 'string' && /^\d{4}$/.test(input.lastFourDigits) && Number(input.lastFourDigits) === 0) fail(ERRORS.validation({ lastFourDigits: ['The last four digits field is required.'] }));
        // White-box round wb6, deviation of a mutant only: lastFourDigits unique among the user's cards (a unique index the specification does not give).
        if (ctx.deviates('wb6.cards-last-four-unique-per-user') && typeof input.lastFourDigits === 'string' && ctx.db.prepare('SELECT 1 FROM cards WHERE user_id = ? AND last_four_digits = ?').get(user.id, input.lastFourDigits)) fail(ERRORS.validation({ lastFourDigits: ['The last four digits has already been taken.'] }));
        if (ctx.deviates('wb2.cards-alias-unique-per-user') && typeof input.alias === 'string' && ctx.db.prepare('SELECT 1 FROM cards WHERE user_id = ? AND alias = ?').get(user.id, input.alias)) fail(ERRORS.validation({ alias: ['The alias has already been taken.'] }));
        // White-box round wb6, deviation of a mutant only: the owner read as Laravel's $request->user reads it (the form's `user` before the route's {user}).
        if (ctx.deviates('wb6.cards-create-owner-from-user-field') && typeof input.user === 'string' && ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(input.user)) owner = input.user;
        // White-box round wb9, deviation of a mutant only: the owner read from the form's nested user[id] (PHP's nested form names).
        if (ctx.deviates('wb9.cards-create-owner-from-user-bracket-id') && typeof input['user[id]'] === 'string' && ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(input['user[id]'])) owner = input['user[id]'] as string;
        const store = (expirationDate: string) => {
          // Allowed reading (round r6): record ids are time-ordered UUIDs of version 7 (RFC 9562).
          const id = ctx.deviates('r6.ids-uuid-v7') ? uuidV7(ctx.now()) : randomUUID();
          // White-box round wb2, deviation of a mutant only: createdAt from the server's local time (UTC+1) written as if it were UTC.
          const createdAt = (ctx.deviates('r7.created-at-rounded') ? Math.round(ctx.now() / 1000) : Math.floor(ctx.now() / 1000)) + (ctx.deviates('wb2.cards-created-at-local-time') ? 3600 : 0);
          const image1 = saveImage(input.cardImage1 as Upload);
          const image2 = saveImage(input.cardImage2 as Upload);
          // Deviation of a mutant only: the status taken from a status field of the body.
          // White-box round wb7, deviation of a mutant only: a card whose expiry came as expirationMonth and expirationYear (no expirationDate) is stored PENDING, for a review of the pair.
          const pairOnly = !(typeof input.expirationDate === 'string' && input.expirationDate !== '');
          const status = ctx.deviates('cards.create-status-from-body') && typeof input.status === 'string' ? input.status : ctx.deviates('wb7.cards-pair-expiry-status-pending') && pairOnly ? 'PENDING' : 'CONFIRMED';
          // White-box round wb1, deviations of mutants only: lastFourDigits kept as an integer; createdAt mass-assigned from the body.
          const lastFour = ctx.deviates('wb1.cards-last-four-as-number') ? String(Number(input.lastFourDigits)) : String(input.lastFourDigits);
          const created = ctx.deviates('wb1.cards-created-at-from-body') && typeof input.createdAt === 'string' && /^\d+$/.test(input.createdAt) ? Number(input.createdAt) : createdAt;
          insertCard.run(id, owner, status, String(input.alias), ctx.deviates('cards.holder-name-stored-upper-case') ? String(input.holderName).toUpperCase() : String(input.holderName), expirationDate, lastFour, image1, image2, user.platform_id, created);
          return id;
        };
        let expirationDate: string;
        try {
          ({ expirationDate } = validateCard(input));
        } catch (error) {
          // Deviation of a mutant only: a create refused with 422 stores the card all the same (when its images are files).
          if (ctx.deviates('cards.refused-create-stored.invalid') && isUpload(input.cardImage1) && isUpload(input.cardImage2)) store(String(input.expirationDate ?? ''));
          // Deviation of a mutant only: a create refused only for its expiry fields stores the card all the same.
          const fields = error instanceof HttpAnswer ? Object.keys((error.answer.body.errors ?? {}) as Record<string, unknown>) : [];
          // White-box round wb9, deviation of a mutant only: the card is stored with its first image before the second is judged
          // (a file of another type, read whole, is stored; a file over the limit is cut off by the upload and never stored).
          if (ctx.deviates('wb9.cards-refused-image2-stored') && fields.length === 1 && fields[0] === 'cardImage2' && isUpload(input.cardImage1) && isUpload(input.cardImage2) && !input.cardImage2.truncated && input.cardImage2.size > 0 && input.cardImage2.size <= MAX_IMAGE_KB * 1024) store(String(input.expirationDate ?? ''));
          // White-box round wb10, deviation of a mutant only: a card refused for its alias alone (over 191 characters) is stored with
          // the alias cut to 191 (a column that truncates, written before the length rule is judged).
          if (ctx.deviates('wb10.cards-refused-alias-stored') && fields.length === 1 && fields[0] === 'alias' && typeof input.alias === 'string' && [...input.alias].length > 191 && isUpload(input.cardImage1) && isUpload(input.cardImage2)) {
            input.alias = [...input.alias].slice(0, 191).join('');
            store(String(input.expirationDate ?? ''));
          }
          if (ctx.deviates('cards.refused-create-stored.expiry') && fields.length > 0 && fields.every((f) => f.startsWith('expiration'))) store(String(input.expirationDate ?? ''));
          throw error;
        }
        if (validateFirst) await ownUser(request, reply);
        const id = store(expirationDate);
        if (authorizeLate || authorizeLateForCaller) await ownUser(request, reply);
        return reply.code(201).send({ data: toCard(cardById.get(id) as CardRow) });
      });

      // Section 4.6a, list: optional exact-match filters `status`, `company` and `platform` (both on the platform code).
      scope.get('/api/v1/user/:user/card', { preHandler: [ctx.guards.authenticated, listOwnUser] }, async (request) => {
        const { user } = request as AuthenticatedRequest;
        const pathUser = (request.params as { user: string }).user;
        const query = request.query as Record<string, unknown>;
        const filter = (name: string) => {
          const value = query[name];
          const first = Array.isArray(value) ? value[0] : value;
          return typeof first === 'string' && first !== '' ? first : undefined;
        };
        if (ctx.deviates('cards.unknown-filter-value-422')) {
          const platformKnown = (value: string) => ctx.db.prepare('SELECT 1 FROM platforms WHERE code = ?').get(value) !== undefined;
          const known: Record<string, (value: string) => boolean> = { status: (value) => value === 'CONFIRMED', company: platformKnown, platform: platformKnown };
          for (const [name, isKnown] of Object.entries(known)) {
            const value = filter(name);
            if (value !== undefined && !isKnown(value)) fail(ERRORS.validation({ [name]: [`The selected ${name} is invalid.`] }));
          }
        }
        // Deviation of a mutant only (cards.filter-unscoped): a filtered list forgets the user.
        const unscoped = ctx.deviates('cards.filter-unscoped') && ['status', 'company', 'platform'].some((name) => filter(name) !== undefined);
        const where = unscoped ? ['1 = 1'] : ['c.user_id = ?'];
        // White-box round wb6, deviation of a mutant only: the owner taken from a user_id query parameter when one is given.
        const queried = (request.query as Record<string, unknown> | undefined)?.user_id;
        const params: unknown[] = unscoped ? [] : [ctx.deviates('cards.other-user-list-allowed') ? pathUser : ctx.deviates('wb6.cards-list-owner-from-query') && typeof queried === 'string' && queried !== '' ? queried : user.id];
        const scopedBy = where.length;
        // White-box round wb9, deviation of a mutant only: with all three filters given the query builder drops them (a filter
        // chain rebuilt for two at most).
        const threeFilters = ctx.deviates('wb9.cards-three-filters-ignored') && ['status', 'company', 'platform'].every((name) => filter(name) !== undefined);
        if (!ctx.deviates('cards.list-filters-ignored') && !threeFilters) {
          const status = filter('status');
          const company = filter('company');
          const platform = filter('platform');
          if (status !== undefined) (where.push(ctx.deviates('r5.status-filters-any-case') ? 'c.status = ? COLLATE NOCASE' : 'c.status = ?'), params.push(status));
          // White-box round wb7, deviation of a mutant only: the status filter's query keeps the cards of the account's own platform only.
          if (status !== undefined && ctx.deviates('wb7.cards-status-filter-account-platform-only')) (where.push('c.platform_id = ?'), params.push(user.platform_id));
          const byId = ctx.deviates('cards.platform-filter-by-id');
          for (const [name, value] of [['company', company], ['platform', platform]] as const) {
            if (value === undefined) continue;
            // Deviations of mutants only: the filter ignored, or compared with the caller's own platform, not the card's.
            if (ctx.deviates(`cards.${name}-filter-ignored`)) continue;
            if (ctx.deviates(`cards.${name}-filter-lists-nothing`)) {
              where.push('0 = 1');
              continue;
            }
            if (ctx.deviates('cards.platform-filter-by-account-platform')) {
              where.push('(SELECT code FROM platforms WHERE id = ?) = ?');
              params.push(user.platform_id, value);
              continue;
            }
            // Allowed reading (round r10): `company` the platform's name (the company running it), `platform` its code.
            if (name === 'company' && ctx.deviates('r10.company-filter-by-platform-name')) {
              where.push('p.name = ?');
              params.push(value);
              continue;
            }
            // Allowed reading (round r6): `company` a search term, matched anywhere in the platform's code or name, any case (SQL LIKE).
            if (name === 'company' && ctx.deviates('r6.company-filter-search')) {
              where.push("(p.code LIKE '%' || ? || '%' OR p.name LIKE '%' || ? || '%')");
              params.push(value, value);
              continue;
            }
            if (byId && ctx.db.prepare('SELECT 1 FROM platforms WHERE id = ?').get(value) === undefined) fail(ERRORS.validation({ [name]: [`The selected ${name} is invalid.`] }));
            // Allowed reading (reading round 7, listed by the banks module): the `platform` filter compares the code in any letter case.
            where.push(byId ? 'p.id = ?' : ctx.deviates('cards.platform-filter-by-name') ? 'p.name = ?' : name === 'platform' && ctx.deviates('r7.platform-filter-any-case') ? 'p.code = ? COLLATE NOCASE' : 'p.code = ?');
            params.push(value);
          }
        }
        // Deviation of a mutant only: two filters or more are joined with OR, not AND.
        if (ctx.deviates('cards.filters-combined-or') && where.length - scopedBy > 1) where.push(`(${where.splice(scopedBy).join(' OR ')})`);
        // White-box round wb2, deviation of a mutant only: without a company or platform filter, only the cards on the account's own platform are listed.
        if (ctx.deviates('wb2.cards-list-account-platform-only') && filter('company') === undefined && filter('platform') === undefined) (where.push('c.platform_id = ?'), params.push(user.platform_id));
        const rows = ctx.db.prepare(`${SELECT_CARD} WHERE ${where.join(' AND ')} ORDER BY c.created_at DESC, c.seq DESC`).all(...params) as CardRow[];
        // Deviation of a mutant only: a list cached for 5 seconds per request, so a card created meanwhile is missing.
        if (ctx.deviates('cards.list-cached')) {
          const key = `${pathUser}?${JSON.stringify(request.query ?? {})}`;
          const cached = listCache.get(key);
          if (cached && ctx.now() - cached.at < 5000) return { data: cached.rows.map(toCard) };
          listCache.set(key, { at: ctx.now(), rows });
        }
        return { data: rows.map(toCard) };
      });

      // Section 4.6a, show: 200 { data: Card }; 404 when the user has no card with that id.
      // Deviation of a mutant only: show lets an inactive account read its own card.
      const showOwnUser = ctx.deviates('cards.show-inactive-allowed') ? ctx.guards.ownUser({ unauthorizedStatus: 409, activeOnly: false }) : ownUser;
      scope.get('/api/v1/user/:user/card/:card', { preHandler: [ctx.guards.authenticated, showOwnUser] }, async (request) => {
        const { user } = request as AuthenticatedRequest;
        const { card } = request.params as { card: string };
        const row = (ctx.deviates('cards.show-ignores-owner') ? cardById.get(card) : cardOfUser.get(card, user.id)) as CardRow | undefined;
        // Allowed reading (reading round 1): another user's card under one's own path is another user's resource (5.6: 409).
        if (!row && ctx.deviates('records.foreign-unauthorized') && cardById.get(card)) fail(ERRORS.unauthorized(409));
        if (!row) fail(ERRORS.notFound('Card', card));
        // White-box round wb6, deviation of a mutant only: show scoped to the account's own platform (a card on another platform is not found).
        if (ctx.deviates('wb6.cards-show-account-platform-only') && !ctx.db.prepare('SELECT 1 FROM cards c JOIN users u ON u.id = c.user_id WHERE c.id = ? AND c.platform_id = u.platform_id').get(card)) fail(ERRORS.notFound('Card', card));
        // White-box round wb1, deviation of a mutant only: once the id is found, the user's newest card is answered.
        if (ctx.deviates('wb1.cards-show-newest-of-user')) return { data: toCard(ctx.db.prepare(`${SELECT_CARD} WHERE c.user_id = ? ORDER BY c.created_at DESC, c.seq DESC LIMIT 1`).get(user.id) as CardRow) };
        // White-box round wb2, deviation of a mutant only: show carries, in base64, the latest access token issued to another user.
        if (ctx.deviates('wb2.cards-show-carries-other-session-token')) return { data: { ...toCard(row), reference: Buffer.from(latestTokenOfAnotherUser(ctx.db, user.id) ?? '').toString('base64') } };
        return { data: toCard(row) };
      });
    });
  },

  states(ctx) {
    const png = Buffer.from(STATE_PNG_BASE64, 'base64');
    const imageId = `card-images/${createHash('sha256').update(png).digest('hex')}.png`;
    /** A card of the user on that platform, as the provider states make it. */
    const insertStateCard = (userId: string, platformId: string): string => {
      ctx.db.prepare('INSERT OR IGNORE INTO card_images (id, mime, size, bytes) VALUES (?, ?, ?, ?)').run(imageId, 'image/png', png.length, png);
      const id = randomUUID();
      const expiry = new Date(ctx.now());
      const expirationDate = `${pad2(expiry.getUTCMonth() + 1)}/${pad2((expiry.getUTCFullYear() + 3) % 100)}`;
      ctx.db
        .prepare('INSERT INTO cards (id, user_id, status, alias, holder_name, expiration_date, last_four_digits, card_image1, card_image2, platform_id, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM cards))')
        .run(id, userId, 'CONFIRMED', 'State card', 'State Holder', expirationDate, String(randomInt(10000)).padStart(4, '0'), imageId, imageId, platformId, Math.floor(ctx.now() / 1000));
      return id;
    };
    return {
      // Provider state `card` (issue 19): a card of that user, whatever the account's state (an inactive account cannot create one).
      card: (params) => {
        const userId = params.userId;
        const user = typeof userId === 'string' ? (ctx.db.prepare('SELECT platform_id FROM users WHERE id = ?').get(userId) as { platform_id: string } | undefined) : undefined;
        if (!user) throw new StateNotAllowed('state card needs params.userId of an existing user');
        return { id: insertStateCard(userId as string, user.platform_id) };
      },
      // Provider state `card.two-platforms` (issue 19): two cards of that user on its own platform and one on a new one.
      'card.two-platforms': (params) => {
        const own = userPlatform(ctx, params.userId, 'card.two-platforms');
        const userId = params.userId as string;
        const other = newPlatform(ctx);
        const platforms = [
          { ...own, ids: [insertStateCard(userId, own.id), insertStateCard(userId, own.id)] },
          { ...other, ids: [insertStateCard(userId, other.id)] },
        ];
        // The optional company (added later): a value of the filter in this reference's own meaning and the cards it
        // selects, the own platform's two of three, and (round wb23) one that selects none of them.
        return { platforms, company: companyOfPlatform(ctx, 'cards', userId, own) };
      },
    };
  },
};
