import { createHash } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en'; // only the locale used: the package root loads every locale (about 35 MB per thread)
import type { CheckContext } from '../check/check.js';
import { IMAGES } from './images.js';
import { MultipartForm, type UploadFile } from '../net/multipart.js';
import { hookWouldAdd } from '../states/file.js';
import { userWithToken } from './flows.js';
import { companyOfState, platformsOfState } from './banks.js';

/**
 * Card create payloads (section 4.6a) as multipart/form-data: the two images travel as uploaded
 * files, the other fields as text parts. A field set to `null` is left out of the form.
 */

/** The card fields; an image given as a string travels as a plain text part instead of a file. */
export interface CardFields {
  cardImage1?: UploadFile | string | null;
  cardImage2?: UploadFile | string | null;
  holderName?: string | null;
  alias?: string | null;
  expirationDate?: string | null;
  expirationMonth?: string | null;
  expirationYear?: string | null;
  lastFourDigits?: string | null;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Month and year `monthsAhead` months from the current month (UTC), as the two-digit strings of the
 * `m/y` format of section 4.6a (in date-format letters, `m` is the month 01-12 and `y` the year in two
 * digits). 0 = the current month.
 */
export function monthYear(monthsAhead: number, now = new Date()): { month: string; year: string; date: string } {
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() + monthsAhead;
  const month = pad2((index % 12) + 1);
  const year = pad2(Math.floor(index / 12) % 100);
  return { month, year, date: `${month}/${year}` };
}

/** The latest local time on Earth is 14 hours ahead of UTC (UTC+14, Line Islands). */
const LATEST_OFFSET_MS = 14 * 3600 * 1000;
/** An hour more: the test's own length, and a target's clock a little ahead, never carry a month sent into the current one. */
const LATER_MONTH_MARGIN_MS = 3600 * 1000;

/**
 * Months later in the current year than the current month in every time zone (section 4.6a "not in the past", white-box
 * round wb8): counted from the latest local time on Earth (UTC+14) an hour ahead, the next month and December, as `m/y`
 * with a two-digit year. None in December: no month of the year is left after the current one, which is open (201 or 422, the
 * target's time zone decides).
 */
export function laterMonthsThisYear(now = new Date()): { month: string; year: string; date: string }[] {
  const latest = new Date(now.getTime() + LATEST_OFFSET_MS + LATER_MONTH_MARGIN_MS);
  if (latest.getUTCMonth() === 11) return [];
  const next = monthYear(1, latest);
  const december = monthYear(11 - latest.getUTCMonth(), latest);
  return next.date === december.date ? [december] : [next, december];
}

/**
 * Reads an `m/y` string as numbers (month 1-12, year in two digits), or undefined when it is not one. A
 * four-digit year (format `y` read as Unicode/Java patterns read it, docs/judging.md) is read as its last two digits.
 */
export function parseMonthYear(value: unknown): { month: number; year: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{1,2})\/(\d{2}|20\d{2})$/.exec(value);
  if (!match) return undefined;
  return { month: Number(match[1]), year: Number(match[2]) % 100 };
}

/**
 * A valid card: two small real PNG images that are two different pictures (other bytes, other names: the card, and the
 * card held; issue 28, allowed-r21-card-images-must-differ), a name, an alias, four digits and an expiry three years ahead.
 */
export function validCardFields(): Required<{ [K in keyof CardFields]: CardFields[K] }> {
  return {
    cardImage1: IMAGES.png(),
    cardImage2: IMAGES.pngHeld(),
    holderName: faker.person.fullName(),
    alias: `Card ${faker.word.noun()}`,
    expirationDate: monthYear(36).date,
    expirationMonth: null,
    expirationYear: null,
    lastFourDigits: faker.string.numeric(4),
  };
}

const isFile = (value: CardFields['cardImage1']): value is UploadFile => typeof value === 'object' && value !== null;

const digests = new WeakMap<UploadFile, string>();
/** A file's SHA-256, read chunk by chunk (a 10 MB image is never held whole), once a file. */
function digestOf(file: UploadFile): string {
  let digest = digests.get(file);
  if (digest === undefined) {
    const hash = createHash('sha256');
    for (const chunk of file.chunks()) hash.update(chunk);
    digests.set(file, (digest = hash.digest('hex')));
  }
  return digest;
}

/** Whether two files carry the same bytes (whatever their names and declared types). */
export function sameFileBytes(a: UploadFile, b: UploadFile): boolean {
  return a === b || (a.size === b.size && digestOf(a) === digestOf(b));
}

/**
 * Section 4.6a gives the two images as two pictures ("the card image"; "the card with the user holding it"), and
 * whether a server may refuse one file sent as both is not said (issue 28, reading round r21,
 * allowed-r21-card-images-must-differ): so the image a caller left to the defaults is another picture than the one it
 * gave (the first of the card's PNG, the held card's PNG and a JPEG whose bytes differ from it). Two images the caller
 * gave both are sent as given.
 */
function twoDifferentImages(fields: CardFields, overrides: CardFields): void {
  const { cardImage1: first, cardImage2: second } = fields;
  if (!isFile(first) || !isFile(second) || !sameFileBytes(first, second)) return;
  const given = 'cardImage1' in overrides ? ('cardImage2' in overrides ? undefined : first) : second;
  if (given === undefined) return;
  const other = [IMAGES.png(), IMAGES.pngHeld(), IMAGES.jpeg()].find((image) => !sameFileBytes(image, given))!;
  if ('cardImage1' in overrides) fields.cardImage2 = other;
  else fields.cardImage1 = other;
}

/**
 * The multipart form of a card: the valid defaults, overridden field by field (`null` omits a field). Its text parts
 * are sent before its files (MultipartForm `fieldsFirst`: issue 28, allowed-r21-card-text-fields-before-files; also a
 * text part a caller appends afterwards), and its two images are two different files unless the caller gave both.
 */
export function cardForm(overrides: CardFields = {}): { form: MultipartForm; fields: CardFields } {
  const fields: CardFields = { ...validCardFields(), ...overrides };
  twoDifferentImages(fields, overrides);
  const form = new MultipartForm({ fieldsFirst: true });
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    form.append(name, value);
  }
  return { form, fields };
}

/**
 * An account of a static states file is reused run after run and cards cannot be deleted (section
 * 4.6a has no delete), so it may hold cards of earlier runs: a test about a user without cards cannot
 * be verified on it.
 */
export function skipForCardsLeft(t: CheckContext, count: number): never {
  return t.skip(`the STATES_FILE account holds ${count} card(s) left by earlier tests or runs (cards cannot be deleted), so a user without cards cannot be verified (${hookWouldAdd('user')}, a fresh account without cards)`);
}

/** A fresh user, its token and its cards on two platforms (provider state `card.two-platforms`): what the company and platform filters are checked with. */
export async function userWithCardsOnTwoPlatforms(t: CheckContext) {
  const { user, token } = await userWithToken(t, {}, { needs: ['card.two-platforms'] });
  const { platforms, company } = await t.state('card.two-platforms', { userId: user.id });
  return { user, token, platforms: platformsOfState(platforms, 'card.two-platforms'), company: companyOfState(company, 'card.two-platforms') };
}

/** Creates a card for the user (section 4.6a) and answers the record; a precondition failure when the target does not answer 201. */
export async function createCard(t: CheckContext, userId: string, token: string, overrides: CardFields = {}): Promise<{ card: any; fields: CardFields }> {
  const { form, fields } = cardForm(overrides);
  const response = await t.post(`/api/v1/user/${userId}/card`, { token, form });
  if (response.status !== 201) throw new Error(`precondition: creating a valid card must answer 201, got ${response.status}`);
  const card = response.json?.data;
  if (!card || typeof card.id !== 'string') throw new Error('precondition: the card create answer must carry data.id');
  return { card, fields };
}
