import type { Mutant } from './types.js';
import type { Mutation } from '../mutation.js';
import { ISO_4217_NUMERIC, alphabeticCurrency } from '../../helpers/spec/currencies.js';
import { answered, authenticationSkipped, newRecordStatus, statusMovesOnceListed, validationSkipped } from './make.js';
import { companyWithoutNone, parse, recordsOf } from './reading.js';

const CREATE = 'POST /api/v1/user/{user}/bank';
const LIST = 'GET /api/v1/user/{user}/bank';
const SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const DELETE = 'DELETE /api/v1/user/{user}/bank/{bank}';

const CODES = Object.keys(ISO_4217_NUMERIC);

/** The ISO 4217 numeric code of the currency after `code` in the table (EUR gives FJD's 242): another currency's code. */
function numericOfAnother(code: string): string {
  const at = CODES.indexOf(code.toUpperCase());
  return ISO_4217_NUMERIC[CODES[(at + 1) % CODES.length]!]!;
}

/**
 * A bank create answered with one of `statuses` reserves its iban (a uniqueness row written before the policy or the
 * authentication runs, never rolled back): a later valid create of that iban, by any user, is refused 422 as taken.
 */
function refusedCreateReservesIban(statuses: readonly number[]): Mutation {
  const reserved = new Set<string>();
  return answered(CREATE, undefined, (_body, request, status) => {
    const iban = typeof request.body?.iban === 'string' ? request.body.iban.toUpperCase() : undefined;
    if (iban === undefined) return false;
    if (statuses.includes(status)) reserved.add(iban);
    else if (status === 201 && reserved.has(iban)) return { status: 422, body: { message: 'The iban has already been taken.', errors: { iban: ['The iban has already been taken.'] } } };
    return false;
  });
}

const BANK_ROUTES = ['/api/v1/user/:user/bank', '/api/v1/user/:user/bank/:bank'];

/**
 * A bank's currency stored as its ISO 4217 numeric code (allowed-r9-currency-shown-numeric, and a payment core keyed by
 * number): every bank answer shows "978" for EUR sent, and the list's currency filter compares with the stored code, so
 * currency=978 lists the EUR banks and currency=EUR none. The reference stores the alphabetic code: a numeric filter is
 * mapped to it, any other value to one no bank has. `numericFilterIgnored`: the deviation of a numeric filter that
 * filters nothing (the whole list for currency=978).
 */
function currencyStoredNumeric(numericFilterIgnored: boolean): Mutation {
  return {
    request(request) {
      if (request.method !== 'GET' || !/^\/api\/v1\/user\/[^/?]+\/bank(?:\?|$)/.test(request.url)) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (typeof query.currency !== 'string') return;
      if (/^\d{3}$/.test(query.currency.trim())) {
        if (numericFilterIgnored) delete query.currency;
        else query.currency = alphabeticCurrency(query.currency);
      } else query.currency = `not-a-numeric-code-${query.currency}`;
    },
    wire(answer) {
      if ((answer.status !== 200 && answer.status !== 201) || !BANK_ROUTES.includes(answer.url)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      for (const record of recordsOf(body)) if (typeof record?.currency === 'string' && Object.hasOwn(ISO_4217_NUMERIC, record.currency.toUpperCase())) record.currency = ISO_4217_NUMERIC[record.currency.toUpperCase()];
      return JSON.stringify(body);
    },
  };
}

/** Mutants of the bank part (section 4.10 with 2.4, 3, 5.6, 7 and 8): each one deviation from one clause. */
export const banksMutants: Mutant[] = [
  {
    name: 'banks-used-bank-deletable',
    clause: '3',
    group: 'banks',
    description: 'a bank used in earlier actions is deleted (200) instead of refused with 403',
    mutation: { deviation: 'banks.delete-used-allowed' },
  },
  {
    name: 'banks-delete-keeps-bank',
    clause: '4.10',
    group: 'banks',
    description: 'delete answers 200 but the bank stays listed and showable',
    mutation: { deviation: 'banks.delete-keeps-record' },
  },
  {
    name: 'banks-currency-filter-ignored',
    clause: '4.10',
    group: 'banks',
    description: 'the list ignores the currency filter',
    mutation: { deviation: 'banks.filter-currency-ignored' },
  },
  // Reading round r14 (issue 28): section 2 does not show the set of a bank's statuses, so a status value the target
  // does not know may be ignored (allowed-r14-unknown-status-filter-ignored). Section 3's one bank status, CONFIRMED, is
  // the one every bank the suite and the states make shows, so a filter ignored for every value lists what the filter
  // would: it cannot be told from that reading (no state makes a bank of another status), no longer a deviation the
  // suite can judge. A known status listing banks of another status still fails where the target shows one.
  {
    name: 'allowed-bank-list-status-filter-ignored',
    clause: '4.10',
    group: 'banks',
    description: 'the list ignores the status filter: every bank is CONFIRMED (section 3), so `status=CONFIRMED` lists them all as it must, and a value no bank has lists them all too (advised on: section 2 does not show the set of a bank’s statuses, nor what an unknown value does)',
    mutation: { deviation: 'banks.filter-status-ignored' },
    allowed: true,
    judgedBy: { clauses: ['4.10'] },
  },
  {
    name: 'banks-other-users-listed',
    clause: '5',
    group: 'banks',
    description: 'the list holds the banks of every user, not only the path user\u2019s',
    mutation: { deviation: 'banks.list-all-users' },
  },
  {
    name: 'banks-other-users-bank-shown',
    clause: '5',
    group: 'banks',
    description: 'show answers 200 with another user\u2019s bank requested under the caller\u2019s own user id',
    mutation: { deviation: 'banks.show-any-user' },
  },
  {
    name: 'banks-inactive-account-allowed',
    clause: '5',
    group: 'banks',
    description: 'an inactive account may use the bank endpoints instead of receiving 403',
    mutation: { deviation: 'banks.inactive-allowed' },
  },
  {
    name: 'banks-swift-max-not-enforced',
    clause: '8',
    group: 'banks',
    description: 'a swift longer than 11 characters (12) is accepted',
    mutation: { deviation: 'banks.swift-max-unchecked' },
  },
  {
    name: 'banks-swift-min-off-by-one',
    clause: '8',
    group: 'banks',
    description: 'a swift of exactly 8 characters is refused (the minimum is taken as 9)',
    mutation: { deviation: 'banks.swift-min-off-by-one' },
  },
  {
    name: 'banks-swift-non-alphanumeric-accepted',
    clause: '4.10',
    group: 'banks',
    description: 'a swift with a hyphen or space is accepted',
    mutation: { deviation: 'banks.swift-alphanumeric-unchecked' },
  },
  {
    name: 'banks-iban-uniqueness-not-enforced',
    clause: '8',
    group: 'banks',
    description: 'a second bank with an IBAN that a bank already has is created',
    mutation: { deviation: 'banks.iban-unique-unchecked' },
  },
  {
    name: 'banks-iban-non-alphanumeric-accepted',
    clause: '4.10',
    group: 'banks',
    description: 'an iban with hyphens or spaces is accepted',
    mutation: { deviation: 'banks.iban-alphanumeric-unchecked' },
  },
  {
    name: 'banks-iban-max-not-enforced',
    clause: '8',
    group: 'banks',
    description: 'an iban of 192 characters is accepted',
    mutation: { deviation: 'banks.iban-max-unchecked' },
  },
  {
    name: 'banks-unknown-currency-accepted',
    clause: '4.10',
    group: 'banks',
    description: 'a currency that is no ISO 4217 code (XYZ) is accepted',
    mutation: { deviation: 'banks.currency-iso-unchecked' },
  },
  {
    name: 'banks-bank-name-max-not-enforced',
    clause: '8',
    group: 'banks',
    description: 'a bankName of 192 characters is accepted',
    mutation: { deviation: 'banks.bank-name-max-unchecked' },
  },
  {
    name: 'banks-created-at-iso-string',
    clause: '2.4',
    group: 'banks',
    description: 'show answers createdAt as an ISO 8601 string instead of Unix seconds',
    mutation: {
      transform: {
        route: SHOW,
        status: 200,
        apply(body) {
          body.data.createdAt = new Date(body.data.createdAt * 1000).toISOString();
        },
      },
    },
  },
  {
    name: 'banks-missing-external-platform',
    clause: '2.4',
    group: 'banks',
    description: 'create answers the bank without externalPlatform',
    mutation: {
      transform: {
        route: CREATE,
        status: 201,
        apply(body) {
          delete body.data.externalPlatform;
        },
      },
    },
  },
  {
    name: 'banks-create-answers-200',
    clause: '4.10',
    group: 'banks',
    description: 'create answers 200 instead of 201',
    mutation: { transform: { route: CREATE, status: 201, apply: () => ({ status: 200 }) } },
  },
  {
    name: 'banks-delete-data-envelope',
    clause: '1',
    group: 'banks',
    description: 'delete answers { data: { message } } instead of { message }',
    mutation: { transform: { route: DELETE, status: 200, apply: (body) => ({ body: { data: body } }) } },
  },
  {
    name: 'banks-not-found-as-200-null',
    clause: '7',
    group: 'banks',
    description: 'show of a missing bank answers 200 { data: null } instead of 404',
    mutation: { transform: { route: SHOW, status: 404, apply: () => ({ status: 200, body: { data: null } }) } },
  },
  {
    name: 'banks-list-without-envelope',
    clause: '1',
    group: 'banks',
    description: 'list answers the bare array instead of { data: [...] }',
    mutation: { transform: { route: LIST, status: 200, apply: (body) => ({ body: body.data }) } },
  },
  // Issue 11: deviations that passed before.
  {
    name: 'banks-delete-other-users-bank-under-own-path',
    clause: '5',
    group: 'banks',
    description: 'DELETE /user/{me}/bank/{theirs} deletes another user\u2019s bank (an unscoped delete) and answers 200',
    mutation: { deviation: 'banks.delete-any-user' },
  },
  {
    name: 'banks-inactive-message-unauthorized',
    clause: '5',
    group: 'banks',
    description: 'the 403 for an inactive account says "This action is unauthorized." instead of that the account is inactive',
    mutation: { deviation: 'banks.inactive-message-unauthorized' },
  },
  {
    name: 'banks-records-carry-remember-token',
    clause: '2.4',
    group: 'banks',
    description: 'every listed bank carries a rememberToken field: a security finding',
    mutation: {
      transform: {
        route: LIST,
        status: 200,
        apply(body) {
          for (const bank of body.data) bank.rememberToken = 'kq3Vf9xY2mLr8TzP0aBcD4eF6gH7iJ1';
        },
      },
    },
  },
  {
    name: 'banks-records-carry-other-session-token',
    clause: '2.4',
    group: 'banks',
    description: 'every listed bank carries `reference`: the latest access token issued to another user, in base64 (a security finding by its value, whatever its alphabet)',
    mutation: { deviation: 'banks.records-carry-other-session-token' },
  },
  // Allowed readings: must survive.
  {
    name: 'allowed-bank-status-and-platform-change-after-create',
    clause: '2.4',
    group: 'banks',
    description: 'show answers another (empty) status and external platform than create did (section 3 shows no transitions; 2.4 gives status as a string)',
    mutation: {
      transform: {
        route: SHOW,
        status: 200,
        apply(body) {
          // Empty: another status than create's, and 2.4 gives a string, not a non-empty one.
          body.data.status = '';
          body.data.externalPlatform = { ...body.data.externalPlatform, code: 'OTHER', name: 'Other Platform' };
        },
      },
    },
    allowed: true,
  },
  {
    name: 'allowed-bank-delete-foreign-bank-not-found',
    clause: '4.10',
    group: 'banks',
    description: 'a delete of another user\u2019s bank under the caller\u2019s own id answers 404 "No query results" (a lookup scoped to the user\u2019s banks) and keeps the bank (4.10 does not say what an id that is none of the user\u2019s banks gets on delete; the show of the same request may answer 404)',
    mutation: { deviation: 'banks.foreign-delete-not-found' },
    allowed: true,
    judgedBy: { clauses: ['4.10', '5'] },
  },
  {
    name: 'allowed-bank-delete-empty-message',
    clause: '1',
    group: 'banks',
    description: 'delete answers { message: "" } (4.10 gives a string, not a non-empty one)',
    mutation: { transform: { route: DELETE, status: 200, apply: () => ({ body: { message: '' } }) } },
    allowed: true,
  },
  // Found by `conformance explore`, pinned by fixed rows: characters, not bytes (section 8); strings, not numbers (section 4.10).
  {
    name: 'banks-bank-name-max-in-bytes',
    clause: '8',
    group: 'banks',
    description: 'the 191-character bankName limit counts UTF-8 bytes, so 100 two-byte letters (200 bytes) are refused',
    mutation: { deviation: 'banks.bank-name-max-bytes' },
  },
  {
    name: 'banks-numbers-taken-as-strings',
    clause: '4.10',
    group: 'banks',
    description: 'a JSON number or boolean where section 4.10 documents a string is taken as its text and stored',
    mutation: { deviation: 'banks.scalars-coerced' },
  },
  // Review of issue 13: the other JSON types of the explored type property, each proven by a mutant.
  {
    name: 'banks-arrays-and-objects-taken-as-text',
    clause: '4.10',
    group: 'banks',
    description: 'a JSON array or object where section 4.10 documents a string is taken as the text of its values and stored',
    mutation: { deviation: 'banks.compounds-coerced' },
  },
  // Issue 27, values from the whole class (branch i27-val): stricter rules than section 4.10's columns, which a real
  // backend ships with a validation library's BIC, IBAN or currency rule; and arrays read as text for the codes alone.
  { name: 'banks-swift-must-be-bic', clause: '4.10', group: 'banks', description: 'swift must have a BIC\u2019s shape (six letters, then letters or digits): 8 to 11 alphanumerics that are not a BIC are refused', mutation: { deviation: 'banks.swift-bic-shape-required' } },
  { name: 'banks-swift-bic-lengths-only', clause: '4.10', group: 'banks', description: 'swift must be 8 or 11 characters, a BIC\u2019s two lengths: 9 and 10 alphanumerics are refused', mutation: { deviation: 'banks.swift-bic-lengths-only' } },
  { name: 'banks-iban-must-start-with-letters', clause: '4.10', group: 'banks', description: 'iban must begin with two country letters: an alphanumeric IBAN of digits is refused', mutation: { deviation: 'banks.iban-country-letters-required' } },
  { name: 'banks-currency-whitelist', clause: '4.10', group: 'banks', description: 'currency must be one of thirty major currencies, not any ISO 4217 code', mutation: { deviation: 'banks.currency-short-list' } },
  { name: 'banks-code-arrays-read-as-text', clause: '4.10', group: 'banks', description: 'an array or object as iban, swift or currency is read as its first value (["EUR"] as "EUR") and stored; bankName is still refused', mutation: { deviation: 'banks.code-arrays-read-as-text' } },
  {
    name: 'allowed-banks-numeric-currency-accepted',
    clause: '4.10',
    group: 'banks',
    description: 'a JSON number as currency is taken as an ISO 4217 numeric code (978 for EUR) and stored: numbers where a string is documented are advised on (issue 27 item 4)',
    mutation: { deviation: 'banks.numeric-currency' },
    allowed: true,
  },
  // Section 4.10 gives the filters as optional strings without saying what a value no record has gets.
  {
    name: 'allowed-bank-list-unknown-filter-value-422',
    clause: '4.10',
    group: 'banks',
    description: 'the list refuses a status, currency, platform or company the service does not know with 422 keyed by the filter, instead of an empty list',
    mutation: { deviation: 'banks.unknown-filter-value-422' },
    allowed: true,
  },
  // Section 3 shows a new bank CONFIRMED and no transition: a bank may move between two reads a moment apart.
  {
    name: 'allowed-bank-status-moves-once-listed',
    clause: '3',
    group: 'banks',
    description: 'a bank moves from CONFIRMED to VERIFIED once a list has held it, so the list that first holds it shows CONFIRMED and every later read VERIFIED, and the status filter lists it by what it now is (section 3: "Transitions: not shown")',
    mutation: statusMovesOnceListed(BANK_ROUTES[0]!, BANK_ROUTES[1]!),
    allowed: true,
    judgedBy: { groups: ['banks'], clauses: 'all' },
  },
  // Section 4.10 names the filters and not what a value gets that none of the user's banks has: a filter validated against
  // the user's own records (a Laravel `exists` rule scoped to the user) refuses it (docs/judging.md, "Meaning of a filter").
  {
    name: 'allowed-bank-list-filter-value-none-has-422',
    clause: '4.10',
    group: 'banks',
    description: 'a list with one filter (status, currency, platform or company) whose value none of the user\u2019s banks has is refused with 422 keyed by the filter, instead of an empty list (a filter validated against the user\u2019s own banks); so is such a value after the user\u2019s only bank with it was deleted',
    mutation: {
      ...answered(LIST, 200, (body, request) => {
        const query = (request.query ?? {}) as Record<string, unknown>;
        const given = ['status', 'currency', 'platform', 'company'].filter((name) => query[name] !== undefined);
        if (given.length !== 1 || typeof query[given[0]!] !== 'string' || !Array.isArray(body?.data) || body.data.length > 0) return false;
        const name = given[0]!;
        return { status: 422, body: { message: `The selected ${name} is invalid.`, errors: { [name]: [`The selected ${name} is invalid.`] } } };
      }),
      // Its hook gives no company.none (round wb23): every company value that selects none of the user's banks is refused.
      state: companyWithoutNone('bank.two-platforms'),
    },
    allowed: true,
    judgedBy: { groups: ['banks'], clauses: 'all' },
  },
  // Section 4.10 does not say what company and platform are compared with; section 4.1 calls a platform's `{platform}` its ID.
  {
    name: 'allowed-bank-list-platform-filter-by-id',
    clause: '4.10',
    group: 'banks',
    description: 'the company and platform filters take a platform ID, so a platform code is a value the service does not know: 422 keyed by the filter',
    mutation: { deviation: 'banks.platform-filter-by-id' },
    allowed: true,
  },
  // Nor does it say that they are compared with a code or an ID: a company is named, and a record shows its platform's name.
  {
    name: 'allowed-bank-list-platform-filter-by-name',
    clause: '4.10',
    group: 'banks',
    description: 'the company and platform filters take a platform\u2019s name (externalPlatform.name), so a platform code or ID lists no bank',
    mutation: { deviation: 'banks.platform-filter-by-name' },
    allowed: true,
  },
  // Issue 28: a record need not repeat the letters sent (storage normalisation), and 4.10 only names `company`.
  {
    name: 'allowed-bank-strings-stored-normalised',
    clause: '2.4',
    group: 'banks',
    description: 'a bank is stored with its bankName trimmed (inner white space made one) and its iban, swift and currency upper-cased',
    mutation: { deviation: 'banks.strings-stored-normalised' },
    allowed: true,
    judgedBy: { clauses: ['2.4', '4.10', '5', '7', '8'] },
  },
  {
    name: 'allowed-bank-list-company-filter-by-bank-name',
    clause: '4.10',
    group: 'banks',
    description: 'the company filter takes the bank\u2019s name (bankName): for a bank list the company is the bank, so a platform code, ID or name lists no bank; the banks of state bank.two-platforms share one name',
    mutation: { deviation: 'banks.company-filter-by-bank-name' },
    allowed: true,
    judgedBy: { clauses: ['4.10', '5'] },
  },
  // Issue 28: storage normalisation is a reading, another text is not: the echo check still fails a bankName not sent.
  {
    name: 'banks-bank-name-answered-with-suffix',
    clause: '2.4',
    group: 'banks',
    description: 'create answers the bankName sent with " Ltd" added (a text not sent, not a normalised one)',
    mutation: { transform: { route: CREATE, status: 201, apply(body) { body.data.bankName = `${body.data.bankName} Ltd`; } } },
  },
  // Reading round 3: an IBAN in print format and a BIC8 as BIC11 with XXX are equivalent forms (normalisation.ts);
  // a text near one of them that is another value still fails the echo check.
  {
    name: 'banks-iban-answered-print-format-truncated',
    clause: '2.4',
    group: 'banks',
    description: 'create answers the iban sent in print format (groups of four) without its last group: another IBAN, not its print format',
    mutation: { transform: { route: CREATE, status: 201, apply(body) { body.data.iban = String(body.data.iban).replace(/(.{4})(?=.)/g, '$1 ').replace(/ \S+$/, ''); } } },
  },
  {
    name: 'banks-swift-answered-with-another-branch',
    // 4.10: the tests that send an 8-character swift cite the create's constraint (4.10), and each checks the echo.
    clause: '4.10',
    group: 'banks',
    description: 'create answers an 8-character swift with the branch code 001 added: another office, not the same BIC (only XXX is the primary office)',
    mutation: { transform: { route: CREATE, status: 201, apply(body) { if (String(body.data.swift).length === 8) body.data.swift = `${body.data.swift}001`; } } },
  },
  // allowed-r9-currency-shown-numeric: the ISO 4217 numeric code of the currency sent is its equivalent form
  // (normalisation.ts); the numeric code of another currency is another currency, and the echo checks still fail it.
  {
    name: 'banks-currency-answered-numeric-of-another',
    clause: '2.4',
    group: 'banks',
    description: 'create answers the currency as the ISO 4217 numeric code of another currency (FJD’s 242 for EUR sent, the next code of the table): not the code sent in another form',
    mutation: { transform: { route: CREATE, status: 201, apply(body) { body.data.currency = numericOfAnother(String(body.data.currency)); } } },
  },
  {
    name: 'banks-show-currency-numeric-of-another',
    clause: '2.4',
    group: 'banks',
    description: 'show answers the currency as the ISO 4217 numeric code of another currency; create and list answer the code sent',
    mutation: { transform: { route: SHOW, status: 200, apply(body) { body.data.currency = numericOfAnother(String(body.data.currency)); } } },
  },
  // The reading the currency filter's numeric fallback serves (suites/banks.test.ts, helpers/check/filters.ts): a currency
  // stored and filtered as its numeric code; and the deviation that fallback must still catch.
  {
    name: 'allowed-bank-currency-stored-numeric',
    clause: '4.10',
    group: 'banks',
    description: 'a bank\u2019s currency is stored as its ISO 4217 numeric code: every bank answer shows 978 for EUR sent, and the currency filter compares with that code (currency=978 lists the EUR banks, currency=EUR none)',
    mutation: currencyStoredNumeric(false),
    allowed: true,
    judgedBy: { groups: ['banks'], clauses: 'all' },
  },
  {
    name: 'allowed-bank-currency-stored-numeric-alphabetic-filter-refused',
    clause: '4.10',
    group: 'banks',
    description: 'a bank\u2019s currency is stored and filtered as its ISO 4217 numeric code, and a filter value the service does not know is refused: currency=EUR answers 422 keyed by currency, currency=978 lists the EUR banks',
    mutation: { ...currencyStoredNumeric(false), deviation: 'banks.unknown-filter-value-422' },
    allowed: true,
    judgedBy: { groups: ['banks'], clauses: 'all' },
  },
  {
    name: 'banks-currency-numeric-filter-ignored',
    clause: '4.10',
    group: 'banks',
    description: 'a bank\u2019s currency is stored and shown as its ISO 4217 numeric code, and the currency filter given a numeric code filters nothing (currency=978 lists the USD bank too)',
    mutation: currencyStoredNumeric(true),
  },
  // A refused create stores nothing (S333, S341), so it reserves no iban either (white-box round wb8 closed the 422 case,
  // wb8-banks-refused-create-reserves-iban; these two prove the other refusals of helpers/arrange/invariants.ts createInvariantChecks).
  {
    name: 'banks-foreign-path-create-reserves-iban',
    clause: '4.10',
    group: 'banks',
    description: 'a bank create refused with 403 or 409 under another user\u2019s path reserves its iban: the path\u2019s user then creating that iban is refused 422 "The iban has already been taken."',
    mutation: refusedCreateReservesIban([403, 409]),
  },
  {
    name: 'banks-unauthenticated-create-reserves-iban',
    clause: '4.10',
    group: 'banks',
    description: 'a bank create refused with 401 (no token) reserves its iban: the path\u2019s user then creating that iban is refused 422 "The iban has already been taken."',
    mutation: refusedCreateReservesIban([401]),
  },
  authenticationSkipped('banks-create-unauthenticated', 'banks', CREATE, 422, { message: 'The given data was invalid.', errors: { bankName: ['The bank name field is required.'] } }, 'the bank create'),
  authenticationSkipped('banks-list-unauthenticated', 'banks', LIST, 200, { data: [] }, 'the bank list'),
  // Required fields and formats of the create body (section 4.10), each skipped alone.
  validationSkipped('banks-bank-name-not-required', 'banks', '4.10', CREATE, 'bankName', /is required/, 201, 'a body without bankName is answered 201 instead of 422'),
  validationSkipped('banks-iban-not-required', 'banks', '4.10', CREATE, 'iban', /is required/, 201, 'a body without iban is answered 201 instead of 422'),
  validationSkipped('banks-swift-not-required', 'banks', '4.10', CREATE, 'swift', /is required/, 201, 'a body without swift is answered 201 instead of 422'),
  validationSkipped('banks-currency-not-required', 'banks', '4.10', CREATE, 'currency', /is required/, 201, 'a body without currency is answered 201 instead of 422'),
  validationSkipped('banks-currency-non-alphanumeric-accepted', 'banks', '4.10', CREATE, 'currency', /letters and numbers/, 201, 'a currency with punctuation (E-R, US$) is answered 201 instead of 422'),
  // Issue 19: rules checked only in part before, each pinned by a mutant.
  // Issue 28: "unique" (4.10, 8) does not say among what. Two people may share a bank account (a joint account),
  // so an IBAN unique among the caller's own banks is a reading; a duplicate among them is refused under every one.
  {
    name: 'allowed-bank-iban-unique-per-user',
    clause: '8',
    group: 'banks',
    description: 'an IBAN is unique only among the user\u2019s own banks: another user\u2019s IBAN is accepted (201)',
    mutation: { deviation: 'banks.iban-unique-per-user' },
    allowed: true,
    judgedBy: { clauses: ['4.10', '5', '7', '8'] },
  },
  {
    name: 'banks-iban-unique-upper-cases-the-sent-iban',
    clause: '8',
    group: 'banks',
    description: 'uniqueness compares the sent IBAN upper-cased with the stored ones as written, so a lower-case IBAN can be stored twice',
    mutation: { deviation: 'banks.iban-unique-upper-sent' },
  },
  {
    name: 'banks-iban-unique-case-folded-only-for-lower-case-sent',
    clause: '8',
    group: 'banks',
    description: 'uniqueness ignores letter case only when the sent IBAN is lower-case: the lower-case copy of a taken upper-case IBAN is refused, the upper-case copy of a taken lower-case one accepted',
    mutation: { deviation: 'banks.iban-unique-case-folded-for-lower-sent' },
  },
  {
    name: 'banks-delete-inactive-allowed',
    clause: '5',
    group: 'banks',
    description: 'delete lets an inactive account delete its unused bank (200) instead of answering 403',
    mutation: { deviation: 'banks.delete-inactive-allowed' },
  },
  {
    name: 'banks-refused-other-user-create-stored',
    clause: '5',
    group: 'banks',
    description: 'a create under another user\u2019s id is refused (403) but the bank is stored for that user',
    mutation: { deviation: 'banks.refused-create-stored.other-user' },
  },
  {
    name: 'banks-refused-inactive-create-stored',
    clause: '5',
    group: 'banks',
    description: 'a create for an inactive account is refused (403) but the bank is stored',
    mutation: { deviation: 'banks.refused-create-stored.inactive' },
  },
  {
    name: 'banks-forbidden-create-allowed',
    clause: '5',
    group: 'banks',
    description: 'an account the platform forbids bank create (state user.forbidden) creates its bank all the same (201)',
    mutation: { deviation: 'banks.forbidden-create-allowed' },
  },
  {
    name: 'banks-refused-forbidden-create-stored',
    clause: '5',
    group: 'banks',
    description: 'a create the platform forbids the account is refused (403) but the bank is stored',
    mutation: { deviation: 'banks.refused-create-stored.forbidden' },
  },
  {
    name: 'banks-forbidden-create-own-message',
    clause: '5',
    group: 'banks',
    description: 'a create the platform forbids the account is refused with 403 in words of its own, not "This action is unauthorized."',
    mutation: { deviation: 'banks.forbidden-create-own-message' },
  },
  {
    name: 'allowed-bank-create-unauthorized-409',
    clause: '5',
    group: 'banks',
    description: 'bank create answers an unauthorized action (another user\u2019s id, an action the platform forbids) with 409 instead of 403 (section 5.6: 403 or 409; section 7 lists 409 for banks)',
    mutation: { transform: { route: CREATE, status: 403, apply: (body: { message?: unknown }) => (body.message === 'This action is unauthorized.' ? { status: 409 } : undefined) } },
    allowed: true,
  },
  {
    name: 'banks-refused-invalid-create-stored',
    clause: '7',
    group: 'banks',
    description: 'a create refused with 422 stores the bank all the same',
    mutation: { deviation: 'banks.refused-create-stored.invalid' },
  },
  {
    name: 'auth-bare-token-accepted-on-bank-list',
    clause: '5',
    group: 'banks',
    description: 'the bank list accepts the bare access token as the Authorization header, without the Bearer scheme',
    mutation: { deviation: 'auth.bare-token-accepted-on-bank-list' },
  },
  {
    name: 'banks-refused-currency-create-stored',
    clause: '7',
    group: 'banks',
    description: 'a create refused with 422 only for its currency (an unknown code) stores the bank all the same',
    mutation: { deviation: 'banks.refused-create-stored.currency' },
  },
  {
    name: 'banks-refused-taken-iban-create-stored',
    clause: '7',
    group: 'banks',
    description: 'a create refused with 422 only for its IBAN (taken by another bank) stores the bank all the same',
    mutation: { deviation: 'banks.refused-create-stored.taken-iban' },
  },
  {
    name: 'banks-refused-other-user-create-stored-for-caller',
    clause: '5',
    group: 'banks',
    description: 'a create under another user\u2019s id is refused (403) but the bank is stored for the caller',
    mutation: { deviation: 'banks.refused-other-user-create-stored-for-caller' },
  },
  {
    name: 'banks-filtered-list-unscoped',
    clause: '5',
    group: 'banks',
    description: 'a list with a filter (status, currency, platform, company) holds every user\u2019s matching banks',
    mutation: { deviation: 'banks.filter-unscoped' },
  },
  {
    name: 'banks-platform-filter-ignored',
    clause: '4.10',
    group: 'banks',
    description: 'the list ignores the platform filter: a user\u2019s banks on every platform are listed',
    mutation: { deviation: 'banks.platform-filter-ignored' },
  },
  {
    name: 'banks-company-filter-ignored',
    clause: '4.10',
    group: 'banks',
    description: 'the list ignores the company filter: a user\u2019s banks on every platform are listed',
    mutation: { deviation: 'banks.company-filter-ignored' },
  },
  // Reading round r12 (issue 28): 4.10 names `company` and says not what it compares, so a filter that lists no bank for
  // any value the suite can send (a platform's code, ID, name or url host, a bank's name) cannot be told from one that
  // compares what none of them names (a SWIFT institution code, allowed-r12-bank-company-filter-by-bic-institution):
  // advised on, no longer a deviation the suite can judge.
  {
    name: 'allowed-bank-list-company-filter-lists-nothing-sent',
    clause: '4.10',
    group: 'banks',
    description: 'the company filter lists no bank for any value the suite sends: neither the code, the ID, the name nor the url host of a platform the user has banks on, nor a bank\u2019s name, lists them (advised on: 4.10 does not say what company compares)',
    mutation: { deviation: 'banks.company-filter-lists-nothing' },
    allowed: true,
    judgedBy: { clauses: ['4.10', '5'] },
  },
  {
    name: 'banks-platform-filter-by-account-platform',
    clause: '4.10',
    group: 'banks',
    description: 'the company and platform filters compare the value with the caller\u2019s own platform, not the bank\u2019s: its own platform\u2019s code lists every bank of the user, any other code none',
    mutation: { deviation: 'banks.platform-filter-by-account-platform' },
  },
  newRecordStatus('banks-new-bank-status-pending', 'banks', CREATE, 'PENDING', 'bank'),
  // Section 5.3 on every protected endpoint.
  {
    name: 'auth-stale-token-cache-on-banks',
    clause: '5',
    group: 'banks',
    description: 'the bank endpoints trust a cache of resolved tokens that logout does not clear, so a logged-out token still works there',
    mutation: { deviation: 'auth.stale-token-cache-on-banks' },
  },
  // Issue 27: the invariants over every list and create (helpers/arrange/invariants.ts).
  {
    name: 'banks-list-newest-twice',
    clause: '4.10',
    group: 'banks',
    description: 'the list shows the newest bank twice once the user has two banks or more',
    mutation: { deviation: 'banks.list-newest-twice' },
  },
  {
    name: 'banks-create-owner-from-body',
    clause: '4.10',
    group: 'banks',
    description: 'create stores the bank for the user_id of the body, when it names a user, not for the path\u2019s user',
    mutation: { deviation: 'banks.create-owner-from-body' },
  },
  {
    name: 'banks-filters-combined-or',
    clause: '4.10',
    group: 'banks',
    description: 'two filters or more of the list are joined with OR, not AND',
    mutation: { deviation: 'banks.filters-combined-or' },
  },
  {
    name: 'banks-refused-taken-iban-renames',
    clause: '4.10',
    group: 'banks',
    description: 'a create refused for its taken IBAN (422) renames the caller\u2019s bank of that IBAN to the bankName sent',
    mutation: { deviation: 'banks.refused-taken-iban-renames' },
  },
  {
    name: 'banks-list-swift-bic8',
    clause: '4.10',
    group: 'banks',
    description: 'the list writes each bank\u2019s swift as its first 8 characters (BIC8), while create and show answer it whole',
    mutation: { deviation: 'banks.list-swift-bic8' },
  },
];
