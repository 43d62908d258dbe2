import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, answerWith, reading, cardFormOf, claimsOf, isSessionAnswer, onAnswers, onCardParts, cardTextPartsHeld, bankCreateRefused, only, onParsedBody, ordersOf, parse, recordCardForm, recordsOf, refusalMarks, routeOf } from './reading.js';
import { AUTH, JWT, BANK, BANKS, BONUS, BONUSES, CARD, CARDS, CARD_ROUTES, BONUS_ROUTES, COIN, COINS, SUMMARY } from './routes.js';

/**
 * Reading round 21 (issue 28, "fair to the readings nobody listed"): implementation choices the specification leaves
 * open, each taken the other way from the reference, as a FastAPI team (422 for a path id that is no UUID), an API
 * Platform/Symfony team (a `violations` list beside `errors`), a PHP team (the last of two form parts of one name wins,
 * `X-Powered-By`, an upload without a file name is no upload), a Deno/Hono team on an edge runtime (`Server-Timing`), a
 * bank's PCI-minded team (`Cache-Control: no-store` everywhere), teams verifying the platform JWT with a typed claim
 * set (Kotlin `Long` for `expire`, Pydantic `EmailStr` for `email`, a strict schema, a `typ` check), a team that writes
 * RFC 8176-style authentication methods in the Session, a team deriving bank ids as UUIDs of version 5 from the user and
 * the IBAN, a payouts team that takes no ISO 4217 fund code as a bank's currency, an S3-minded team keeping upload names
 * in image identifiers, a team storing integer minor units in its bonus sums, a Stripe-minded team writing payment
 * currencies lower-case, and teams that order lists, scope a list's default window or choose a status of the two the
 * text gives their own way, would take them, reading only the specification (/work/shared/spec/interface.md),
 * docs/provider-states.md, README.md, docs/implementers.md and reference/. Written without reading the suite (suites/,
 * helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a reading of rounds 1 to 20, of the reviews, of
 * the white-box rounds or of the groups' own `allowed-*` mutants (their 672 names, and the descriptions of the near
 * ones, were read for that). Each description quotes the text that leaves the point open. Readings change requests or
 * answers only (no edit to reference/modules/): a reading that refuses a request the reference accepts spoils the field
 * before the handler reads it (so nothing is stored) and writes its own message for that field (as rounds 18 and 20).
 * Run against the suite (branch readings-r21 off main at ace333e, `nice -n 19 node bin/mutants.mjs --shards 1` in four
 * batches, then each refused one through `node bin/conformance.mjs run --group G --mutant NAME`): 25 of 29 stayed
 * conformant; 4 refused (2 false failures, 2 fair refusals). The 2 false failures were fixed after the round by fix-r21
 * (the suite's card forms now send their text fields before their files, and two different pictures as the two images:
 * helpers/arrange/cards.ts cardForm, helpers/net/multipart.ts fieldsFirst, docs/judging.md "Order and sameness of a card
 * form's parts"), so 27 are registered; the 2 fair refusals are kept in `readingsR21Refused` below with their failing
 * tests and the argument.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVERY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

const { refuse, refusedAnswer } = refusalMarks();



/** UUID of version 5 (RFC 9562 5.5): SHA-1 of a namespace and a name. */
const BANK_NAMESPACE = Buffer.from('6f1c2b7e0d5a4c3b9e8f7a6b5c4d3e2f', 'hex');
function uuidV5(name: string): string {
  const hash = createHash('sha1').update(BANK_NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** ISO 4217's fund codes (List One, the entries flagged as funds), which name no currency an account is held in. */
const FUND_CODES = new Set(['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW']);

/** The JSON header of a request's JWT (`Token`), unverified. */
function jwtHeaderOf(request: FastifyRequest): Record<string, unknown> | undefined {
  const token = request.headers.token;
  const first = typeof token === 'string' ? token.split('.')[0] : undefined;
  try {
    return first ? (JSON.parse(Buffer.from(first, 'base64url').toString('utf8')) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A JWT login whose (signed) token `refused` refuses answered 412 (payload invalid) where the reference went on to an
 * answer past the payload's checks (a session, 416, or the account's 401, 423, 425); the wrong-credentials 403 (bad
 * signature, unknown user) stays as it is.
 */
function jwtPayloadRefused(refused: (claims: Record<string, unknown>, header: Record<string, unknown> | undefined) => boolean) {
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.method !== 'POST' || answer.url !== JWT || ![200, 401, 416, 423, 425].includes(answer.status)) return undefined;
      const claims = claimsOf(reply.request);
      if (!claims || !refused(claims, jwtHeaderOf(reply.request))) return undefined;
      return answerWith(reply, 412, { error: 'The JWT payload is invalid.' });
    },
  };
}

/** The text of a summary amount written in the asset's minor units (an integer), from its amount and the asset's precision. */
function minorUnits(amount: unknown, precision: unknown): number | undefined {
  const places = Number(precision);
  if (typeof amount !== 'number' || !Number.isFinite(amount) || !Number.isInteger(places) || places < 0 || places > 30) return undefined;
  const fixed = amount.toFixed(Math.min(places, 20));
  const [whole, fraction = ''] = fixed.replace('-', '').split('.');
  const digits = BigInt(`${whole}${fraction.padEnd(places, '0')}`);
  return (amount < 0 ? -1 : 1) * Number(digits);
}

/** A file name as an object key keeps it: lower-case, letters, digits, dot, dash and underscore, at most 100 characters. */
function keyOfName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const slug = base.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 100);
  return slug === '' ? 'image' : slug;
}

/** The cards' image identifiers shown with the upload's name, by card id and field. */
const imageNames = new Map<string, string>();
/** The bank ids shown (version 5), by the reference's id, and back. */
const bankShown = new Map<string, string>();
const bankReference = new Map<string, string>();

const readingsR21Written: Mutant[] = [
  // ---- Server-wide (1, 7)
  reading(
    'allowed-r21-server-timing-header',
    'banks',
    '1',
    'every answer carries `Server-Timing: app;dur=<milliseconds>`, the time the application took, as a Deno/Hono team on an edge runtime adds it with Hono\u2019s timing middleware (W3C Server Timing) (1.2: "Requests and responses are JSON. Clients send the headers Content-Type: application/json and Accept: application/json": what clients send, nothing of the headers an answer carries)',
    {
      wire(_answer, reply) {
        reply.header('server-timing', `app;dur=${Math.max(0, reply.elapsedTime).toFixed(1)}`);
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r21-every-answer-no-store',
    'banks',
    '1',
    'every answer carries `Cache-Control: no-store`, as a team holding a PCI DSS and banking audit marks every answer that carries account data uncacheable (1.2 says nothing of the headers an answer carries; readings adding caching headers to some answers were allowed)',
    {
      wire(_answer, reply) {
        if (reply.getHeader('cache-control') === undefined) reply.header('cache-control', 'no-store');
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r21-validation-violations-list-member',
    'banks',
    '7',
    'a 422 also lists its failures as `violations: [{ propertyPath, message }]`, one entry a message, beside the `errors` map, as an API Platform/Symfony team\u2019s ConstraintViolationList normalizer writes them (7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }": the members a 422 must have, not that it has no others)',
    {
      wire(answer) {
        if (answer.status !== 422) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || !body.errors || typeof body.errors !== 'object') return undefined;
        body.violations = Object.entries(body.errors as Record<string, unknown>).flatMap(([field, messages]) => (Array.isArray(messages) ? messages : [messages]).map((message) => ({ propertyPath: field, message })));
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r21-malformed-record-id-422',
    'banks',
    '1',
    'a `{bank}`, `{card}` or `{bonus}` that is not a UUID is answered 422 in the validation format, `{ message, errors: { <segment>: ["The <segment> must be a valid UUID."] } }`, where the reference answers 404, as a FastAPI team whose path parameter is typed `UUID` answers (a request validation error); a well-formed id of no record is still 404 (1.6: "{bank}, {bonus} and {card} are record IDs (UUID strings)"; 7: "404 | bank show, bonus show, card show | no record found": a text that is no record ID is not a lookup that found nothing; readings answering 400 for it were allowed)',
    {
      wire(answer, reply) {
        if (answer.status !== 404 || ![BANK, CARD, BONUS].includes(answer.url)) return undefined;
        const params = (reply.request.params ?? {}) as Record<string, string>;
        const segment = answer.url === BANK ? 'bank' : answer.url === CARD ? 'card' : 'bonus';
        const value = params[segment];
        if (typeof value !== 'string' || UUID.test(value)) return undefined;
        const message = `The ${segment} must be a valid UUID.`;
        return answerWith(reply, 422, { message, errors: { [segment]: [message] } });
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r21-record-shows-403-lists-409',
    'banks',
    '5',
    'another user\u2019s bank, card or bonus asked by id (a show) is refused 403 "This action is unauthorized.", while another user\u2019s lists stay 409, as a team whose policy answers a forbidden record 403 and a forbidden collection 409 does (5.6: "Access to another user\u2019s resources, or an unauthorized action, yields 403 or 409 with the message This action is unauthorized."; 4.10 and 4.11 document 403 for each show: which of the two statuses for which operation is not given)',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 409 || ![BANK, CARD, BONUS].includes(answer.url)) return undefined;
        reply.code(403);
        return undefined;
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r21-x-powered-by-php',
    'banks',
    '1',
    'every answer carries `X-Powered-By: PHP/8.3.12`, as a Laravel team on a PHP whose `expose_php` is left on sends it (1.2 says nothing of the headers an answer carries)',
    {
      wire(_answer, reply) {
        reply.header('x-powered-by', 'PHP/8.3.12');
        return undefined;
      },
    },
    ALL,
  ),

  reading(
    'allowed-r21-validation-every-failing-rule-listed',
    'banks',
    '7',
    'a 422 lists, under each field it names, a message for every rule that field breaks, not the first alone (a swift `AB-1` is both not alphanumeric and shorter than 8; a lastFourDigits `12a` both not a number and not 4 digits), with the top `message` counting them, as a Laravel team whose rules carry no `bail` answers (7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }": a field\u2019s list holds strings; how many, one or every broken rule\u2019s, is not given; one message per field and every rule held to were readings of rounds 11 and 5)',
    {
      request: recordCardForm,
      wire(answer, reply) {
        if (answer.status !== 422 || answer.method !== 'POST' || (answer.url !== BANKS && answer.url !== CARDS)) return undefined;
        const body = parse(answer.payload);
        if (!body?.errors || typeof body.errors !== 'object') return undefined;
        const sent = (answer.url === CARDS ? (cardFormOf(reply.request) ?? reply.request.body) : reply.request.body) as Record<string, unknown> | undefined;
        if (!sent || typeof sent !== 'object') return undefined;
        const text = (field: string): string | undefined => (typeof sent[field] === 'string' ? (sent[field] as string) : undefined);
        const broken: Record<string, string[]> = {};
        const alnum = (field: string, name: string) => {
          const value = text(field);
          if (value !== undefined && value !== '' && !/^[A-Za-z0-9]+$/.test(value)) (broken[field] ??= []).push(`The ${name} field must only contain letters and numbers.`);
        };
        if (answer.url === BANKS) {
          alnum('swift', 'swift');
          const swift = text('swift');
          if (swift !== undefined && swift !== '' && (swift.length < 8 || swift.length > 11)) (broken.swift ??= []).push('The swift field must be between 8 and 11 characters.');
          alnum('iban', 'iban');
          const iban = text('iban');
          if (iban !== undefined && iban.length > 191) (broken.iban ??= []).push('The iban field must not be greater than 191 characters.');
          alnum('currency', 'currency');
        } else {
          const digits = text('lastFourDigits');
          if (digits !== undefined && digits !== '') {
            if (!/^[0-9]+$/.test(digits)) (broken.lastFourDigits ??= []).push('The last four digits field must be a number.');
            if (digits.length !== 4) (broken.lastFourDigits ??= []).push('The last four digits field must be 4 digits.');
          }
        }
        let changed = false;
        for (const [field, messages] of Object.entries(broken)) {
          const listed = body.errors[field];
          if (!Array.isArray(listed)) continue;
          for (const message of messages) {
            if (!listed.includes(message)) {
              listed.push(message);
              changed = true;
            }
          }
        }
        if (!changed) return undefined;
        const all = Object.values(body.errors as Record<string, unknown>).flatMap((messages) => (Array.isArray(messages) ? messages : [messages]));
        const more = all.length - 1;
        body.message = more > 0 ? `${all[0]} (and ${more} more error${more > 1 ? 's' : ''})` : all[0];
        return JSON.stringify(body);
      },
    },
    only('banks', 'cards'),
  ),

  // ---- Authentication (2.1, 4.1)
  reading(
    'allowed-r21-session-auth-methods-member',
    'authentication',
    '2.1',
    'a Session also carries `authMethods`, how the user proved who they are, in the manner of RFC 8176\u2019s `amr`: `["password"]` for a password login, `["password", "totp"]` for one with a 2FA code, `["platform-jwt"]` for a platform login, as a team that lets later operations ask for a second factor reads it (2.1 lists the fields a Session has, not that it has no others; readings adding members to the Session were allowed)',
    {
      wire(answer, reply) {
        if (!isSessionAnswer(answer)) return undefined;
        const body = parse(answer.payload);
        if (!body?.data || typeof body.data !== 'object') return undefined;
        const sent = reply.request.body as Record<string, unknown> | undefined;
        const code = typeof sent?.['2fa'] === 'string' && sent['2fa'] !== '';
        body.data.authMethods = answer.url === JWT ? ['platform-jwt'] : code ? ['password', 'totp'] : ['password'];
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r21-jwt-typ-header-checked',
    'authentication',
    '4.1',
    'a platform JWT whose header carries a `typ` other than `JWT` (any letter case; `application/jwt` too), such as `at+jwt` or `dpop+jwt`, is refused 412 (payload invalid), as a team verifying with jose\u2019s `typ: "JWT"` option does against token confusion (RFC 8725 3.11); a JWT without `typ` is read as by the reference (4.1: "Auth: header Token: <JWT>"; "Signature algorithm: RS512": nothing of the JWT\u2019s header but its algorithm is given)',
    jwtPayloadRefused((_claims, header) => header !== undefined && header.typ !== undefined && !(typeof header.typ === 'string' && /^(application\/)?jwt$/i.test(header.typ))),
    only('authentication'),
  ),
  reading(
    'allowed-r21-jwt-expire-fraction-412',
    'authentication',
    '4.1',
    'a platform JWT whose `expire` is a number with a fraction (`1767225600.5`) is refused 412 (payload invalid), as a Kotlin team whose claim class types `expire` as `Long` (kotlinx.serialization refuses 1767225600.5) or a Rust team with `i64` does; whole numbers are read as by the reference (4.1: "expire (required, timestamp, must be now or later)": which numbers are timestamps is not given; 1.4 gives the interface\u2019s Unix-second timestamps as integers)',
    jwtPayloadRefused((claims) => typeof claims.expire === 'number' && !Number.isInteger(claims.expire)),
    only('authentication'),
  ),
  reading(
    'allowed-r21-jwt-empty-email-claim-412',
    'authentication',
    '4.1',
    'a platform JWT that names its user by `id` but also carries an `email` claim that is no e-mail (`""`, `null`, a number) is refused 412 (payload invalid), as a Pydantic team whose claim model types `email: EmailStr | None = None` refuses it before reading `id` (4.1: "JWT payload: one of email (string, user e-mail) or id (string, user ID)": what a payload with a malformed `email` beside an `id` is, is not given)',
    jwtPayloadRefused((claims) => 'email' in claims && typeof claims.id === 'string' && claims.id !== '' && !(typeof claims.email === 'string' && claims.email.includes('@'))),
    only('authentication'),
  ),
  reading(
    'allowed-r21-jwt-payload-other-claims-412',
    'authentication',
    '4.1',
    'a platform JWT whose payload carries claims other than `email`, `id` and `expire` (`iat`, `iss`, `jti`, any other) is refused 412 (payload invalid), as a team validating the payload against a closed schema (a Rust `#[serde(deny_unknown_fields)]` claim struct, a JSON Schema with additionalProperties false) does (4.1: "JWT payload: one of email (string, user e-mail) or id (string, user ID), and expire (required, timestamp, must be now or later)": the payload the text describes holds those claims; that it may hold others is not said)',
    jwtPayloadRefused((claims) => Object.keys(claims).some((claim) => claim !== 'email' && claim !== 'id' && claim !== 'expire')),
    only('authentication'),
  ),

  // ---- Banks (4.10)
  reading(
    'allowed-r21-bank-ids-uuid-v5-of-iban',
    'banks',
    '4.10',
    'a bank created through the interface gets a UUID of version 5 (RFC 9562 5.5, name-based, SHA-1) of its user and its IBAN, so that a create retried after a lost answer names the same record, as a team on a multi-region active-active store derives ids from a natural key does (a bank deleted and created again with the same IBAN is the same id again); banks written before (the provider states\u2019) keep theirs, and every id is read back in paths as it was answered (1.6: "{bank} ... record IDs (UUID strings)"; 2.4: "id | string (UUID)": which version of UUID, and whether an id may name a bank created again, is not given)',
    {
      request(request) {
        const params = request.params as Record<string, string> | undefined;
        if (!params || typeof params.bank !== 'string') return;
        const id = bankReference.get(params.bank.toLowerCase());
        if (id !== undefined) params.bank = id;
      },
      wire(answer, reply) {
        if (answer.method === 'POST' && answer.status === 201 && answer.url === BANKS) {
          const data = parse(answer.payload)?.data;
          const user = ((reply.request.params ?? {}) as Record<string, string>).user;
          if (typeof data?.id === 'string' && UUID.test(data.id) && typeof data.iban === 'string' && typeof user === 'string') {
            const shown = uuidV5(`${user.toLowerCase()}:${data.iban.replace(/\s+/g, '').toUpperCase()}`);
            bankShown.set(data.id.toLowerCase(), shown);
            bankReference.set(shown, data.id);
          }
        }
        if (bankShown.size === 0) return undefined;
        const rewritten = answer.payload.replace(EVERY_UUID, (id) => bankShown.get(id.toLowerCase()) ?? id);
        return rewritten === answer.payload ? undefined : rewritten;
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r21-currency-fund-codes-refused',
    'banks',
    '4.10',
    'a bank create whose currency is one of ISO 4217\u2019s fund codes (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW: units of account and settlement funds, flagged as funds in List One) is refused 422 keyed by `currency`, as a payouts team that takes only currencies an account can be held in does; every other code is judged as by the reference (4.10: "currency | ... | alphanumeric, a valid ISO currency code"; 7: "422 | bank create | invalid field, for example an unknown currency": whether a fund code is a currency code for a bank account is not given)',
    bankCreateRefused(({ currency }) => (typeof currency === 'string' && FUND_CODES.has(currency.trim().toUpperCase()) ? ['currency', 'The selected currency is a fund code, not a currency an account is held in.'] : undefined)),
    only('banks'),
  ),
  reading(
    'allowed-r21-bank-list-by-iban',
    'banks',
    '4.10',
    'the bank list is ordered by IBAN (as text, the smallest first), as a team whose list query walks the unique index on the IBAN does (4.10: "List | GET /api/v1/user/{user}/bank | ... | 200 { data: [<Bank>] }": the order of the list is not given)',
    onAnswers([BANKS], (body) => {
      if (!Array.isArray(body?.data) || body.data.length < 2) return false;
      const iban = (bank: any): string => String(bank?.iban ?? '');
      body.data.sort((a: any, b: any) => (iban(a) < iban(b) ? -1 : iban(a) > iban(b) ? 1 : 0));
    }),
    only('banks'),
  ),

  // ---- Cards (4.6a)
  reading(
    'allowed-r21-card-expiry-both-ways-must-agree',
    'cards',
    '4.6a',
    'a card create that gives the expiry both ways, `expirationDate` and the pair `expirationMonth`/`expirationYear`, must give the same month and year both ways: when they differ it is refused 422 keyed by `expirationDate`, "The expiration date must match the expiration month and year."; one way alone, or both agreeing, is judged as by the reference (4.6a: "expirationDate | yes, unless both expirationMonth and expirationYear are given"; "expirationMonth | required when expirationDate is absent, and when expirationYear is given": which of two differing expiries is the card\u2019s is not given; the pair winning was an allowed reading of round 5)',
    {
      request(request) {
        const check = (get: (field: string) => string | undefined, spoil: () => void) => {
          const date = get('expirationDate');
          const month = get('expirationMonth');
          const year = get('expirationYear');
          if (!date || !month || !year) return;
          const parsed = /^\s*(\d{1,2})\/(\d{2}|\d{4})\s*$/.exec(date);
          if (!parsed || !/^\s*\d{1,2}\s*$/.test(month) || !/^\s*(\d{2}|\d{4})\s*$/.test(year)) return;
          const yy = (text: string) => Number(text.trim()) % 100;
          if (Number(parsed[1]) === Number(month.trim()) && yy(parsed[2]!) === yy(year)) return;
          refuse(request, 'expirationDate', 'The expiration date must match the expiration month and year.');
          spoil();
        };
        if (request.method !== 'POST' || routeOf(request) !== CARDS) return;
        onParsedBody(request, (body) => check((field) => (typeof body[field] === 'string' ? (body[field] as string) : undefined), () => (body.expirationDate = 'mismatch')));
        cardTextPartsHeld(request, (texts) => {
          const first = (field: string) => texts.find((part) => part?.fieldname === field && typeof part.value === 'string');
          check(
            (field) => first(field)?.value,
            () => {
              first('expirationDate').value = 'mismatch';
            },
          );
          return texts;
        });
      },
      wire: refusedAnswer,
    },
    only('cards'),
  ),
  reading(
    'allowed-r21-card-form-repeated-part-last-wins',
    'cards',
    '4.6a',
    'a card create\u2019s form that carries a text field twice (two parts named `alias`) takes the last one, as PHP fills `$_POST` (a later value of a name overwrites the earlier), where the reference takes the first; a form with each field once is read as by the reference (4.6a: "The card create request carries files, so the images travel as uploaded files"; the body table names each field once: what a form naming one twice means is not given)',
    {
      request(request) {
        cardTextPartsHeld(request, (texts) => {
          const last = new Map<string, any>();
          for (const part of texts) last.set(String(part?.fieldname), part);
          return [...last.values()];
        });
      },
    },
    only('cards'),
  ),
  reading(
    'allowed-r21-card-create-without-multipart-415',
    'cards',
    '4.6a',
    'a card create whose body is not `multipart/form-data` (a JSON body, say), which the reference reads and refuses 422 for its missing images, is answered 415 Unsupported Media Type `{ message }`, as a Spring or ASP.NET team whose card create consumes multipart/form-data only does; authentication and ownership are judged first, as by the reference (4.6a: "The card create request carries files, so the images travel as uploaded files"; 1.2: "Requests and responses are JSON": a card create that is no upload is not a request the text describes)',
    {
      wire(answer, reply) {
        if (answer.method !== 'POST' || answer.url !== CARDS || answer.status !== 422) return undefined;
        const request = reply.request as FastifyRequest & { isMultipart?: () => boolean };
        if (typeof request.isMultipart !== 'function' || request.isMultipart()) return undefined;
        return answerWith(reply, 415, { message: 'The card create takes multipart/form-data.' });
      },
    },
    only('cards'),
  ),
  reading(
    'allowed-r21-card-image-ids-keep-file-name',
    'cards',
    '2.5',
    'a card created through the interface shows each image\u2019s identifier as the object key of an S3-minded team, the content\u2019s digest then the uploaded file\u2019s own name made safe for a key (`card-images/<sha256>/front.png`), in the create\u2019s answer and in every list and show after it; cards written before (the provider states\u2019) keep theirs (2.5: "cardImage1 | string | Identifier of the stored first image": the form of the identifier is not given; readings giving paths, URLs and UUIDs were allowed)',
    {
      request: recordCardForm,
      wire: onAnswers(CARD_ROUTES, (body, answer, reply) => {
        let changed = false;
        const form = answer.method === 'POST' ? cardFormOf(reply.request) : undefined;
        for (const card of recordsOf(body)) {
          if (!card || typeof card.id !== 'string') continue;
          for (const field of ['cardImage1', 'cardImage2']) {
            const key = `${card.id.toLowerCase()}:${field}`;
            if (form && typeof card[field] === 'string' && !imageNames.has(key)) {
              const name = form[`${field}:filename`];
              if (typeof name === 'string') imageNames.set(key, `${card[field].replace(/\.[A-Za-z0-9]+$/, '')}/${keyOfName(name)}`);
            }
            const shown = imageNames.get(key);
            if (shown !== undefined && card[field] !== shown) {
              card[field] = shown;
              changed = true;
            }
          }
        }
        return changed;
      }).wire,
    },
    only('cards'),
  ),
  reading(
    'allowed-r21-card-upload-without-file-name-absent',
    'cards',
    '4.6a',
    'an image part whose file name is empty (`filename=""`, what a browser sends for a file input left empty) is no upload: the image is missing (422 "required" keyed by its field), as PHP marks it UPLOAD_ERR_NO_FILE and Laravel\u2019s `hasFile` finds nothing; a part with a file name is read as by the reference (4.6a: "cardImage1 | file | yes | image ..."; "the images travel as uploaded files": what an upload without a name is, is not given)',
    {
      request(request) {
        onCardParts(request, (source) =>
          (async function* () {
            for await (const part of source) {
              if (part?.type === 'file' && part.filename === '') {
                for await (const _chunk of part.file) {
                  // drained: the upload is dropped
                }
                continue;
              }
              yield part;
            }
          })(),
        );
      },
    },
    only('cards'),
  ),

  reading(
    'allowed-r21-card-text-fields-before-files',
    'cards',
    '4.6a',
    'a card create\u2019s form is read as a stream that takes its text fields before the images: a text part that comes after the first file part is not read (its field is missing, 422 "required" keyed by it), as a team streaming uploads straight to storage (Go\u2019s multipart.Reader, busboy piped to S3) needs the fields first; a form with its fields before its files is read as by the reference (4.6a: "The card create request carries files, so the images travel as uploaded files": the order of the form\u2019s parts is not given)',
    {
      request(request) {
        onCardParts(request, (source) =>
          (async function* () {
            let fileSeen = false;
            for await (const part of source) {
              if (part?.type === 'file') fileSeen = true;
              else if (fileSeen) continue;
              yield part;
            }
          })(),
        );
      },
    },
    only('cards'),
  ),

  reading(
    'allowed-r21-card-images-must-differ',
    'cards',
    '4.6a',
    'a card create whose two images are the same file (byte for byte) is refused 422 keyed by `cardImage2`, "The card image2 must be a photo of the card held by the user, not the card image again.", as a KYC team that dedupes uploads by digest refuses a second image that cannot show what the second image is for; two different images are read as by the reference (4.6a: "cardImage1 | file | yes | image; ...; the card image"; "cardImage2 | file | yes | same constraints; the card with the user holding it": the second image is another picture than the first; whether a server may check it is not given)',
    {
      request(request) {
        onCardParts(request, (source) =>
          (async function* () {
            const held: any[] = [];
            const digests = new Map<string, string>();
            for await (const part of source) {
              if (part?.type === 'file') {
                const chunks: Buffer[] = [];
                for await (const chunk of part.file as AsyncIterable<Buffer>) chunks.push(chunk);
                const truncated = Boolean(part.file.truncated);
                const bytes = Buffer.concat(chunks);
                if (!digests.has(part.fieldname) && bytes.length > 0) digests.set(part.fieldname, createHash('sha256').update(bytes).digest('hex'));
                part.file = Object.assign(Readable.from(chunks), { truncated });
              }
              held.push(part);
            }
            const same = digests.get('cardImage1') !== undefined && digests.get('cardImage1') === digests.get('cardImage2');
            if (same) refuse(request, 'cardImage2', 'The card image2 must be a photo of the card held by the user, not the card image again.');
            for (const part of held) if (!(same && part?.type === 'file' && part.fieldname === 'cardImage2')) yield part;
          })(),
        );
      },
      wire: refusedAnswer,
    },
    only('cards'),
  ),

  // ---- Bonuses (4.11, 2.5b, 2.7)
  reading(
    'allowed-r21-summary-omits-canceled-only-assets',
    'bonuses',
    '4.11',
    'the bonus asset summary leaves out an asset whose bonuses were all canceled (none distributed or pending), as a rewards page that shows what was earned does; an asset with a distributed or pending bonus is summarised as by the reference, canceled ones counted (4.11: "Asset summary | GET /api/v1/user/{user}/bonus/assets/{asset?} | ... | 200 { data: [<Bonus asset summary>] }"; 1: "read a user\u2019s bonuses and a per-asset bonus summary": which assets the summary holds is not given)',
    onAnswers([SUMMARY], (body) => {
      if (!Array.isArray(body?.data)) return false;
      const count = (entry: any, status: string): number => Number(entry?.[status]?.bonuses ?? 0);
      const kept = body.data.filter((entry: any) => !(count(entry, 'canceled') > 0 && count(entry, 'distributed') === 0 && count(entry, 'pending') === 0));
      if (kept.length === body.data.length) return false;
      body.data = kept;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r21-summary-amounts-in-minor-units',
    'bonuses',
    '2.5b',
    'the bonus asset summary\u2019s `amount`s are integers in the asset\u2019s minor units (the amount times ten to the asset\u2019s `precision`: 0.00012345 BTC is 12345), as a team that sums bonuses in integer base units (satoshi, wei, cents) to keep the sums exact does (2.5b: "S = { bonuses: integer, amount: number }"; 1.5: "A few summary amounts (bonus asset summary amount, total_supply) are JSON numbers": the unit of the number is not given, while the bonus record\u2019s amount is a decimal string)',
    onAnswers([SUMMARY], (body) => {
      if (!Array.isArray(body?.data)) return false;
      let changed = false;
      for (const entry of body.data) {
        for (const status of ['distributed', 'pending', 'canceled']) {
          const set = entry?.[status];
          const value = set ? minorUnits(set.amount, entry?.asset?.precision) : undefined;
          if (value === undefined) continue;
          set.amount = value;
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r21-summary-coins-before-fiat',
    'bonuses',
    '4.11',
    'the bonus asset summary lists the coin assets first and the fiat assets after them, each part by symbol, as a rewards page that shows crypto rewards above cash-backs does (4.11: "200 { data: [<Bonus asset summary>] }": the order of the list is not given)',
    onAnswers([SUMMARY], (body) => {
      if (!Array.isArray(body?.data) || body.data.length < 2) return false;
      const rank = (entry: any): number => (entry?.asset?.type === 'coin' ? 0 : entry?.asset?.type === 'fiat' ? 1 : 2);
      const symbol = (entry: any): string => String(entry?.asset?.symbol ?? '');
      body.data.sort((a: any, b: any) => rank(a) - rank(b) || (symbol(a) < symbol(b) ? -1 : symbol(a) > symbol(b) ? 1 : 0));
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r21-bonus-list-by-bonused-at',
    'bonuses',
    '4.11',
    'the bonus list is ordered by `bonusedAt`, the latest first (ties in the reference\u2019s order), as a rewards history that shows when each bonus was paid does (4.11: "List | GET /api/v1/user/{user}/bonus | ... | 200 { data: [<Bonus>] }": the order of the list is not given)',
    onAnswers([BONUSES], (body) => {
      if (!Array.isArray(body?.data) || body.data.length < 2) return false;
      const at = (bonus: any): number => (typeof bonus?.bonusedAt === 'number' ? bonus.bonusedAt : 0);
      body.data = body.data.map((bonus: any, index: number) => ({ bonus, index })).sort((a: any, b: any) => at(b.bonus) - at(a.bonus) || a.index - b.index).map((entry: any) => entry.bonus);
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r21-bonus-list-default-distributed-only',
    'bonuses',
    '4.11',
    'the bonus list without a `status` filter holds the distributed bonuses only (the bonuses paid), as a rewards history whose default is what the user received; pending and canceled bonuses are listed when asked by `status`, and are shown by id and summarised as by the reference (4.11: "List | ... | query status (optional; distributed, pending, canceled), platform (optional) | 200 { data: [<Bonus>] }": what the list holds when no status is asked is not given; a default hiding canceled bonuses was an allowed reading of round 15)',
    onAnswers([BONUSES], (body, _answer, reply) => {
      const status = ((reply.request.query ?? {}) as Record<string, unknown>).status;
      if ((typeof status === 'string' && status !== '') || Array.isArray(status) || !Array.isArray(body?.data)) return false;
      const kept = body.data.filter((bonus: any) => bonus?.status === 'distributed');
      if (kept.length === body.data.length) return false;
      body.data = kept;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r21-order-payment-currency-lower-case',
    'bonuses',
    '2.7',
    'an order\u2019s `payment.currency` is written lower-case (`eur`), as a team whose payments go through Stripe stores and shows the currency as Stripe writes it (2.7: "payment | object: method ..., currency, ...": the form of the currency is not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        const payment = order.payment;
        if (payment && typeof payment.currency === 'string' && payment.currency !== payment.currency.toLowerCase()) {
          payment.currency = payment.currency.toLowerCase();
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),

  // ---- Balances (2.2)
  reading(
    'allowed-r21-coin-links-whatwg-serialised',
    'balances',
    '2.2',
    'a coin\u2019s `meta.links` are written as the WHATWG URL serialiser writes them, so a link to a site\u2019s root ends with a slash (`https://bitcoin.org/`), as a team that stores links through `new URL(...).href` (or Python\u2019s pydantic `HttpUrl`) does (2.2: "meta | ... links (object with website, github, facebook, twitter)": the form of a link is not given)',
    onAnswers([COINS, COIN], (body) => {
      let changed = false;
      for (const coin of recordsOf(body)) {
        const links = coin?.meta?.links;
        if (!links || typeof links !== 'object') continue;
        for (const [name, value] of Object.entries(links)) {
          if (typeof value !== 'string' || !/^https?:\/\/[^/?#]+$/i.test(value)) continue;
          links[name] = `${value}/`;
          changed = true;
        }
      }
      return changed;
    }),
    only('balances'),
  ),
];

/*
 * Run against the suite (branch readings-r21 off main at ace333e): 25 of 29 conformant, 4 refused; the first two refused
 * below (false failures) fixed after the round by fix-r21 and registered, conformant since (`node bin/mutants.mjs
 * --shards 1 --mutant allowed-r21-card-text-fields-before-files --mutant allowed-r21-card-images-must-differ`: 2/2
 * conformant; `node bin/conformance.mjs run --group cards --mutant NAME`: 166 passed, 0 failed for each).
 * Conformant but changing nothing the suite sees (the runner said "changed no answer of its run"): the four JWT readings
 * (allowed-r21-jwt-typ-header-checked, -jwt-expire-fraction-412, -jwt-empty-email-claim-412, -jwt-payload-other-claims-412:
 * the suite's platform JWTs carry no `typ` other than JWT, a whole `expire`, no `email` beside `id`, and no claim but
 * email, id and expire; each was checked to answer 412 on a hand-made token), allowed-r21-bonus-list-by-bonused-at (the
 * lists the suite reads are already in that order), and, in the last run of all 25 together,
 * allowed-r21-summary-omits-canceled-only-assets and allowed-r21-summary-coins-before-fiat (no summary the suite read had
 * an asset with canceled bonuses only, or a fiat entry before a coin one; an earlier batch judged them alone). They pin a
 * reading for later suites only. The other 18 acted on answers of their runs, as far as the runner reports (each of
 * allowed-r21-card-expiry-both-ways-must-agree, -bank-ids-uuid-v5-of-iban, -bank-list-by-iban and
 * -order-payment-currency-lower-case was also run alone to see it change answers).
 * Refused (each run alone through `node bin/conformance.mjs run --group G --mutant NAME`; failure lines as printed):
 * - allowed-r21-card-text-fields-before-files (fixed after the round by fix-r21, registered): 59 of 166 cards tests fail, every one on a valid create, e.g. "GET
 *   .../card holds every record of a user who has 31 ...": "precondition: creating a valid card must answer 201 with
 *   data.id, got 422: {"message":"The holder name field is required. (and 5 more errors)", ...}"; "POST .../card
 *   answers 201 with the Card, echoing the fields sent, dated by its creation": expected 201, got 422. The suite's forms
 *   send cardImage1 and cardImage2 first and the text fields after them. FALSE FAILURE: 4.6a gives the form's fields
 *   as a table and says only that "the images travel as uploaded files"; no order of parts is given, RFC 7578 keeps the
 *   order a client sends, and a form whose text fields come before its files (as AWS S3's POST upload requires: "the
 *   file ... must be the last field in the form") is read alike by the reference and by this reading. The suite
 *   decides the point by sending files first, where a fields-first form would hold under every reading. Fixed: every
 *   card form sends its text parts first (MultipartForm `fieldsFirst`, also for a text part appended afterwards).
 * - allowed-r21-card-images-must-differ (fixed after the round by fix-r21, registered): 44 of 166 cards tests fail, e.g. "POST .../card answers 201 for an alias of
 *   191 characters": "expected status 201, got 422; body: {"message":"The card image2 must be a photo of the card held
 *   by the user, not the card image again.","errors":{"cardImage2":[...]}}", and every test whose precondition is
 *   "creating a valid card must answer 201, got 422". The suite's valid creates send the same file as both images.
 *   FALSE FAILURE: 4.6a describes two different pictures ("cardImage1 ... the card image"; "cardImage2 ... same
 *   constraints; the card with the user holding it"), so one file sent twice is not what the text describes for
 *   cardImage2, and two different images (the suite has them: "answers two different image identifiers for a card
 *   created with two different images") are accepted under every reading. The suite decides whether a server may
 *   refuse a second image identical to the first, which the text leaves open. Fixed: a valid card's second image is
 *   another picture (IMAGES.pngHeld: other pixels, other name), a row about one image sends the other as a different
 *   file, and the two 6 000 000-byte PNGs are two pictures of that exact size.
 * - allowed-r21-summary-amounts-in-minor-units: 1 of 68 bonuses tests fails, "GET .../bonus/assets/{asset?} has an
 *   entry per asset, in the summary of all assets and of that asset, compared with the listed bonuses": "sections 2.5b
 *   and 4.11: a summary entry's distributed, pending and canceled are the count and summed amount of the user's bonuses
 *   of that asset in that status: expected [ ...(10) ] to deeply equal []". FAIR REFUSAL: 2.5b gives the number no unit,
 *   but 1.5 names it among the "monetary and crypto amounts" ("A few summary amounts (bonus asset summary amount,
 *   total_supply) are JSON numbers"), which differ from the decimal-string amounts by their JSON type only; every
 *   amount of the interface is in the asset's own unit (decimal strings with up to 25 fractional digits; total_supply
 *   in whole coins), and a sum in base units (1e18 per ETH) is a change of unit the text never makes.
 * - allowed-r21-bonus-list-default-distributed-only: 8 of 68 bonuses tests fail, e.g. "GET .../bonus answers 200 with
 *   the user's bonuses as full records": "the list must hold bonus 94574d78-... of the provider state; it holds 2
 *   bonus(es)"; "GET .../bonus answers 200 with only pending bonuses for status=pending": "status=pending must list the
 *   0 pending bonus(es) of the unfiltered list (read before and after it), got 1"; "GET .../bonus holds each record
 *   once, only the caller's": "the list misses bonuses of the user". FAIR REFUSAL: 4.11 makes `status` an optional
 *   filter and 1 says the service lets a client "read a user's bonuses": a filter left out filters nothing, so the list
 *   without one holds the user's bonuses of every status. (The same class as round 15's refused
 *   allowed-r15-bonus-list-default-hides-canceled, found only after this one was written; it is kept here for its
 *   failure lines. A one-year default window, written at first, was dropped for the same reason.)
 */
const REFUSED = new Set<string>([
  'allowed-r21-summary-amounts-in-minor-units',
  'allowed-r21-bonus-list-default-distributed-only',
]);

export const readingsR21Refused: Mutant[] = readingsR21Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 21 (registered in index.ts; the two card-form ones since fix-r21): each must stay conformant. */
export const readingsR21Mutants: Mutant[] = readingsR21Written.filter((mutant) => !REFUSED.has(mutant.name));
