import type { Mutant } from './types.js';
import { fastifyPath } from '../mutation.js';
import { authenticationSkipped, newRecordStatus, statusMovesOnceListed, validationSkipped } from './make.js';

/**
 * Mutants of the cards group (section 4.6a with 2.5, 5.6, 7 and 8): each deviates from one clause,
 * and suites/cards.test.ts must fail on each through a test citing that clause.
 */

const CREATE = 'POST /api/v1/user/{user}/card';
const LIST = 'GET /api/v1/user/{user}/card';
const SHOW = 'GET /api/v1/user/{user}/card/{card}';

const deviation = (name: string, clause: string, description: string, deviationName: string): Mutant => ({
  name,
  clause,
  group: 'cards',
  description,
  mutation: { deviation: deviationName },
});

export const cardsMutants: Mutant[] = [
  deviation('cards-image1-type-by-extension', '8', 'judges cardImage1\u2019s type by the file name, so a text file named .png is accepted', 'cards.image-type-by-extension.cardImage1'),
  deviation('cards-image2-type-by-extension', '8', 'judges cardImage2\u2019s type by the file name, so a text file named .png is accepted', 'cards.image-type-by-extension.cardImage2'),
  deviation('cards-image1-gif-accepted', '8', 'accepts a GIF as cardImage1 besides jpg, jpeg, bmp and png', 'cards.gif-accepted.cardImage1'),
  deviation('cards-image2-gif-accepted', '8', 'accepts a GIF as cardImage2 besides jpg, jpeg, bmp and png', 'cards.gif-accepted.cardImage2'),
  deviation('cards-size-unlimited', '8', 'does not enforce the 10240 KB limit on card images', 'cards.size-unlimited'),
  deviation('cards-size-limit-10000000-bytes', '8', 'limits card images to 10 000 000 bytes, refusing an image of 10 240 000 bytes (inside 10240 KB whatever a KB is)', 'cards.size-limit-10000000-bytes'),
  deviation('cards-holder-name-max-ignored', '8', 'accepts a holderName longer than 191 characters', 'cards.holder-name-max-ignored'),
  deviation('cards-alias-max-ignored', '8', 'accepts an alias longer than 191 characters', 'cards.alias-max-ignored'),
  deviation('cards-last-four-digits-five-accepted', '8', 'accepts lastFourDigits of 5 digits', 'cards.last-four-five-digits'),
  deviation('cards-past-expiration-date-accepted', '4.6a', 'accepts an expirationDate in the past', 'cards.past-date-accepted'),
  deviation('cards-past-expiration-year-accepted', '4.6a', 'accepts an expirationYear in the past', 'cards.past-year-accepted'),
  deviation('cards-month-without-year-accepted', '4.6a', 'accepts expirationMonth without expirationYear when a date is given', 'cards.year-required-with-month-ignored'),
  deviation('cards-year-without-month-accepted', '4.6a', 'accepts expirationYear without expirationMonth when a date is given', 'cards.month-required-with-year-ignored'),
  deviation('cards-pair-not-alternative-to-date', '4.6a', 'requires expirationDate even when expirationMonth and expirationYear are both given', 'cards.date-always-required'),
  deviation('cards-other-users-card-readable', '4.6a', 'shows another user\u2019s card under the own user id instead of answering 404', 'cards.show-ignores-owner'),
  deviation('cards-inactive-allowed', '5', 'serves card endpoints to an inactive account instead of answering 403', 'cards.inactive-allowed'),
  deviation('cards-expiration-month-format-unchecked', '4.6a', 'accepts an expirationMonth that is not format m (13, 00, letters)', 'cards.month-format-unchecked'),
  deviation('cards-image2-jpeg-refused', '8', 'refuses a JPEG as cardImage2 (which has the same constraints as cardImage1)', 'cards.jpeg-refused.cardImage2'),
  deviation('cards-image2-bmp-refused', '8', 'refuses a BMP as cardImage2 (which has the same constraints as cardImage1)', 'cards.bmp-refused.cardImage2'),
  deviation('cards-jpeg-file-name-refused', '8', 'refuses an image whose file name ends in .jpeg (checks the extension against jpg, bmp, png)', 'cards.jpeg-extension-refused'),
  // Section 4.6a makes expirationMonth and expirationYear "required when expirationDate is absent": a form
  // without any of the three may be refused naming only the missing month and year.
  {
    name: 'allowed-cards-missing-date-keyed-by-month-and-year',
    clause: '7',
    group: 'cards',
    description: 'a 422 for a missing expiry names the missing expirationMonth and expirationYear, not expirationDate',
    mutation: {
      transform: {
        route: CREATE,
        status: 422,
        apply(body) {
          const errors = body.errors as Record<string, string[]>;
          if (errors.expirationDate?.some((m) => /required/.test(m)) && (errors.expirationMonth || errors.expirationYear)) delete errors.expirationDate;
        },
      },
    },
    allowed: true,
  },
  // Without expirationDate the month and year pair stands in for it: a target that composes the date from the pair
  // and validates that may key a malformed month or a past year by expirationDate.
  {
    name: 'allowed-cards-pair-errors-keyed-as-date',
    clause: '7',
    group: 'cards',
    description: 'a malformed expirationMonth or a past expirationYear (without expirationDate) is keyed by expirationDate, the date the pair composes',
    mutation: {
      transform: {
        route: CREATE,
        status: 422,
        apply(body) {
          const errors = body.errors as Record<string, string[]>;
          if (errors.expirationDate) return;
          for (const field of ['expirationMonth', 'expirationYear']) {
            if (errors[field] && !errors[field]!.some((m) => /required/.test(m))) {
              errors.expirationDate = ['The expiration date field must be a valid date that is not in the past.'];
              delete errors[field];
            }
          }
        },
      },
    },
    allowed: true,
  },
  // Format `y` is the year in two digits (PHP's letters) or in any number of digits (Unicode/Java patterns).
  { ...deviation('allowed-cards-four-digit-year', '4.6a', 'format y read as a year of any number of digits: expirationYear 2031 (and expirationDate 07/2031) is that year, accepted and shown as sent', 'cards.four-digit-year'), allowed: true },
  { ...deviation('allowed-cards-first-error-only', '4.6a', 'a 422 lists only the first failing field (month alone keys the missing expirationDate, not expirationYear)', 'cards.first-error-only'), allowed: true },
  // Issue 28: 2.5 does not say a record repeats the letters sent; embossed cards carry the holder's name upper-case.
  { ...deviation('allowed-card-holder-name-stored-upper-case', '2.5', 'holderName is stored (and answered) upper-case, as embossed cards are', 'cards.holder-name-stored-upper-case'), allowed: true, judgedBy: { clauses: ['2.5', '4.6a', '5', '7', '8'] } },
  // Issue 28: storage normalisation is a reading, another text is not: the echo check still fails a holderName not sent.
  {
    name: 'cards-holder-name-answered-as-alias',
    clause: '2.5',
    group: 'cards',
    description: 'create answers the alias sent as holderName (a text the holder did not send, not a normalised one)',
    mutation: { transform: { route: CREATE, status: 201, apply(body) { body.data.holderName = body.data.alias; } } },
  },
  {
    name: 'allowed-card-empty-status-and-images',
    clause: '2.5',
    group: 'cards',
    description: 'show answers status, cardImage1 and cardImage2 as empty strings (2.5 gives strings, not non-empty ones; section 3 shows no transitions)',
    mutation: {
      transform: {
        route: SHOW,
        status: 200,
        apply(body) {
          Object.assign(body.data, { status: '', cardImage1: '', cardImage2: '' });
        },
      },
    },
    allowed: true,
  },
  deviation('cards-filter-ignored', '4.6a', 'ignores the status, company and platform filters of the card list', 'cards.list-filters-ignored'),
  deviation('cards-other-user-list-allowed', '5', 'lists another user\u2019s cards instead of answering 403 or 409', 'cards.other-user-list-allowed'),
  {
    name: 'cards-create-answers-200',
    clause: '4.6a',
    group: 'cards',
    description: 'answers 200 instead of 201 for a created card',
    mutation: { transform: { route: CREATE, status: 201, apply: () => ({ status: 200 }) } },
  },
  {
    name: 'cards-created-at-string',
    clause: '2.5',
    group: 'cards',
    description: 'writes createdAt of a created card as a string instead of Unix seconds',
    mutation: {
      transform: {
        route: CREATE,
        status: 201,
        apply(body) {
          body.data.createdAt = String(body.data.createdAt);
        },
      },
    },
  },
  {
    name: 'cards-last-four-digits-number',
    clause: '2.5',
    group: 'cards',
    description: 'writes lastFourDigits of listed cards as a number instead of a string',
    mutation: {
      transform: {
        route: LIST,
        status: 200,
        apply(body) {
          for (const card of body.data) card.lastFourDigits = Number(card.lastFourDigits);
        },
      },
    },
  },
  {
    name: 'cards-card-images-missing',
    clause: '2.5',
    group: 'cards',
    description: 'leaves cardImage1 and cardImage2 out of the shown card',
    mutation: {
      transform: {
        route: SHOW,
        status: 200,
        apply(body) {
          delete body.data.cardImage1;
          delete body.data.cardImage2;
        },
      },
    },
  },
  {
    name: 'cards-show-404-as-200',
    clause: '4.6a',
    group: 'cards',
    description: 'answers 200 instead of 404 for a card the user does not have',
    mutation: { transform: { route: SHOW, status: 404, apply: (body) => ({ status: 200, body: { data: body } }) } },
  },
  {
    name: 'cards-list-without-envelope',
    clause: '1',
    group: 'cards',
    description: 'answers the list of the card list endpoint without the data envelope (a bare array)',
    mutation: { transform: { route: LIST, status: 200, apply: (body) => ({ body: body.data }) } },
  },
  // Characters, not bytes (section 8): found by `conformance explore`, pinned by fixed rows of two-byte characters.
  {
    name: 'cards-holder-name-max-in-bytes',
    clause: '8',
    group: 'cards',
    description: 'the 191-character holderName limit counts UTF-8 bytes, so 191 two-byte letters are refused',
    mutation: { deviation: 'cards.holder-name-max-bytes' },
  },
  {
    name: 'cards-alias-max-in-bytes',
    clause: '8',
    group: 'cards',
    description: 'the 191-character alias limit counts UTF-8 bytes, so 191 two-byte letters are refused',
    mutation: { deviation: 'cards.alias-max-bytes' },
  },
  // Section 3 shows a new card CONFIRMED and no transition: a card may move between two reads a moment apart.
  {
    name: 'allowed-card-status-moves-once-listed',
    clause: '3',
    group: 'cards',
    description: 'a card moves from CONFIRMED to VERIFIED once a list has held it, so the list that first holds it shows CONFIRMED and every later read VERIFIED, and the status filter lists it by what it now is (section 3: "Transitions: not shown")',
    mutation: statusMovesOnceListed(fastifyPath(LIST.split(' ')[1]!), fastifyPath(SHOW.split(' ')[1]!)),
    allowed: true,
    judgedBy: { groups: ['cards'], clauses: 'all' },
  },
  // Section 4.6a gives the filters as optional strings without saying what a value no record has gets.
  {
    name: 'allowed-card-list-unknown-filter-value-422',
    clause: '4.6a',
    group: 'cards',
    description: 'the list refuses a status, company or platform the service does not know with 422 keyed by the filter, instead of an empty list',
    mutation: { deviation: 'cards.unknown-filter-value-422' },
    allowed: true,
  },
  // Section 4.6a does not say what company and platform are compared with; section 4.1 calls a platform's `{platform}` its ID.
  {
    name: 'allowed-card-list-platform-filter-by-id',
    clause: '4.6a',
    group: 'cards',
    description: 'the company and platform filters take a platform ID, so a platform code is a value the service does not know: 422 keyed by the filter',
    mutation: { deviation: 'cards.platform-filter-by-id' },
    allowed: true,
  },
  // Nor does it say that they are compared with a code or an ID: a company is named, and a record shows its platform's name.
  {
    name: 'allowed-card-list-platform-filter-by-name',
    clause: '4.6a',
    group: 'cards',
    description: 'the company and platform filters take a platform\u2019s name (externalPlatform.name), so a platform code or ID lists no card',
    mutation: { deviation: 'cards.platform-filter-by-name' },
    allowed: true,
  },
  authenticationSkipped('cards-create-unauthenticated', 'cards', CREATE, 422, { message: 'The given data was invalid.', errors: { cardImage1: ['The card image1 field is required.'] } }, 'the card create'),
  authenticationSkipped('cards-list-unauthenticated', 'cards', LIST, 200, { data: [] }, 'the card list'),
  authenticationSkipped('cards-show-unauthenticated', 'cards', SHOW, 404, { message: 'No query results.' }, 'the card show'),
  // Required fields and formats of the create form (section 4.6a), each skipped alone.
  validationSkipped('cards-card-image2-not-required', 'cards', '4.6a', CREATE, 'cardImage2', /is required/, 201, 'a form without cardImage2 is answered 201 instead of 422'),
  validationSkipped('cards-holder-name-not-required', 'cards', '4.6a', CREATE, 'holderName', /is required/, 201, 'a form without holderName is answered 201 instead of 422'),
  validationSkipped('cards-last-four-digits-not-required', 'cards', '4.6a', CREATE, 'lastFourDigits', /is required/, 201, 'a form without lastFourDigits is answered 201 instead of 422'),
  validationSkipped('cards-alias-not-required', 'cards', '4.6a', CREATE, 'alias', /is required/, 201, 'a form without alias is answered 201 instead of 422'),
  validationSkipped('cards-expiration-date-format-unchecked', 'cards', '4.6a', CREATE, 'expirationDate', /must match the format/, 201, 'an expirationDate that is not m/y is answered 201 instead of 422'),
  // Issue 19: rules checked only in part before.
  deviation('cards-expiration-year-format-unchecked', '4.6a', 'accepts an expirationYear that is not format y under any reading (letters) beside a valid month', 'cards.year-format-unchecked'),
  deviation('cards-image-text-part-accepted', '4.6a', 'takes a card image sent as a plain text part (a data URL) as the image instead of refusing it', 'cards.text-part-accepted'),
  deviation('cards-empty-image-file-accepted', '4.6a', 'accepts an empty file as a card image', 'cards.empty-file-accepted'),
  deviation('cards-show-inactive-allowed', '5', 'shows an inactive account its own card (200) instead of answering 403', 'cards.show-inactive-allowed'),
  deviation('cards-refused-other-user-create-stored', '5', 'checks authorization after storing: a create under another user\u2019s id is refused but the card is stored for that user', 'cards.refused-create-stored.other-user'),
  deviation('cards-refused-invalid-create-stored', '7', 'a create refused with 422 stores the card all the same', 'cards.refused-create-stored.invalid'),
  deviation('cards-platform-filter-ignored', '4.6a', 'ignores the platform filter of the card list: a user\u2019s cards on every platform are listed', 'cards.platform-filter-ignored'),
  deviation('cards-platform-filter-lists-nothing', '4.6a', 'the platform filter of the card list lists no card whatever its value: neither the code, the ID nor the name of a platform the user has cards on lists them', 'cards.platform-filter-lists-nothing'),
  deviation('cards-company-filter-ignored', '4.6a', 'ignores the company filter of the card list: a user\u2019s cards on every platform are listed', 'cards.company-filter-ignored'),
  deviation('cards-platform-filter-by-account-platform', '4.6a', 'the company and platform filters compare the value with the caller\u2019s own platform, not the card\u2019s: its own platform\u2019s code lists every card of the user, any other code none', 'cards.platform-filter-by-account-platform'),
  deviation('cards-pair-format-unchecked-beside-date', '4.6a', 'beside a valid expirationDate, a malformed expirationMonth (13, letters) or expirationYear (letters) is not checked and the card is created', 'cards.pair-format-unchecked-beside-date'),
  deviation('cards-refused-expiry-create-stored', '7', 'a create refused with 422 only for its expiry fields (a past date, a malformed year) stores the card all the same', 'cards.refused-create-stored.expiry'),
  deviation('cards-refused-other-user-create-stored-for-caller', '5', 'a create under another user\u2019s id is refused (403/409) but the card is stored for the caller', 'cards.refused-other-user-create-stored-for-caller'),
  deviation('cards-filtered-list-unscoped', '5', 'a list with a filter (status, company, platform) holds every user\u2019s matching cards', 'cards.filter-unscoped'),
  newRecordStatus('cards-new-card-status-pending', 'cards', CREATE, 'PENDING', 'card'),
  // Section 5.3 on every protected endpoint.
  {
    name: 'auth-query-token-accepted',
    clause: '5',
    group: 'cards',
    description: 'a valid access token sent as the query parameter token or api_token authenticates protected endpoints',
    mutation: { deviation: 'auth.query-token-accepted' },
  },
  {
    name: 'auth-expiry-ignored-on-cards',
    clause: '5',
    group: 'cards',
    description: 'the card endpoints accept an access token whose lifetime is over',
    mutation: { deviation: 'auth.expiry-ignored-on-cards' },
  },
  // Issue 27: the invariants over every list and create (helpers/arrange/invariants.ts).
  {
    name: 'cards-create-status-from-body',
    clause: '3',
    group: 'cards',
    description: 'create stores the status field of the body as the new card\u2019s status instead of CONFIRMED',
    mutation: { deviation: 'cards.create-status-from-body' },
  },
  {
    name: 'cards-list-cached',
    clause: '4.6a',
    group: 'cards',
    description: 'the list answers a copy cached for 5 seconds, so a card created meanwhile is missing from it',
    mutation: { deviation: 'cards.list-cached' },
  },
  {
    name: 'cards-filters-combined-or',
    clause: '4.6a',
    group: 'cards',
    description: 'two filters or more of the card list are joined with OR, not AND',
    mutation: { deviation: 'cards.filters-combined-or' },
  },
  // Issue 27, values from the whole class (branch i27-val).
  { name: 'cards-two-digit-years-from-40-read-as-19xx', clause: '4.6a', group: 'cards', description: 'a two-digit year from 40 is read as 19xx (a fixed pivot at 1940), so an expiry of 06/40 or 12/45 is refused as in the past', mutation: { deviation: 'cards.two-digit-year-pivot-1940' } },
  { name: 'cards-expiry-at-most-ten-years-ahead', clause: '4.6a', group: 'cards', description: 'an expirationDate more than ten years ahead (12/45) is refused, a limit section 4.6a does not give', mutation: { deviation: 'cards.expiry-at-most-ten-years' } },
  { name: 'cards-webp-accepted', clause: '8', group: 'cards', description: 'a WebP image is accepted as cardImage1 or cardImage2 (section 8 lists jpg, jpeg, bmp and png)', mutation: { deviation: 'cards.webp-accepted' } },
  { name: 'cards-images-summed-against-limit', clause: '8', group: 'cards', description: 'the two images are measured together against 10240 KB, so two images each inside the limit are refused when their sum is over it', mutation: { deviation: 'cards.images-summed-against-limit' } },
];
