import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../helpers/net/http.js';
import { AT_LIMIT_IMAGE_BYTES, IMAGES, SUM_OVER_LIMIT_IMAGE_BYTES, fileBytes, paddedPng } from '../helpers/arrange/images.js';
import { cardForm, sameFileBytes } from '../helpers/arrange/cards.js';
import { MultipartForm, uploadFile } from '../helpers/net/multipart.js';

/** The chunks of a PNG file, each with whether its CRC is right. */
function pngChunks(bytes: Buffer): { type: string; length: number; crcOk: boolean }[] {
  const chunks: { type: string; length: number; crcOk: boolean }[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const typeAndData = bytes.subarray(at + 4, at + 8 + length);
    chunks.push({ type: typeAndData.subarray(0, 4).toString('ascii'), length, crcOk: (crc32(typeAndData) >>> 0) === bytes.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

const boundaryOf = (contentType: string) => /boundary=(.+)$/.exec(contentType)![1]!;

describe('multipart form (the card form of section 4.6a)', () => {
  it('encodes as undici\'s FormData does: escaped names, CRLF line breaks, the file parts and the closing boundary', async () => {
    const form = new MultipartForm();
    const fields: [string, string | ReturnType<typeof uploadFile>][] = [
      ['holderName', 'Ada\nLovelace\r"x"'],
      ['na"me\n', 'é ✓ 𝄞'],
      ['cardImage1', IMAGES.png()],
      ['cardImage2', uploadFile('a "quoted"\nname.jpg', '', Buffer.from('not an image'))],
    ];
    const reference = new FormData();
    for (const [name, value] of fields) {
      form.append(name, value);
      if (typeof value === 'string') reference.append(name, value);
      else reference.append(name, new Blob([fileBytes(value)], { type: value.type }), value.name);
    }
    const request = new Request('http://encoding.test/', { method: 'POST', body: reference });
    const expected = Buffer.from(await request.arrayBuffer()).toString('latin1').replaceAll(boundaryOf(request.headers.get('content-type')!), boundaryOf(form.contentType));
    const ours = Buffer.concat([...form.chunks()]);
    expect(ours.toString('latin1')).toBe(expected);
    expect(form.length).toBe(ours.length);
  });

  it('makes the 10 MB images as they are read: a valid PNG of the exact size, every CRC right', () => {
    const image = IMAGES.pngAtLimit();
    expect(image.size).toBe(AT_LIMIT_IMAGE_BYTES);
    let largest = 0;
    for (const chunk of image.chunks()) largest = Math.max(largest, chunk.byteLength);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
    const bytes = fileBytes(image);
    expect(bytes.length).toBe(AT_LIMIT_IMAGE_BYTES);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const chunks = pngChunks(bytes);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'paDd', 'IEND']);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    expect(fileBytes(paddedPng('odd.png', 70_001)).length).toBe(70_001);
  });
});

/**
 * Issue 28, reading round r21: 4.6a gives no order of the form's parts and does not say whether the two images may be
 * one file, so every card form carries its text fields before its files and two different pictures
 * (allowed-r21-card-text-fields-before-files, allowed-r21-card-images-must-differ).
 */
describe('the card form: text fields before files, two different pictures', () => {
  type Entries = ReturnType<MultipartForm['entries']>;
  const kinds = (entries: Entries) => entries.map(([, value]) => (typeof value === 'string' ? 'text' : 'file')).join(' ');
  const images = (entries: Entries) => entries.filter(([, value]) => typeof value !== 'string').map(([, value]) => value as ReturnType<typeof uploadFile>);

  it('sends every text part before every file part, a text part appended after a file too, and encodes them in that order', () => {
    const form = new MultipartForm({ fieldsFirst: true });
    form.append('cardImage1', IMAGES.png());
    form.append('alias', 'Main');
    form.append('cardImage2', IMAGES.pngHeld());
    form.append('holderName', 'Ada');
    expect(form.entries().map(([name]) => name)).toEqual(['alias', 'holderName', 'cardImage1', 'cardImage2']);
    const body = Buffer.concat([...form.chunks()]).toString('latin1');
    expect(body.indexOf('name="holderName"')).toBeLessThan(body.indexOf('name="cardImage1"'));
    expect(form.length).toBe(Buffer.concat([...form.chunks()]).length);
    const plain = new MultipartForm();
    plain.append('cardImage1', IMAGES.png());
    plain.append('alias', 'Main');
    expect(plain.entries().map(([name]) => name)).toEqual(['cardImage1', 'alias']);
  });

  it('a valid card form: its fields first, then two images of other bytes and other names', () => {
    const { form, fields } = cardForm();
    expect(kinds(form.entries())).toMatch(/^(text )+file file$/);
    const [first, second] = images(form.entries());
    expect(sameFileBytes(first!, second!)).toBe(false);
    expect(first!.name).not.toBe(second!.name);
    expect(fields.cardImage2).toBe(second);
    expect(pngChunks(fileBytes(second!)).every((chunk) => chunk.crcOk)).toBe(true);
    const appended = cardForm().form;
    appended.append('status', 'PENDING');
    expect(kinds(appended.entries())).toMatch(/^(text )+file file$/);
  });

  it('a form about one image sends the other as another picture, whatever the one given; two images given are sent as given', () => {
    const given = [IMAGES.png(), IMAGES.pngHeld(), IMAGES.pngNamedUpperCase(), IMAGES.jpeg(), IMAGES.jpegNamedJpeg(), IMAGES.bmp(), IMAGES.gif(), IMAGES.empty(), IMAGES.pngAtLimit(), IMAGES.pngOverLimit()];
    for (const image of given) {
      for (const field of ['cardImage1', 'cardImage2'] as const) {
        const { form, fields } = cardForm({ [field]: image });
        expect(fields[field]).toBe(image);
        const [first, second] = images(form.entries());
        expect(sameFileBytes(first!, second!), `${image.name} as ${field}`).toBe(false);
        expect(kinds(form.entries())).toMatch(/^(text )+file file$/);
      }
    }
    const { fields } = cardForm({ cardImage1: IMAGES.png(), cardImage2: IMAGES.png() });
    expect([fields.cardImage1, fields.cardImage2]).toEqual([IMAGES.png(), IMAGES.png()]);
  });

  it('the two 6 000 000-byte PNGs are two pictures of exactly that size, every CRC right', () => {
    const [one, two] = [IMAGES.pngHalfOverLimit(1), IMAGES.pngHalfOverLimit(2)];
    for (const image of [one, two]) {
      const bytes = fileBytes(image);
      expect(bytes.length).toBe(SUM_OVER_LIMIT_IMAGE_BYTES);
      expect(image.size).toBe(SUM_OVER_LIMIT_IMAGE_BYTES);
      expect(pngChunks(bytes).every((chunk) => chunk.crcOk)).toBe(true);
    }
    expect(sameFileBytes(one, two)).toBe(false);
  });
});

describe('HTTP client: a multipart form on the wire', () => {
  let server: Server;
  let base: string;
  const received: { headers: Record<string, string | string[] | undefined>; bytes: number; sha: string }[] = [];
  let limitOnce = true;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const hash = createHash('sha256');
      let bytes = 0;
      request.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      request.on('end', () => {
        received.push({ headers: request.headers, bytes, sha: hash.digest('hex') });
        if (limitOnce) {
          limitOnce = false;
          return response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{}');
        }
        response.writeHead(201, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends Content-Length and the whole body, again in full when a rate limiter asks for a retry; the exchange describes the file', async () => {
    const form = new MultipartForm();
    form.append('alias', 'Main');
    form.append('cardImage1', IMAGES.pngOverLimit());
    const exchanges: { request: { headers: Record<string, string>; body?: unknown } }[] = [];
    const client = new HttpClient(base, { timeoutMs: 10_000, maxResponseBytes: 1024, maxConcurrency: 1 });
    try {
      const response = await client.send({ method: 'POST', path: '/cards', form }, (exchange) => exchanges.push(exchange));
      expect(response.status).toBe(201);
    } finally {
      await client.close();
    }
    const whole = Buffer.concat([...form.chunks()]);
    const sha = createHash('sha256').update(whole).digest('hex');
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.headers['content-length']).toBe(String(whole.length));
      expect(request.headers['content-type']).toBe(form.contentType);
      expect(request.headers['transfer-encoding']).toBeUndefined();
      expect(request.bytes).toBe(whole.length);
      expect(request.sha).toBe(sha);
    }
    expect(exchanges[0]!.request.body).toEqual({ alias: 'Main', cardImage1: `<file card-10241kib.png, ${IMAGES.pngOverLimit().size} bytes, image/png>` });
    expect(Object.keys(exchanges[0]!.request.headers).map((name) => name.toLowerCase())).not.toContain('content-type');
  });
});
