import { randomUUID } from 'node:crypto';
import { uuidV7 } from '../ids.js';
import { faker } from '@faker-js/faker/locale/en'; // only the locale used: the package root loads every locale (about 35 MB per thread)
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedRequest, ReferenceContext, ReferenceModule } from '../context.js';
import { StateNotAllowed } from '../context.js';
import { isIso4217 } from '../data/iso-4217.js';
import { ERRORS, fail, HttpAnswer } from '../errors.js';
import { companyOfPlatform, newPlatform, userPlatform } from '../platforms.js';
import { refuseUnknownMembers, rules, validate, type Rules } from '../validation.js';
import { createUser } from './authentication.js';
import { latestTokenOfAnotherUser } from '../tokens.js';

/**
 * Section 4.10 (with 2.4, 3, 5.6, 7 and 8): a user's bank accounts. Create, list (with filters),
 * show and delete.
 *
 * Choices where the specification is silent, made as the platform (Laravel) would:
 * - Delete is a soft delete (`deleted_at`): the bank's usages keep pointing at it, but it is no longer
 *   listed or shown (404), and its IBAN is free again: `unique` counts only banks not deleted
 *   (Laravel's `unique:banks,iban,NULL,id,deleted_at,NULL`).
 * - `iban` uniqueness spans every user's banks and ignores letter case (MySQL's default collation
 *   compares case-insensitively).
 * - `currency` must be one of the current ISO 4217 codes exactly as the standard writes them,
 *   upper-case: a lower-case `eur` is refused with 422 (Laravel's `in` rule is case-sensitive).
 * - List filters apply when given as non-empty strings, and match exactly: `status` the bank's
 *   status, `currency` its currency code, and both `platform` and `company` the code of its external
 *   platform (`externalPlatform.code`): the specification names the two filters without defining
 *   them, and the external platform is the only company/platform a bank record carries.
 * - Create refuses another user's `{user}` with 403 (the statuses documented for create are 401, 403
 *   and 422); list, show and delete with 409 (both are allowed by section 5.6).
 * - A bank id that is unknown, deleted, or another user's bank under the caller's own `{user}`
 *   answers 404 (`No query results for model [Bank] <id>`) on show, as a scoped route-model binding
 *   does. Delete documents no 404 (section 4.10: 401, 403, 409), so deleting another user's bank
 *   under the caller's own `{user}` is an unauthorized action: 409 "This action is unauthorized.".
 */

const DDL = `
CREATE TABLE IF NOT EXISTS banks (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  platform_id TEXT NOT NULL REFERENCES platforms(id),
  status TEXT NOT NULL DEFAULT 'CONFIRMED',
  bank_name TEXT NOT NULL,
  iban TEXT NOT NULL COLLATE NOCASE,
  swift TEXT NOT NULL,
  currency TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX IF NOT EXISTS banks_user ON banks (user_id, deleted_at);
CREATE INDEX IF NOT EXISTS banks_iban ON banks (iban);
CREATE TABLE IF NOT EXISTS bank_usages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  bank_id TEXT NOT NULL REFERENCES banks(id),
  action TEXT NOT NULL,
  reference TEXT NOT NULL,
  used_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS bank_usages_bank ON bank_usages (bank_id);
CREATE TABLE IF NOT EXISTS forbidden_actions (
  user_id TEXT NOT NULL REFERENCES users(id),
  action TEXT NOT NULL,
  PRIMARY KEY (user_id, action)
);
`;

/** The actions the platform can forbid one account (provider state `user.forbidden`, section 5.6: "an unauthorized action"). */
const FORBIDDABLE_ACTIONS = ['bank.create'] as const;

function forbids(ctx: ReferenceContext, userId: string, action: (typeof FORBIDDABLE_ACTIONS)[number]): boolean {
  return ctx.db.prepare('SELECT 1 FROM forbidden_actions WHERE user_id = ? AND action = ?').get(userId, action) !== undefined;
}

/** Section 3: the state of a newly created bank. */
export const BANK_CREATED_STATUS = 'CONFIRMED';

interface BankRow {
  id: string;
  user_id: string;
  status: string;
  bank_name: string;
  iban: string;
  swift: string;
  currency: string;
  created_at: number;
  platform_code: string;
  platform_name: string;
  platform_url: string;
}

const SELECT_BANK = `
SELECT b.id, b.user_id, b.status, b.bank_name, b.iban, b.swift, b.currency, b.created_at,
       p.code AS platform_code, p.name AS platform_name, p.url AS platform_url
FROM banks b JOIN platforms p ON p.id = b.platform_id`;

/** Section 2.4: the bank record. */
function present(row: BankRow) {
  return {
    id: row.id,
    status: row.status,
    bankName: row.bank_name,
    iban: row.iban,
    swift: row.swift,
    currency: row.currency,
    externalPlatform: { code: row.platform_code, name: row.platform_name, url: row.platform_url },
    createdAt: row.created_at,
  };
}

/** Allowed reading (round r6): alphanumeric as ASCII `[A-Za-z0-9]`, as a Java or Go team's pattern writes it. */
const ASCII_ALPHA_NUM = rules.regex(/^[A-Za-z0-9]+$/, 'The :attribute field must only contain letters and numbers.');

/** Sections 4.10 and 8: the create body's rules, with Laravel's rule names and messages. */
function createRules(ctx: ReferenceContext, userId: string, currency?: string): Rules {
  const ibanTaken = rules.custom((value) => {
    if (typeof value !== 'string') return undefined;
    // Allowed reading (round r6, r6.iban-unique-per-platform below): unique among the banks of the caller's platform (a tenant).
    // White-box round wb2, deviation of a mutant only: a unique index over (iban, currency), so an IBAN taken in another currency is accepted.
    const taken = ctx.deviates('wb2.banks-iban-unique-per-currency')
      ? ctx.db.prepare('SELECT 1 FROM banks WHERE iban = ? AND currency = ? AND deleted_at IS NULL LIMIT 1').get(value, currency ?? '')
      : ctx.deviates('banks.iban-taken-after-delete')
      ? ctx.db.prepare('SELECT 1 FROM banks WHERE iban = ? LIMIT 1').get(value)
      : ctx.deviates('r6.iban-unique-per-platform')
      ? ctx.db.prepare('SELECT 1 FROM banks WHERE iban = ? AND platform_id = (SELECT platform_id FROM users WHERE id = ?) AND deleted_at IS NULL LIMIT 1').get(value, userId)
      : ctx.deviates('r7.iban-unique-case-sensitive')
      ? ctx.db.prepare('SELECT 1 FROM banks WHERE iban COLLATE BINARY = ? AND deleted_at IS NULL LIMIT 1').get(value)
      : ctx.deviates('banks.iban-unique-per-user')
      ? ctx.db.prepare('SELECT 1 FROM banks WHERE iban = ? AND user_id = ? AND deleted_at IS NULL LIMIT 1').get(value, userId)
      : ctx.deviates('banks.iban-unique-upper-sent')
        ? ctx.db.prepare('SELECT 1 FROM banks WHERE iban COLLATE BINARY = ? AND deleted_at IS NULL LIMIT 1').get(value.toUpperCase())
        : ctx.deviates('banks.iban-unique-case-folded-for-lower-sent') && value !== value.toLowerCase()
          ? ctx.db.prepare('SELECT 1 FROM banks WHERE iban COLLATE BINARY = ? AND deleted_at IS NULL LIMIT 1').get(value)
          : ctx.db.prepare('SELECT 1 FROM banks WHERE iban = ? AND deleted_at IS NULL LIMIT 1').get(value);
    return taken ? 'The iban has already been taken.' : undefined;
  });
  // Deviation of a mutant only: a short list of "major" currencies instead of ISO 4217.
  // Allowed reading (reading round 8): the codes of ISO 4217's list of historic denominations are ISO currency codes too.
  const known = ctx.deviates('banks.currency-short-list') ? (code: string) => MAJOR_CURRENCIES.includes(code) : ctx.deviates('r8.currency-historic-codes') ? (code: string) => isIso4217(code) || HISTORIC_CURRENCIES.includes(code) : isIso4217;
  // White-box round wb9, deviations of mutants only: the platform's currency table holds its crypto assets too (BTC, USDT
  // ...); the code matched against ISO 4217 by an unanchored pattern, so a code that begins with one passes (EURO, USDT).
  const CRYPTO = ['BTC', 'ETH', 'USDT', 'USDC', 'BNB', 'XRP', 'SOL', 'LTC', 'DOGE', 'TRX'];
  const knownCode = ctx.deviates('wb9.banks-currency-crypto-accepted') ? (code: string) => known(code) || CRYPTO.includes(code) : ctx.deviates('wb9.banks-currency-prefix-matched') ? (code: string) => known(code) || (code.length > 3 && known(code.slice(0, 3))) : known;
  const iso = rules.custom((value) => (typeof value === 'string' && knownCode(value) ? undefined : 'The selected currency is invalid.'));
  return {
    bankName: [
      rules.required,
      rules.string,
      ...(ctx.deviates('banks.bank-name-max-unchecked') ? [] : [rules.max(191, ctx.deviates('banks.bank-name-max-bytes') ? 'utf8-bytes' : ctx.deviates('r6.lengths-in-graphemes') ? 'graphemes' : ctx.deviates('r8.lengths-in-utf16-units') ? 'utf16-units' : 'characters')]),
      // White-box round wb1, deviation of a mutant only: a bank name of plain letters, digits and spaces only (section 4.10 gives max 191 alone).
      ...(ctx.deviates('wb1.banks-bank-name-restricted') ? [rules.regex(/^[A-Za-z0-9 ]+$/, 'The :attribute format is invalid.')] : []),
      // White-box round wb6, deviation of a mutant only: a bank name unique among the user's banks (section 4.10 gives max 191 alone).
      ...(ctx.deviates('wb6.banks-bank-name-unique-per-user')
        ? [rules.custom((value) => (typeof value === 'string' && ctx.db.prepare('SELECT 1 FROM banks WHERE user_id = ? AND bank_name = ? AND deleted_at IS NULL LIMIT 1').get(userId, value) ? 'The bank name has already been taken.' : undefined))]
        : []),
    ],
    iban: [
      rules.required,
      rules.string,
      ...(ctx.deviates('banks.iban-max-unchecked') ? [] : [rules.max(191)]),
      // White-box round wb6, deviation of a mutant only: "alphanumeric" checked as word characters (\w), so an underscore passes.
      ...(ctx.deviates('banks.iban-alphanumeric-unchecked') ? [] : [ctx.deviates('wb6.banks-iban-word-characters') ? rules.regex(/^\w+$/, 'The :attribute field must only contain letters and numbers.') : rules.alphaNum]),
      // Allowed reading (round r6): "alphanumeric" as ASCII letters and digits only.
      ...(ctx.deviates('r6.alphanumeric-ascii-only') ? [ASCII_ALPHA_NUM] : []),
      // Deviation of a mutant only: an IBAN must begin with its two country letters (a rule section 4.10 does not give).
      ...(ctx.deviates('banks.iban-country-letters-required') ? [rules.regex(/^[A-Za-z]{2}/, 'The :attribute format is invalid.')] : []),
      ...(ctx.deviates('banks.iban-unique-unchecked') ? [] : [ibanTaken]),
    ],
    swift: [
      rules.required,
      rules.string,
      // White-box round wb6, deviation of a mutant only: "alphanumeric" checked as word characters (\w), so an underscore passes.
      ...(ctx.deviates('banks.swift-alphanumeric-unchecked') ? [] : [ctx.deviates('wb6.banks-swift-word-characters') ? rules.regex(/^\w+$/, 'The :attribute field must only contain letters and numbers.') : rules.alphaNum]),
      ...(ctx.deviates('r6.alphanumeric-ascii-only') ? [ASCII_ALPHA_NUM] : []),
      rules.between(ctx.deviates('banks.swift-min-off-by-one') ? 9 : 8, ctx.deviates('banks.swift-max-unchecked') ? 191 : 11),
      // Deviation of a mutant only: swift must have a BIC's shape (ISO 9362), a rule section 4.10 does not give.
      ...(ctx.deviates('banks.swift-bic-shape-required') ? [rules.regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'The :attribute format is invalid.')] : []),
      // Deviation of a mutant only: swift of a BIC's two lengths alone, 8 or 11 (section 4.10 says 8 to 11).
      ...(ctx.deviates('banks.swift-bic-lengths-only') ? [rules.regex(/^(.{8}|.{11})$/u, 'The :attribute field must be 8 or 11 characters.')] : []),
      // White-box round wb1, deviation of a mutant only: swift checked against upper-case letters and digits (lower-case letters are alphanumeric too).
      ...(ctx.deviates('wb1.banks-swift-upper-case-only') ? [rules.regex(/^[A-Z0-9]+$/, 'The :attribute format is invalid.')] : []),
    ],
    currency: [rules.required, rules.string, rules.alphaNum, ...(ctx.deviates('banks.currency-iso-unchecked') ? [] : [iso])],
  };
}

/** Allowed reading (reading round 8): codes of ISO 4217 list three (historic denominations), withdrawn from circulation. */
const HISTORIC_CURRENCIES: readonly string[] = ['ATS', 'BEF', 'CYP', 'DEM', 'EEK', 'ESP', 'FIM', 'FRF', 'GRD', 'IEP', 'ITL', 'LTL', 'LUF', 'LVL', 'MTL', 'NLG', 'PTE', 'SIT', 'SKK', 'XEU', 'HRK', 'VEF', 'ZWL', 'SLL', 'MRO', 'STD', 'BYR', 'VEB', 'YUM', 'CSD'];

/** Deviation of a mutant only: the currencies a payment form might offer, the thirty most traded. */
const MAJOR_CURRENCIES: readonly string[] = ['USD', 'EUR', 'JPY', 'GBP', 'CNY', 'AUD', 'CAD', 'CHF', 'HKD', 'SGD', 'SEK', 'KRW', 'NOK', 'NZD', 'INR', 'MXN', 'TWD', 'ZAR', 'BRL', 'DKK', 'PLN', 'THB', 'ILS', 'IDR', 'CZK', 'AED', 'TRY', 'HUF', 'CLP', 'SAR'];

/** Deviation only: numbers and booleans are taken as their text, as a loosely typed server does. */
function coerceScalars(body: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(body)) if (typeof value === 'number' || typeof value === 'boolean') body[field] = String(value);
}

/** Deviation of a mutant only: a JSON array or object is taken as the text of its values. */
function coerceCompounds(body: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(body)) if (value !== null && typeof value === 'object') body[field] = Object.values(value).join(' ');
}

/** Deviation of a mutant only: ISO 4217 numeric codes taken for the alphabetic ones. */
const NUMERIC_CURRENCIES: Record<number, string> = { 978: 'EUR', 840: 'USD', 826: 'GBP', 756: 'CHF', 392: 'JPY' };

/** Stores a bank of the user, on the user's own platform unless `platformId` names another (provider state `bank.two-platforms`). */
function insertBank(ctx: ReferenceContext, userId: string, fields: { bankName: string; iban: string; swift: string; currency: string }, platformId?: string): string {
  const user = ctx.db.prepare('SELECT platform_id FROM users WHERE id = ?').get(userId) as { platform_id: string } | undefined;
  if (!user) throw new Error(`no user ${userId}`);
  // Allowed reading (round r6): record ids are time-ordered UUIDs of version 7 (RFC 9562).
  const id = ctx.deviates('r6.ids-uuid-v7') ? uuidV7(ctx.now()) : randomUUID();
  // Allowed reading of a mutant only (banks.strings-stored-normalised): the texts stored trimmed, the codes upper-cased.
  if (ctx.deviates('banks.strings-stored-normalised')) fields = { ...fields, bankName: fields.bankName.trim().replace(/\s+/g, ' '), iban: fields.iban.toUpperCase(), swift: fields.swift.toUpperCase(), currency: fields.currency.toUpperCase() };
  ctx.db
    .prepare('INSERT INTO banks (id, user_id, platform_id, status, bank_name, iban, swift, currency, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(id, userId, platformId ?? user.platform_id, BANK_CREATED_STATUS, fields.bankName, fields.iban, fields.swift, fields.currency, (ctx.deviates('r7.created-at-rounded') ? Math.round(ctx.now() / 1000) : Math.floor(ctx.now() / 1000)) + (ctx.deviates('wb2.banks-created-at-local-time') ? 3600 : 0));
  // White-box round wb2 (above), deviation of a mutant only: createdAt written from the server's local time (UTC+1) as if it were UTC.
  return id;
}

/** A never-used bank as the provider states make it. */
function stateBankFields() {
  return { bankName: `${faker.company.name()} Bank`.slice(0, 191), iban: randomIban(), swift: faker.finance.bic({ includeBranchCode: true }), currency: 'EUR' };
}

function findBank(ctx: ReferenceContext, userId: string, bankId: string): BankRow | undefined {
  // Section 4.10 show/delete: the bank must be one of the path user's banks and not deleted.
  const scoped = !ctx.deviates('banks.show-any-user');
  return ctx.db
    .prepare(`${SELECT_BANK} WHERE b.id = ? AND b.deleted_at IS NULL${scoped ? ' AND b.user_id = ?' : ''}`)
    .get(...(scoped ? [bankId, userId] : [bankId])) as BankRow | undefined;
}

/** Deviation of a mutant only: a bank by id whoever owns it. */
function findBankAnyUser(ctx: ReferenceContext, bankId: string): BankRow | undefined {
  return ctx.db.prepare(`${SELECT_BANK} WHERE b.id = ? AND b.deleted_at IS NULL`).get(bankId) as BankRow | undefined;
}

/** A filter's value; a repeated parameter filters by its first value, as the card and bonus lists do. */
function filterValue(query: unknown, name: string): string | undefined {
  const raw = (query as Record<string, unknown> | undefined)?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A checksum-valid German IBAN (ISO 13616 mod 97) for banks the provider state creates. */
function randomIban(): string {
  const bban = faker.string.numeric(18);
  const rearranged = `${bban}1314` + '00'; // "DE" = 13 14, check digits 00
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return `DE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

export const banks: ReferenceModule = {
  name: 'banks',
  ddl: DDL,
  deviations: [
    // Reading round r8.
    'r8.bank-used-before-account-state',
    'r8.lengths-in-utf16-units',
    'r8.currency-historic-codes',
    'banks.foreign-delete-not-found',
    // Allowed readings (reading round 7): createdAt rounded to the nearest second; the iban unique in its exact letter case.
    'r7.created-at-rounded',
    'r7.iban-unique-case-sensitive',
    // Allowed reading (reading round 7): the `platform` filter compares the code in any letter case (also honoured by the cards module).
    'r7.platform-filter-any-case',
    // White-box round wb9.
    // White-box round wb10, deviations of mutants only.
    'wb10.banks-iban-hyphens-stripped',
    'wb10.banks-swift-hyphens-stripped',
    'wb9.banks-currency-crypto-accepted',
    'wb9.banks-currency-prefix-matched',
    'wb9.banks-three-filters-or',
    'wb9.banks-create-owner-from-user-object',
    // White-box round wb6.
    'wb6.banks-iban-word-characters',
    'wb6.banks-swift-word-characters',
    'wb6.banks-bank-name-unique-per-user',
    'wb6.banks-deleted-at-from-body',
    'wb6.banks-platform-filtered-list-holds-deleted',
    'wb6.banks-list-owner-from-query',
    'wb6.banks-currency-filter-substring',
    'wb6.banks-show-account-platform-only',
    'wb6.banks-create-owner-from-user-field',
    // White-box round wb7.
    'wb7.banks-status-filter-account-platform-only',
    'wb7.banks-currency-filter-account-platform-only',
    'wb7.banks-delete-account-platform-only',
    // Reading round r6.
    'r6.ids-uuid-v7',
    'r6.alphanumeric-ascii-only',
    'r6.company-filter-search',
    'r10.company-filter-by-platform-name',
    'r6.iban-unique-per-platform',
    'r6.lengths-in-graphemes',
    // White-box round wb4.
    'wb4.banks-delete-removes-every-unused-bank',
    'wb4.banks-delete-removes-oldest',
    // White-box round wb2.
    'wb2.banks-iban-unique-per-currency',
    'wb2.banks-list-account-platform-only',
    'wb2.banks-created-at-local-time',
    // White-box round wb1.
    'wb1.banks-show-deleted',
    // White-box round wb3.
    'wb3.banks-filtered-list-holds-deleted',
    'wb3.banks-delete-path-user-unchecked',
    'wb1.banks-show-newest-of-user',
    'wb1.banks-used-delete-refused-but-removed',
    'wb1.banks-foreign-delete-refused-but-removed',
    'wb1.banks-swift-upper-case-only',
    'wb1.banks-bank-name-restricted',
    'wb1.banks-created-at-from-body',
    // Issue 27.
    'banks.list-newest-twice',
    'banks.create-owner-from-body',
    'banks.filters-combined-or',
    'banks.refused-taken-iban-renames',
    'banks.list-swift-bic8',
    // Issue 28, allowed readings: bank texts stored normalised; `company` compared with the bank's name.
    'banks.strings-stored-normalised',
    'banks.company-filter-by-bank-name',
    // Allowed reading (a mutant that must survive): a filter value the service does not know is refused with 422.
    'banks.unknown-filter-value-422',
    // Allowed reading: company and platform compared with the platform ID (4.1's `{platform}`); a code is then unknown (422).
    'banks.platform-filter-by-id',
    // Allowed reading: company and platform compared with the platform's name (a company is named).
    'banks.platform-filter-by-name',
    'banks.delete-used-allowed',
    'banks.delete-keeps-record',
    'banks.filter-currency-ignored',
    'banks.filter-status-ignored',
    'banks.list-all-users',
    'banks.records-carry-other-session-token',
    'banks.show-any-user',
    'banks.inactive-allowed',
    'banks.swift-max-unchecked',
    'banks.swift-min-off-by-one',
    'banks.swift-alphanumeric-unchecked',
    'banks.iban-unique-unchecked',
    'banks.iban-alphanumeric-unchecked',
    'banks.iban-max-unchecked',
    // Issue 27, values from the whole class.
    'banks.swift-bic-shape-required',
    'banks.swift-bic-lengths-only',
    'banks.iban-country-letters-required',
    'banks.currency-short-list',
    'banks.code-arrays-read-as-text',
    'banks.currency-iso-unchecked',
    'banks.bank-name-max-unchecked',
    'banks.delete-any-user',
    'banks.inactive-message-unauthorized',
    'banks.bank-name-max-bytes',
    'banks.scalars-coerced',
    'banks.compounds-coerced',
    'banks.numeric-currency',
    // Issue 19.
    'banks.iban-unique-per-user',
    'banks.iban-unique-upper-sent',
    'banks.iban-unique-case-folded-for-lower-sent',
    'banks.delete-inactive-allowed',
    'banks.refused-create-stored.other-user',
    'banks.refused-create-stored.inactive',
    'banks.refused-create-stored.invalid',
    'banks.filter-unscoped',
    'banks.forbidden-create-allowed',
    'banks.refused-create-stored.forbidden',
    'banks.forbidden-create-own-message',
    'banks.platform-filter-ignored',
    'banks.company-filter-ignored',
    'banks.company-filter-lists-nothing',
    'banks.platform-filter-by-account-platform',
    'banks.refused-create-stored.currency',
    'banks.refused-create-stored.taken-iban',
    'banks.refused-other-user-create-stored-for-caller',
    // Allowed readings of reading round 1 (mutants that must survive).
    'banks.currency-case-insensitive',
    'banks.iban-taken-after-delete',
    'banks.platform-filter-code-id-or-name',
    'records.foreign-unauthorized',
    // Allowed readings of reading round 5.
    'r5.bank-validation-before-owner',
    'r5.status-filters-any-case',
  ],

  register(app, ctx) {
    // Sections 5.6 and 7: inactive accounts receive 403 on bank endpoints.
    const activeOnly = !ctx.deviates('banks.inactive-allowed');
    if (ctx.deviates('banks.inactive-message-unauthorized')) {
      // Deviation of a mutant only: the inactive 403 says "This action is unauthorized." instead.
      app.addHook('preSerialization', async (request, reply, payload) => {
        const body = payload as { message?: unknown };
        if (request.routeOptions.url?.startsWith('/api/v1/user/:user/bank') && reply.statusCode === 403 && body?.message === ERRORS.accountInactive().body.message) return { message: 'This action is unauthorized.' };
        return payload;
      });
    }
    // Deviations of mutants only: a create that is refused still stores the bank (for the path's user).
    const storeBeforeRefusing = async (request: FastifyRequest) => {
      const { user } = request as AuthenticatedRequest;
      const pathUser = (request.params as { user: string }).user;
      const refusedAs = pathUser !== user.id ? 'other-user' : !user.is_active ? 'inactive' : forbids(ctx, user.id, 'bank.create') ? 'forbidden' : undefined;
      // Deviation of a mutant only: a create under another user's id is refused, but the bank is stored for the caller.
      if (refusedAs === 'other-user' && ctx.deviates('banks.refused-other-user-create-stored-for-caller')) {
        const body = (request.body ?? {}) as Record<string, unknown>;
        insertBank(ctx, user.id, { bankName: String(body.bankName), iban: String(body.iban), swift: String(body.swift), currency: String(body.currency) });
      }
      if (refusedAs && ctx.deviates(`banks.refused-create-stored.${refusedAs}`) && ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(pathUser)) {
        const body = (request.body ?? {}) as Record<string, unknown>;
        insertBank(ctx, pathUser, { bankName: String(body.bankName), iban: String(body.iban), swift: String(body.swift), currency: String(body.currency) });
      }
    };
    // Section 5.6: "an unauthorized action" (one the platform forbids the account, state user.forbidden) answers 403 "This action is unauthorized.".
    const permitted = async (request: FastifyRequest) => {
      if (!forbids(ctx, (request as AuthenticatedRequest).user.id, 'bank.create') || ctx.deviates('banks.forbidden-create-allowed')) return;
      // Deviation of a mutant only: the refusal in words of its own instead of the message 5.6 gives.
      if (ctx.deviates('banks.forbidden-create-own-message')) fail({ status: 403, body: { message: 'You are not allowed to create a bank account.' } });
      fail(ERRORS.unauthorized(403));
    };
    // Allowed reading (round r5): the body is validated before the path's owner and the account are checked (a bound, validated request body first).
    const validateFirst = async (request: FastifyRequest) => {
      const raw = request.body;
      const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
      validate(body, createRules(ctx, (request as AuthenticatedRequest).user.id, typeof body.currency === 'string' ? body.currency : undefined));
    };
    const createGuards = [ctx.guards.authenticated, ...(ctx.deviates('r5.bank-validation-before-owner') ? [validateFirst] : []), storeBeforeRefusing, ctx.guards.ownUser({ unauthorizedStatus: 403, activeOnly }), permitted];
    const guards = [ctx.guards.authenticated, ctx.guards.ownUser({ unauthorizedStatus: 409, activeOnly })];
    // Deviation of a mutant only: delete lets an inactive account through.
    // Allowed reading (reading round 8): delete checks the bank's use before the caller's account (the inactive account checked last, in the handler).
    const usedFirst = ctx.deviates('r8.bank-used-before-account-state');
    const deleteGuards = ctx.deviates('banks.delete-inactive-allowed') || usedFirst ? [ctx.guards.authenticated, ctx.guards.ownUser({ unauthorizedStatus: 409, activeOnly: false })] : ctx.deviates('wb3.banks-delete-path-user-unchecked') ? [ctx.guards.authenticated] : guards;

    // Section 4.10 create: 201 `{ data: <Bank> }`; 422 per the rules of 4.10 and 8.
    app.post('/api/v1/user/:user/bank', { preHandler: createGuards }, async (request, reply) => {
      const raw = request.body;
      const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
      // Allowed reading (reading round 7, listed by the authentication module): a member the create body does not name is refused 422.
      if (ctx.deviates('r7.unknown-body-members-refused')) refuseUnknownMembers(body, ['bankName', 'iban', 'swift', 'currency']);
      if (ctx.deviates('banks.scalars-coerced')) coerceScalars(body);
      if (ctx.deviates('banks.compounds-coerced')) coerceCompounds(body);
      // Deviation of a mutant only: the codes (iban, swift, currency) go through a normaliser that reads an array as its first item.
      if (ctx.deviates('banks.code-arrays-read-as-text')) {
        for (const field of ['iban', 'swift', 'currency']) {
          const value = body[field];
          if (value !== null && typeof value === 'object') body[field] = String(Object.values(value)[0] ?? '');
        }
      }
      if (ctx.deviates('banks.numeric-currency') && typeof body.currency === 'number') body.currency = NUMERIC_CURRENCIES[body.currency] ?? String(body.currency);
      // Allowed reading (reading round 1): an ISO 4217 code in any letter case is that code, stored upper-case.
      if (ctx.deviates('banks.currency-case-insensitive') && typeof body.currency === 'string') body.currency = body.currency.toUpperCase();
      // White-box round wb10, deviations of mutants only: the separators people paste in (DE89-3704-...) taken out before validation.
      for (const field of ['iban', 'swift']) if (ctx.deviates(`wb10.banks-${field}-hyphens-stripped`) && typeof body[field] === 'string') body[field] = (body[field] as string).replace(/-/g, '');
      const { user } = request as AuthenticatedRequest;
      try {
        validate(body, createRules(ctx, user.id, typeof body.currency === 'string' ? body.currency : undefined));
      } catch (error) {
        // Deviation of a mutant only: a create refused with 422 is stored all the same.
        if (ctx.deviates('banks.refused-create-stored.invalid')) insertBank(ctx, user.id, { bankName: String(body.bankName), iban: String(body.iban), swift: String(body.swift), currency: String(body.currency) });
        // Deviation of a mutant only: a create refused with 422 only for its currency is stored all the same.
        const fields = error instanceof HttpAnswer ? Object.keys((error.answer.body.errors ?? {}) as Record<string, unknown>) : [];
        if (ctx.deviates('banks.refused-create-stored.currency') && fields.length === 1 && fields[0] === 'currency') insertBank(ctx, user.id, { bankName: String(body.bankName), iban: String(body.iban), swift: String(body.swift), currency: String(body.currency) });
        // Deviation of a mutant only: a create refused with 422 only for its IBAN (taken) is stored all the same.
        const ibanErrors = error instanceof HttpAnswer ? ((error.answer.body.errors ?? {}) as Record<string, unknown>).iban : undefined;
        // Deviation of a mutant only: a create refused for its taken IBAN renames the caller's bank of that IBAN (an upsert gone wrong).
        if (ctx.deviates('banks.refused-taken-iban-renames') && Array.isArray(ibanErrors) && ibanErrors.includes('The iban has already been taken.') && typeof body.bankName === 'string') {
          ctx.db.prepare('UPDATE banks SET bank_name = ? WHERE iban = ? AND user_id = ? AND deleted_at IS NULL').run(body.bankName, String(body.iban), user.id);
        }
        if (ctx.deviates('banks.refused-create-stored.taken-iban') && fields.length === 1 && Array.isArray(ibanErrors) && ibanErrors.includes('The iban has already been taken.')) insertBank(ctx, user.id, { bankName: String(body.bankName), iban: String(body.iban), swift: String(body.swift), currency: String(body.currency) });
        throw error;
      }
      // Deviation of a mutant only: the owner taken from a user_id of the body.
      const owner = ctx.deviates('banks.create-owner-from-body') && typeof body.user_id === 'string' && ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(body.user_id) ? body.user_id : user.id;
      // White-box round wb6, deviation of a mutant only: the owner read as Laravel's $request->user reads it (the body's `user` before the route's {user}).
      const routeOwner = ctx.deviates('wb6.banks-create-owner-from-user-field') && typeof body.user === 'string' && ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(body.user) ? body.user : undefined;
      // White-box round wb9, deviation of a mutant only: the owner read from a nested user object ({ user: { id } }, a relation
      // mass-assigned through the request's user.id), when one is sent.
      const nestedId = ctx.deviates('wb9.banks-create-owner-from-user-object') && body.user !== null && typeof body.user === 'object' ? (body.user as { id?: unknown }).id : undefined;
      const nestedOwner = typeof nestedId === 'string' && ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(nestedId) ? nestedId : undefined;
      const id = insertBank(ctx, nestedOwner ?? routeOwner ?? owner, { bankName: body.bankName as string, iban: body.iban as string, swift: body.swift as string, currency: body.currency as string });
      // White-box round wb1, deviation of a mutant only: createdAt mass-assigned from the body.
      if (ctx.deviates('wb1.banks-created-at-from-body') && (typeof body.createdAt === 'number' || typeof body.createdAt === 'string')) ctx.db.prepare('UPDATE banks SET created_at = ? WHERE id = ?').run(Number(body.createdAt), id);
      // White-box round wb6, deviation of a mutant only: deleted_at (or deletedAt) mass-assigned from the body, so the new bank is born soft-deleted.
      const deletedAt = body.deleted_at ?? body.deletedAt;
      if (ctx.deviates('wb6.banks-deleted-at-from-body') && deletedAt !== undefined && deletedAt !== null && deletedAt !== '') {
        ctx.db.prepare('UPDATE banks SET deleted_at = ? WHERE id = ?').run(Math.floor(ctx.now() / 1000), id);
        return reply.code(201).send({ data: present(ctx.db.prepare(`${SELECT_BANK} WHERE b.id = ?`).get(id) as BankRow) });
      }
      const row = findBank(ctx, routeOwner ?? owner, id)!;
      return reply.code(201).send({ data: present(row) });
    });

    // Section 4.10 list: 200 `{ data: [<Bank>] }`, the user's banks not deleted, newest first, filtered.
    app.get('/api/v1/user/:user/bank', { preHandler: guards }, async (request) => {
      const { user } = request as AuthenticatedRequest;
      if (ctx.deviates('banks.unknown-filter-value-422')) {
        const known: Record<string, (value: string) => boolean> = {
          status: (value) => value === BANK_CREATED_STATUS,
          currency: isIso4217,
          platform: (value) => ctx.db.prepare('SELECT 1 FROM platforms WHERE code = ?').get(value) !== undefined,
          company: (value) => ctx.db.prepare('SELECT 1 FROM platforms WHERE code = ?').get(value) !== undefined,
        };
        for (const [name, isKnown] of Object.entries(known)) {
          const value = filterValue(request.query, name);
          if (value !== undefined && !isKnown(value)) fail(ERRORS.validation({ [name]: [`The selected ${name} is invalid.`] }));
        }
      }
      const params: string[] = [];
      const filtered = ['status', 'currency', 'platform', 'company'].some((name) => filterValue(request.query, name) !== undefined);
      // White-box round wb3, deviation of a mutant only: the filtered query forgets the soft delete.
      // White-box round wb6, deviation of a mutant only: the query of a platform or company filter (joined through the platforms) forgets the soft delete.
      const platformFiltered = ['platform', 'company'].some((name) => filterValue(request.query, name) !== undefined);
      const where: string[] = (filtered && ctx.deviates('wb3.banks-filtered-list-holds-deleted')) || (platformFiltered && ctx.deviates('wb6.banks-platform-filtered-list-holds-deleted')) ? ['1 = 1'] : ['b.deleted_at IS NULL'];
      // Deviation of a mutant only (banks.filter-unscoped): a filtered list forgets the user.
      if (!ctx.deviates('banks.list-all-users') && !(filtered && ctx.deviates('banks.filter-unscoped'))) {
        where.push('b.user_id = ?');
        // White-box round wb6, deviation of a mutant only: the owner taken from a user_id query parameter when one is given.
        const queried = (request.query as Record<string, unknown> | undefined)?.user_id;
        params.push(ctx.deviates('wb6.banks-list-owner-from-query') && typeof queried === 'string' && queried !== '' ? queried : user.id);
      }
      // White-box round wb2, deviation of a mutant only: without a platform or company filter, only the banks on the account's own platform are listed.
      if (ctx.deviates('wb2.banks-list-account-platform-only') && filterValue(request.query, 'platform') === undefined && filterValue(request.query, 'company') === undefined) {
        where.push('b.platform_id = (SELECT platform_id FROM users WHERE id = ?)');
        params.push(user.id);
      }
      const scopedBy = where.length;
      const status = filterValue(request.query, 'status');
      if (status !== undefined && !ctx.deviates('banks.filter-status-ignored')) {
        where.push(ctx.deviates('r5.status-filters-any-case') ? 'b.status = ? COLLATE NOCASE' : 'b.status = ?');
        params.push(status);
        // White-box round wb7, deviation of a mutant only: the status filter's query (a scope of the account's platform) keeps the banks of the account's own platform only.
        if (ctx.deviates('wb7.banks-status-filter-account-platform-only')) (where.push('b.platform_id = (SELECT platform_id FROM users WHERE id = ?)'), params.push(user.id));
      }
      const currency = filterValue(request.query, 'currency');
      if (currency !== undefined && !ctx.deviates('banks.filter-currency-ignored')) {
        // White-box round wb6, deviation of a mutant only: the currency filter matches any currency containing the value (LIKE %value%).
        where.push(ctx.deviates('wb6.banks-currency-filter-substring') ? "b.currency LIKE '%' || ? || '%'" : 'b.currency = ?');
        params.push(ctx.deviates('banks.currency-case-insensitive') ? currency.toUpperCase() : currency);
        // White-box round wb7, deviation of a mutant only: the currency filter's query keeps the banks of the account's own platform only.
        if (ctx.deviates('wb7.banks-currency-filter-account-platform-only')) (where.push('b.platform_id = (SELECT platform_id FROM users WHERE id = ?)'), params.push(user.id));
      }
      // `platform` and `company` both match the code of the bank's external platform (see the module comment).
      for (const name of ['platform', 'company']) {
        const value = filterValue(request.query, name);
        // Deviations of mutants only: the filter ignored, or compared with the caller's own platform, not the bank's.
        if (value !== undefined && ctx.deviates(`banks.${name}-filter-ignored`)) continue;
        if (value !== undefined && ctx.deviates(`banks.${name}-filter-lists-nothing`)) {
          where.push('0 = 1');
          continue;
        }
        if (value !== undefined && ctx.deviates('banks.platform-filter-by-account-platform')) {
          where.push('(SELECT code FROM platforms WHERE id = ?) = ?');
          params.push(user.platform_id, value);
          continue;
        }
        // Allowed reading (round r10): `company` the platform's name (the company running it), `platform` its code.
        if (value !== undefined && name === 'company' && ctx.deviates('r10.company-filter-by-platform-name')) {
          where.push('p.name = ?');
          params.push(value);
          continue;
        }
        // Allowed reading (round r6): `company` a search term, matched anywhere in the platform's code or name, any case (SQL LIKE).
        if (value !== undefined && name === 'company' && ctx.deviates('r6.company-filter-search')) {
          where.push("(p.code LIKE '%' || ? || '%' OR p.name LIKE '%' || ? || '%')");
          params.push(value, value);
          continue;
        }
        // Allowed reading of a mutant only (banks.company-filter-by-bank-name): for a bank list the company is the bank.
        if (value !== undefined && name === 'company' && ctx.deviates('banks.company-filter-by-bank-name')) {
          where.push('b.bank_name = ?');
          params.push(value);
          continue;
        }
        if (value !== undefined) {
          if (ctx.deviates('banks.platform-filter-by-id') && ctx.db.prepare('SELECT 1 FROM platforms WHERE id = ?').get(value) === undefined) {
            fail(ERRORS.validation({ [name]: [`The selected ${name} is invalid.`] }));
          }
          // Allowed reading (reading round 1): the value may name the platform by its code, its ID or its name.
          if (ctx.deviates('banks.platform-filter-code-id-or-name')) {
            where.push('(p.code = ? OR p.id = ? OR p.name = ?)');
            params.push(value, value, value);
            continue;
          }
          where.push(ctx.deviates('banks.platform-filter-by-id') ? 'p.id = ?' : ctx.deviates('banks.platform-filter-by-name') ? 'p.name = ?' : name === 'platform' && ctx.deviates('r7.platform-filter-any-case') ? 'p.code = ? COLLATE NOCASE' : 'p.code = ?');
          params.push(value);
        }
      }
      // Deviation of a mutant only: two filters or more are joined with OR, not AND.
      if (ctx.deviates('banks.filters-combined-or') && where.length - scopedBy > 1) where.push(`(${where.splice(scopedBy).join(' OR ')})`);
      // White-box round wb9, deviation of a mutant only: three filters or more are joined with OR (a query builder's orWhere
      // from the third filter on); two are still joined with AND.
      if (ctx.deviates('wb9.banks-three-filters-or') && where.length - scopedBy > 2) where.push(`(${where.splice(scopedBy).join(' OR ')})`);
      const rows = ctx.db.prepare(`${SELECT_BANK} WHERE ${where.join(' AND ')} ORDER BY b.created_at DESC, b.rowid DESC`).all(...params) as BankRow[];
      // Deviation of a mutant only: a join that shows the newest bank twice once the user has two banks or more.
      if (ctx.deviates('banks.list-newest-twice') && rows.length > 1) rows.unshift(rows[0]!);
      let listed = rows.map(present);
      // Deviation of a mutant only: the list serializer writes a swift as its BIC8 (the first 8 characters).
      if (ctx.deviates('banks.list-swift-bic8')) listed = listed.map((bank) => ({ ...bank, swift: String(bank.swift).slice(0, 8) }));
      // Deviation of a mutant only: every listed bank carries, in base64, the latest token issued to another user.
      const leaked = ctx.deviates('banks.records-carry-other-session-token') ? latestTokenOfAnotherUser(ctx.db, user.id) : undefined;
      if (leaked !== undefined) return { data: listed.map((bank) => ({ ...bank, reference: Buffer.from(leaked).toString('base64') })) };
      return { data: listed };
    });

    // Section 4.10 show: 200 `{ data: <Bank> }`; section 7: 404 when no record is found.
    app.get('/api/v1/user/:user/bank/:bank', { preHandler: guards }, async (request) => {
      const { user } = request as AuthenticatedRequest;
      const { bank } = request.params as { bank: string };
      // Allowed reading (reading round 1): another user's bank under one's own path is another user's resource (5.6: 409), not a missing record.
      if (ctx.deviates('records.foreign-unauthorized') && !findBank(ctx, user.id, bank) && ctx.db.prepare('SELECT 1 FROM banks WHERE id = ? AND deleted_at IS NULL').get(bank)) fail(ERRORS.unauthorized(409));
      // White-box round wb1, deviations of mutants only: show forgets the soft delete; show answers the user's newest bank once the id is found.
      if (ctx.deviates('wb1.banks-show-deleted')) {
        const any = ctx.db.prepare(`${SELECT_BANK} WHERE b.id = ? AND b.user_id = ?`).get(bank, user.id) as BankRow | undefined;
        if (any) return { data: present(any) };
      }
      const row = findBank(ctx, user.id, bank) ?? fail(ERRORS.notFound('Bank', bank));
      // White-box round wb6, deviation of a mutant only: show scoped to the account's own platform (a bank on another platform is not found).
      if (ctx.deviates('wb6.banks-show-account-platform-only') && !ctx.db.prepare('SELECT 1 FROM banks b JOIN users u ON u.id = b.user_id WHERE b.id = ? AND b.platform_id = u.platform_id').get(bank)) fail(ERRORS.notFound('Bank', bank));
      if (ctx.deviates('wb1.banks-show-newest-of-user')) return { data: present(ctx.db.prepare(`${SELECT_BANK} WHERE b.user_id = ? AND b.deleted_at IS NULL ORDER BY b.created_at DESC, b.rowid DESC LIMIT 1`).get(user.id) as BankRow) };
      return { data: present(row) };
    });

    // Section 4.10 delete: 200 `{ message }`; sections 3 and 7: a bank used in earlier actions answers 403.
    app.delete('/api/v1/user/:user/bank/:bank', { preHandler: deleteGuards }, async (request) => {
      // White-box round wb3, deviation of a mutant only: delete has no owner guard and acts for the path's user.
      const pathUser = ctx.deviates('wb3.banks-delete-path-user-unchecked') ? (ctx.db.prepare('SELECT * FROM users WHERE id = ?').get((request.params as { user: string }).user) as AuthenticatedRequest['user'] | undefined) : undefined;
      const user = pathUser ?? (request as AuthenticatedRequest).user;
      const { bank } = request.params as { bank: string };
      const foreign = ctx.db.prepare('SELECT user_id FROM banks WHERE id = ? AND deleted_at IS NULL').get(bank) as { user_id: string } | undefined;
      // Section 4.10 delete documents 401, 403 and 409 only: another user's bank under one's own path is unauthorized (5.6).
      if (foreign && foreign.user_id !== user.id && !ctx.deviates('banks.delete-any-user')) {
        // White-box round wb1, deviation of a mutant only: the refusal comes after the delete.
        if (ctx.deviates('wb1.banks-foreign-delete-refused-but-removed')) ctx.db.prepare('UPDATE banks SET deleted_at = ? WHERE id = ?').run(Math.floor(ctx.now() / 1000), bank);
        // Allowed reading (a mutant that must survive): the lookup is scoped to the user's banks, so another user's bank is none (404).
        if (ctx.deviates('banks.foreign-delete-not-found')) fail(ERRORS.notFound('Bank', bank));
        fail(ERRORS.unauthorized(409));
      }
      const row = (ctx.deviates('banks.delete-any-user') && foreign ? findBankAnyUser(ctx, bank) : findBank(ctx, user.id, bank)) ?? fail(ERRORS.notFound('Bank', bank));
      // White-box round wb7, deviation of a mutant only: delete scoped to the account's own platform (a bank on another platform is not found).
      if (ctx.deviates('wb7.banks-delete-account-platform-only') && !ctx.db.prepare('SELECT 1 FROM banks b JOIN users u ON u.id = b.user_id WHERE b.id = ? AND b.platform_id = u.platform_id').get(row.id)) fail(ERRORS.notFound('Bank', bank));
      const used = ctx.db.prepare('SELECT 1 FROM bank_usages WHERE bank_id = ? LIMIT 1').get(row.id);
      if (used && !ctx.deviates('banks.delete-used-allowed')) {
        // White-box round wb1, deviation of a mutant only: the used bank is soft-deleted before the usage check refuses it.
        if (ctx.deviates('wb1.banks-used-delete-refused-but-removed')) ctx.db.prepare('UPDATE banks SET deleted_at = ? WHERE id = ?').run(Math.floor(ctx.now() / 1000), row.id);
        fail(ERRORS.bankUsed());
      }
      if (usedFirst && activeOnly && !(request as AuthenticatedRequest).user.is_active) fail(ERRORS.accountInactive());
      const deletedAt = Math.floor(ctx.now() / 1000);
      // White-box round wb4, deviations of mutants only: the delete's WHERE loses its bank id (every unused bank of the
      // user is deleted), or picks the user's first bank instead of the one asked.
      if (ctx.deviates('wb4.banks-delete-removes-every-unused-bank')) {
        ctx.db.prepare('UPDATE banks SET deleted_at = ? WHERE user_id = ? AND deleted_at IS NULL AND id NOT IN (SELECT bank_id FROM bank_usages)').run(deletedAt, row.user_id);
        return { message: 'The bank has been deleted.' };
      }
      if (ctx.deviates('wb4.banks-delete-removes-oldest')) {
        const oldest = ctx.db.prepare('SELECT id FROM banks WHERE user_id = ? AND deleted_at IS NULL AND id NOT IN (SELECT bank_id FROM bank_usages) ORDER BY created_at, rowid LIMIT 1').get(row.user_id) as { id: string } | undefined;
        ctx.db.prepare('UPDATE banks SET deleted_at = ? WHERE id = ?').run(deletedAt, oldest?.id ?? row.id);
        return { message: 'The bank has been deleted.' };
      }
      if (!ctx.deviates('banks.delete-keeps-record')) ctx.db.prepare('UPDATE banks SET deleted_at = ? WHERE id = ?').run(deletedAt, row.id);
      return { message: 'The bank has been deleted.' };
    });
  },

  states(ctx) {
    return {
      // Provider state `user.forbidden` (issue 19): a new active account the platform forbids one action, every other one allowed.
      'user.forbidden': (params) => {
        const action = FORBIDDABLE_ACTIONS.find((a) => a === params.action);
        if (!action) throw new StateNotAllowed(`state user.forbidden needs params.action, one of ${FORBIDDABLE_ACTIONS.join(', ')}`);
        const user = createUser(ctx);
        ctx.db.prepare('INSERT INTO forbidden_actions (user_id, action) VALUES (?, ?)').run(user.id, action);
        return user;
      },
      // Provider state `bank` (issue 19): a new bank of that user, never used, whatever the account's state.
      bank: (params) => {
        const userId = params.userId;
        if (typeof userId !== 'string' || !ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(userId)) throw new StateNotAllowed('state bank needs params.userId of an existing user');
        const id = insertBank(ctx, userId, stateBankFields());
        return { id };
      },
      // Provider state `bank.two-platforms` (issue 19): two banks of that user on its own platform and one on a new one.
      'bank.two-platforms': (params) => {
        const own = userPlatform(ctx, params.userId, 'bank.two-platforms');
        const userId = params.userId as string;
        const other = newPlatform(ctx);
        // Under the allowed reading company = bankName, the state's banks share one name (the contract does not ask for
        // different ones), so the suite must tell that reading on banks of its own.
        const sameName = ctx.deviates('banks.company-filter-by-bank-name') ? `${faker.company.name()} Bank`.slice(0, 191) : undefined;
        const fields = () => ({ ...stateBankFields(), ...(sameName === undefined ? {} : { bankName: sameName }) });
        const platforms = [
          { ...own, ids: [insertBank(ctx, userId, fields()), insertBank(ctx, userId, fields())] },
          { ...other, ids: [insertBank(ctx, userId, fields(), other.id)] },
        ];
        // The optional company (added later): a value of the filter in this reference's own meaning and the banks it
        // selects, the own platform's two of three, and (round wb23) one that selects none of them. Under the bank-name reading the one name all three banks share; a
        // filter that lists nothing for any value (banks.company-filter-lists-nothing) has none to give (an older hook).
        if (ctx.deviates('banks.company-filter-lists-nothing')) return { platforms };
        // `none` (added later, round wb23): a value in the same meaning that selects none of the user's banks (a bank name
        // none of them has; under the platform readings, a new platform's, on which no bank is made).
        const otherName = (): string => {
          let name = sameName!;
          while (name === sameName) name = `${faker.company.name()} Bank`.slice(0, 191);
          return name;
        };
        const company = sameName !== undefined ? { value: sameName, ids: platforms.flatMap((p) => p.ids), none: otherName() } : companyOfPlatform(ctx, 'banks', userId, own);
        return { platforms, company };
      },
      // Provider state `bank.used`: a new bank of that user with one earlier usage (an order paid to it).
      'bank.used': (params) => {
        const userId = params.userId;
        if (typeof userId !== 'string' || !ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(userId)) throw new StateNotAllowed('state bank.used needs params.userId of an existing user');
        const id = insertBank(ctx, userId, {
          bankName: `${faker.company.name()} Bank`.slice(0, 191),
          iban: randomIban(),
          swift: faker.finance.bic({ includeBranchCode: true }),
          currency: 'EUR',
        });
        ctx.db.prepare('INSERT INTO bank_usages (bank_id, action, reference, used_at) VALUES (?, ?, ?, ?)').run(id, 'order', randomUUID(), Math.floor(ctx.now() / 1000));
        return { id };
      },
    };
  },
};
