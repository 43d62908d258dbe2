import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AT_LIMIT_IMAGE_BYTES, IMAGES, MAX_IMAGE_BYTES, OVER_LIMIT_IMAGE_BYTES, fileBytes, paddedPng } from '../helpers/arrange/images.js';
import { MultipartForm, uploadFile, type UploadFile } from '../helpers/net/multipart.js';
import { buildReference } from '../reference/app.js';
import { injectState, injectUserWithToken } from './reference-inject.js';

/** Unit tests of the reference's cards module (section 4.6a), through fastify's inject. */

// A fixed clock: 15 November 2026, so "not in the past" has known boundaries.
const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildReference({ states: true, now: () => NOW });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const state = (name: string, params: Record<string, unknown> = {}) => injectState(app, name, params);

async function userWithToken(): Promise<{ id: string; token: string }> {
  const { user, token } = await injectUserWithToken(app);
  return { id: user.id, token };
}

type Fields = Record<string, string | UploadFile | null>;

const VALID: Fields = {
  cardImage1: IMAGES.png(),
  cardImage2: IMAGES.jpeg(),
  holderName: 'Ada Lovelace',
  alias: 'Main card',
  expirationDate: '07/29',
  lastFourDigits: '4242',
};

async function multipart(fields: Fields): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new MultipartForm();
  for (const [name, value] of Object.entries(fields)) if (value !== null) form.append(name, value);
  return { payload: Buffer.concat([...form.chunks()]), headers: { 'content-type': form.contentType } };
}

async function create(user: { id: string; token: string }, overrides: Fields = {}, path = user.id) {
  const { payload, headers } = await multipart({ ...VALID, ...overrides });
  return app.inject({ method: 'POST', url: `/api/v1/user/${path}/card`, payload, headers: { ...headers, authorization: `Bearer ${user.token}` } });
}

const get = (user: { token: string }, url: string, query?: Record<string, string>) =>
  app.inject({ method: 'GET', url, ...(query ? { query } : {}), headers: { authorization: `Bearer ${user.token}` } });

describe('reference cards: create, list and show', () => {
  test('creates a card and answers it as section 2.5 describes, then lists and shows it', async () => {
    const user = await userWithToken();
    const response = await create(user);
    expect(response.statusCode).toBe(201);
    const card = response.json().data;
    expect(card).toMatchObject({ status: 'CONFIRMED', alias: 'Main card', holderName: 'Ada Lovelace', expirationDate: '07/29', lastFourDigits: '4242', createdAt: Math.floor(NOW / 1000) });
    expect(card.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(card.cardImage1).toMatch(/^card-images\/[0-9a-f]{64}\.png$/);
    expect(card.cardImage2).toMatch(/^card-images\/[0-9a-f]{64}\.jpg$/);
    expect(card.externalPlatform).toEqual({ code: 'REF', name: 'Reference Exchange', url: 'https://exchange.reference.test' });

    const list = await get(user, `/api/v1/user/${user.id}/card`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([card]);
    const show = await get(user, `/api/v1/user/${user.id}/card/${card.id}`);
    expect(show.statusCode).toBe(200);
    expect(show.json().data).toEqual(card);
  });

  test('reads a form as any client encodes it, not only the suite\u2019s encoder: a standard FormData, image names as ids by content', async () => {
    const user = await userWithToken();
    const form = new FormData();
    for (const [name, value] of Object.entries(VALID)) {
      if (typeof value === 'string') form.append(name, value);
      else if (value) form.append(name, new Blob([fileBytes(value)], { type: value.type }), value.name);
    }
    const request = new Request('http://reference.test/', { method: 'POST', body: form });
    const response = await app.inject({ method: 'POST', url: `/api/v1/user/${user.id}/card`, payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')!, authorization: `Bearer ${user.token}` } });
    expect(response.statusCode).toBe(201);
    const ours = (await create(await userWithToken())).json().data;
    expect(response.json().data).toMatchObject({ cardImage1: ours.cardImage1, cardImage2: ours.cardImage2, holderName: 'Ada Lovelace' });
  });

  test('filters the list by status, company and platform (exact match on the platform code)', async () => {
    const user = await userWithToken();
    const card = (await create(user)).json().data;
    const ids = async (query: Record<string, string>) => ((await get(user, `/api/v1/user/${user.id}/card`, query)).json().data as { id: string }[]).map((c) => c.id);
    expect(await ids({ status: 'CONFIRMED' })).toEqual([card.id]);
    expect(await ids({ status: 'PENDING' })).toEqual([]);
    expect(await ids({ company: 'REF' })).toEqual([card.id]);
    expect(await ids({ company: 'OTHER' })).toEqual([]);
    expect(await ids({ platform: 'REF' })).toEqual([card.id]);
    expect(await ids({ platform: 'ref' })).toEqual([]);
  });

  test('state card.two-platforms gives the user cards on its own platform and a new one, which company and platform select by code', async () => {
    const user = await userWithToken();
    const { platforms, company } = (await state('card.two-platforms', { userId: user.id })) as { platforms: { id: string; code: string; ids: string[] }[]; company: { value: string; ids: string[]; none: string } };
    expect(platforms.map((p) => p.ids.length)).toEqual([2, 1]);
    expect(platforms[0]!.code).toBe('REF');
    // The optional company (added later): the own platform's code, selecting its two cards of three; and (round wb23)
    // none, a new platform's code, selecting none of them.
    expect(company).toEqual({ value: 'REF', ids: platforms[0]!.ids, none: expect.stringMatching(/^P[0-9A-F]{6}$/) });
    const ids = async (query: Record<string, string>) => ((await get(user, `/api/v1/user/${user.id}/card`, query)).json().data as { id: string }[]).map((c) => c.id).sort();
    expect(platforms.map((p) => p.code)).not.toContain(company.none);
    expect(await ids({ company: company.none })).toEqual([]);
    for (const p of platforms) {
      for (const filter of ['company', 'platform']) {
        expect(await ids({ [filter]: p.code }), `${filter}=${p.code}`).toEqual([...p.ids].sort());
        expect(await ids({ [filter]: p.id }), `${filter}=${p.id}`).toEqual([]);
      }
    }
  });

  test('composes expirationDate from the month/year pair when no date is sent', async () => {
    const user = await userWithToken();
    const response = await create(user, { expirationDate: null, expirationMonth: '03', expirationYear: '27' });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.expirationDate).toBe('03/27');
  });
});

describe('reference cards: images (section 8)', () => {
  test.each([
    ['a BMP', IMAGES.bmp()],
    ['a JPEG', IMAGES.jpeg()],
    ['a PNG of 10 240 000 bytes (the suite\u2019s "inside the limit" file)', IMAGES.pngAtLimit()],
    ['a PNG of exactly 10240 x 1024 bytes (the reference reads KB as 1024 bytes)', paddedPng('max.png', MAX_IMAGE_BYTES)],
  ])('accepts %s', async (_name, image) => {
    const user = await userWithToken();
    expect((await create(user, { cardImage1: image })).statusCode).toBe(201);
  });

  test.each([
    ['a GIF', IMAGES.gif(), 'must be a file of type'],
    ['a text file named .png', IMAGES.textAsPng(), 'must be an image'],
    ['a PNG of 10240 x 1024 + 1 bytes, one byte over the reference\u2019s limit', paddedPng('over.png', MAX_IMAGE_BYTES + 1), 'not be greater than 10240 kilobytes'],
    ['a PNG of 10240 KiB + 1 KiB (422, not 413)', IMAGES.pngOverLimit(), 'not be greater than 10240 kilobytes'],
    ['a PNG of 13 MB, larger than the multipart limit (still 422)', uploadFile('big.png', 'image/png', Buffer.concat([fileBytes(IMAGES.pngOverLimit()), Buffer.alloc(3 * 1024 * 1024)])), 'not be greater than'],
    ['no image', null, 'is required'],
  ])('refuses %s with 422 keyed by the field', async (_name, image, message) => {
    const user = await userWithToken();
    const response = await create(user, { cardImage2: image as UploadFile | null });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.cardImage2[0]).toContain(message);
  });

  test('the test images are what they claim to be', () => {
    expect(fileBytes(IMAGES.pngAtLimit()).length).toBe(AT_LIMIT_IMAGE_BYTES);
    expect(AT_LIMIT_IMAGE_BYTES).toBe(10_240_000);
    expect(fileBytes(IMAGES.pngOverLimit()).length).toBe(OVER_LIMIT_IMAGE_BYTES);
    expect(OVER_LIMIT_IMAGE_BYTES).toBe(10240 * 1024 + 1024);
    expect(fileBytes(IMAGES.pngOverLimit()).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // White-box round wb9: an SVG document and TIFFs of both byte orders (header, one IFD of 8 entries, 1x1, the strip after it).
    expect(fileBytes(IMAGES.svg()).toString('utf8')).toMatch(/^<\?xml [^>]*\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1" height="1">/);
    for (const order of ['little', 'big'] as const) {
      const tiff = fileBytes(IMAGES.tiff(order));
      const u16 = (at: number) => (order === 'little' ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
      const u32 = (at: number) => (order === 'little' ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
      expect(tiff.subarray(0, 4).toString('hex')).toBe(order === 'little' ? '49492a00' : '4d4d002a');
      expect([u32(4), u16(8)]).toEqual([8, 8]);
      const entry = (tag: number) => { for (let i = 0; i < 8; i++) if (u16(10 + i * 12) === tag) return u16(10 + i * 12 + 2) === 3 ? u16(10 + i * 12 + 8) : u32(10 + i * 12 + 8); };
      expect([entry(256), entry(257), entry(258), entry(259), entry(279)]).toEqual([1, 1, 8, 1, 1]);
      expect(entry(273)).toBe(tiff.length - 1);
    }
  });

  test.each([
    ['an SVG', IMAGES.svg()],
    ['a TIFF (big-endian)', IMAGES.tiff('big')],
  ])('refuses %s as cardImage2 with 422 keyed by the field', async (_name, image) => {
    const user = await userWithToken();
    const response = await create(user, { cardImage2: image });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['cardImage2']);
  });
});

describe('reference cards: fields (sections 4.6a and 8)', () => {
  test.each([
    ['holderName of 192 characters', { holderName: 'a'.repeat(192) }, 'holderName'],
    ['alias of 192 characters', { alias: 'a'.repeat(192) }, 'alias'],
    ['lastFourDigits of 5 digits', { lastFourDigits: '12345' }, 'lastFourDigits'],
    ['lastFourDigits with a letter', { lastFourDigits: '12a4' }, 'lastFourDigits'],
    ['an expirationDate last month', { expirationDate: '10/26' }, 'expirationDate'],
    ['an expirationDate with a one-digit month', { expirationDate: '7/29' }, 'expirationDate'],
    ['an expirationDate with a four-digit year', { expirationDate: '07/2029' }, 'expirationDate'],
    ['an expirationYear last year', { expirationDate: null, expirationMonth: '12', expirationYear: '25' }, 'expirationYear'],
    ['expirationMonth without expirationYear', { expirationMonth: '07' }, 'expirationYear'],
    ['expirationYear without expirationMonth', { expirationYear: '29' }, 'expirationMonth'],
    ['neither date nor month and year', { expirationDate: null }, 'expirationDate'],
  ])('refuses %s with 422', async (_name, overrides, field) => {
    const user = await userWithToken();
    const response = await create(user, overrides as Fields);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toContain(field);
  });

  test.each([
    ['holderName and alias of 191 characters', { holderName: 'a'.repeat(191), alias: 'b'.repeat(191) }],
    ['an expirationDate in the current month', { expirationDate: '11/26' }],
    ['a month/year pair in the current year', { expirationDate: null, expirationMonth: '01', expirationYear: '26' }],
  ])('accepts %s', async (_name, overrides) => {
    const user = await userWithToken();
    expect((await create(user, overrides as Fields)).statusCode).toBe(201);
  });
});

describe('reference cards: authorization (sections 5.6 and 7)', () => {
  test('answers 401 { error } without a token', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/user/00000000-0000-4000-8000-000000000000/card' });
    expect(response.statusCode).toBe(401);
    expect(typeof response.json().error).toBe('string');
  });

  test('answers 409 for another user and 404 for an unknown card or another user\u2019s card', async () => {
    const owner = await userWithToken();
    const other = await userWithToken();
    const card = (await create(owner)).json().data;
    const foreign = await get(other, `/api/v1/user/${owner.id}/card/${card.id}`);
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json()).toEqual({ message: 'This action is unauthorized.' });
    expect((await create(other, {}, owner.id)).statusCode).toBe(409);
    const underOwnId = await get(other, `/api/v1/user/${other.id}/card/${card.id}`);
    expect(underOwnId.statusCode).toBe(404);
    expect(underOwnId.json()).toEqual({ message: `No query results for model [Card] ${card.id}` });
  });

  test('answers 403 for an inactive account', async () => {
    const inactive = await state('user.inactive');
    const user = { id: inactive.id as string, token: inactive.token as string };
    expect((await get(user, `/api/v1/user/${user.id}/card`)).statusCode).toBe(403);
    expect((await create(user)).statusCode).toBe(403);
  });
});
