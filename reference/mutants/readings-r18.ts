import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { judgedDeviations, ALL, answerWith, createdIdsShownAs, digest, onAnswers, bankCreateRefused, onBankCreate, onCardFields, only, onParsedBody, ordersOf, parse, reading, recordsOf, refusalMarks, routeOf, tokenShownAs } from './reading.js';
import { AUTH, JWT, FORGOT, RESET, BANKS, BANK, CARDS, CARD, BONUS, SUMMARY, BONUS_ROUTES, BANK_ROUTES, CARD_ROUTES } from './routes.js';

/**
 * Reading round 18 (issue 28, "fair to the readings nobody listed"): implementation choices the specification leaves
 * open, each taken the other way from the reference, as a Django team (whose reset tokens hash the last login), a PHP
 * team (whose empty maps are written `[]`), a Kotlin/Ktor team on java-jwt (which checks the registered claims `exp`,
 * `nbf` and `iat`), a NestJS team (ParseUUIDPipe) or an Elixir/Phoenix team (an Ecto cast error) that answers 400 to a
 * malformed id, a Python team (strptime's `%y` pivot), a team on a multi-region active-active store (time-based UUIDs
 * with the region as node), a team with a second token table for platform logins, a card team that keeps to the
 * embossable characters and to two-digit months, a bank team that checks a BIC against its IBAN, keeps ISO 9362's
 * upper case, accepts an IBAN in its print form and lets one multi-currency IBAN hold several currencies, a team behind
 * a front proxy whose clock is behind, a team that answers a replayed create or reset idempotently, would take them,
 * reading only the specification (/work/shared/spec/interface.md), docs/provider-states.md, README.md,
 * docs/implementers.md and reference/. Written without reading the suite (suites/, helpers/, test/, explore/, schemas/,
 * docs/judging.md). None repeats a reading of rounds 1 to 17, of the reviews, of the white-box rounds or of the groups'
 * own `allowed-*` mutants (their 580 names, and the descriptions of the near ones, were read for that). Each description
 * quotes the text that leaves the point open. Readings change requests or answers only (no edit to reference/modules/):
 * a reading that refuses a request the reference accepts makes the reference refuse it (the field is emptied before the
 * handler reads it, so nothing is stored) and writes its own message for that field.
 * Run against the suite (main at 5a5b4c4, three batches): 19 of 25 stayed conformant and are registered; the 6 refused
 * (5 fair refusals, 1 false failure) are kept in `readingsR18Refused`: see the note above `REFUSED`. The false failure
 * (allowed-r18-iban-unique-per-currency) was fixed since and is registered (20 of 25).
 */


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNAUTHORIZED = 'This action is unauthorized.';

/** The params of the request an answer is for. */
const paramsOf = (reply: FastifyReply): Record<string, string> => (reply.request.params ?? {}) as Record<string, string>;
/** The bearer token of a request, when it sends one. */
const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];

/**
 * The fields a reading refuses in a request the reference would accept, with the reading's message: the field is
 * emptied before the handler reads it (so the reference refuses the request with 422 and stores nothing), and the 422's
 * message for that field is the reading's.
 */
const { refuse, refusedAnswer } = refusalMarks();

/** A card's `m/y` expiry as { month, year } (a two-digit year read as 20yy), or undefined. */
function expiryOf(text: unknown): { month: number; year: number } | undefined {
  const match = typeof text === 'string' ? /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(text) : null;
  if (!match) return undefined;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return undefined;
  return { month, year: match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]) };
}

/** A time-based (version 1) UUID of now, its node the region's (multicast bit set, RFC 9562 6.10), as Cassandra's timeuuid. */
const REGION_NODE = Buffer.from(digest('eu-west-1').slice(0, 12), 'hex');
REGION_NODE[0] = REGION_NODE[0]! | 0x01;
let v1Tick = 0n;
function uuidV1(): string {
  const ticks = BigInt(Date.now()) * 10_000n + 0x01b21dd213814000n + (v1Tick++ % 10_000n);
  const low = (ticks & 0xffffffffn).toString(16).padStart(8, '0');
  const mid = ((ticks >> 32n) & 0xffffn).toString(16).padStart(4, '0');
  const high = (((ticks >> 48n) & 0x0fffn) | 0x1000n).toString(16).padStart(4, '0');
  const clock = ((randomBytes(2).readUInt16BE(0) & 0x3fff) | 0x8000).toString(16).padStart(4, '0');
  return `${low}-${mid}-${high}-${clock}-${REGION_NODE.toString('hex')}`;
}

/** The JWT sessions' numeric ids, from their own table (a sequence started at 1,000,000,000). */
const jwtSequence = tokenShownAs((id, secret) => `${BigInt(id) + 1_000_000_000n}|${secret}`);

/** What the stateful readings remember. */
const ibanCurrencies = new Map<string, Set<string>>();
const ibanAliases = new Map<string, string>();
const forgotAt = new Map<string, number>();
const loginAt = new Map<string, number>();
const resets = new Map<string, { at: number; payload: string }>();
const bankCreates = new Map<string, { at: number; payload: string; id: string }>();
const deletedBanks = new Set<string>();
const sessionUsers = new Map<string, string>();

const lower = (value: unknown): string => String(value).trim().toLowerCase();

/** A bank create body's own checks (section 4.10's table), in Laravel's words, for the precedence reading. */
function bankCreateErrors(body: Record<string, unknown> | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const text = (field: string): string | undefined => (typeof body?.[field] === 'string' && body[field] !== '' ? (body[field] as string) : undefined);
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const bankName = text('bankName');
  const iban = text('iban');
  const swift = text('swift');
  const currency = text('currency');
  if (bankName === undefined) add('bankName', 'The bank name field is required.');
  else if ([...bankName].length > 191) add('bankName', 'The bank name field must not be greater than 191 characters.');
  if (iban === undefined) add('iban', 'The iban field is required.');
  else if (!/^[A-Za-z0-9]+$/.test(iban) || iban.length > 191) add('iban', 'The iban field must only contain letters and numbers, at most 191.');
  if (swift === undefined) add('swift', 'The swift field is required.');
  else if (!/^[A-Za-z0-9]{8,11}$/.test(swift)) add('swift', 'The swift field must be 8 to 11 letters and numbers.');
  if (currency === undefined) add('currency', 'The currency field is required.');
  else if (!/^[A-Za-z]{3}$/.test(currency)) add('currency', 'The selected currency is invalid.');
  return errors;
}

const readingsR18Written: Mutant[] = [
  // ---- Authentication (4.1, 2.1)
  reading(
    'allowed-r18-jwt-registered-claims-checked',
    'authentication',
    '4.1',
    'a platform JWT that carries the registered claims of RFC 7519 is also judged by them, as a Kotlin/Ktor team verifying with com.auth0 java-jwt (ktor-server-auth-jwt) is: an `exp` in the past answers 416 (expired), an `nbf` or an `iat` more than 60 seconds ahead answers 412 (payload invalid); a JWT without them is judged as by the reference (4.1: "JWT payload: one of email (string, user e-mail) or id (string, user ID), and expire (required, timestamp, must be now or later)"; "412 (JWT payload invalid), 416 (JWT expired)": what other claims a payload may carry, and whether they are read, is not given)',
    {
      wire(answer, reply) {
        if (answer.method !== 'POST' || answer.url !== JWT || answer.status !== 200) return undefined;
        const token = reply.request.headers.token;
        const middle = typeof token === 'string' ? token.split('.')[1] : undefined;
        let claims: any;
        try {
          claims = middle ? JSON.parse(Buffer.from(middle, 'base64url').toString('utf8')) : undefined;
        } catch {
          return undefined;
        }
        const now = Date.now() / 1000;
        if (typeof claims?.exp === 'number' && claims.exp < now) return answerWith(reply, 416, { error: 'The JWT has expired.' });
        if ((typeof claims?.nbf === 'number' && claims.nbf > now + 60) || (typeof claims?.iat === 'number' && claims.iat > now + 60)) return answerWith(reply, 412, { error: 'The JWT payload is invalid.' });
        return undefined;
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r18-jwt-token-ids-own-sequence',
    'authentication',
    '2.1',
    'the sessions of platform (JWT) logins are rows of their own table, whose ids count from 1,000,000,000, so a JWT session\u2019s token is `1000000017|<secret>` while a password login\u2019s is `17|<secret>`, as a team that keeps platform sessions apart from personal ones (two token tables) numbers them (2.1: "id | string | Access token, form <numeric_id>|<secret>": how the numeric id is counted, and whether one counter serves both ways of login, is not given)',
    { request: (request: FastifyRequest) => jwtSequence.request(request), wire: (answer: WireAnswer) => (answer.url === JWT ? jwtSequence.wire(answer) : undefined) },
    ALL,
  ),
  reading(
    'allowed-r18-front-proxy-date-behind',
    'authentication',
    '1',
    'every answer\u2019s `Date` header is written by a front proxy whose clock is 90 seconds behind the service\u2019s (the body\u2019s times, `created`, `until`, `createdAt`, come from the service\u2019s own clock), as behind a load balancer or an Envoy whose host lost its time sync (the specification says nothing of the Date header, nor of which clock the body\u2019s times follow; 2.1: "until | ISO 8601 UTC timestamp, expiry"; "created | ISO 8601 UTC timestamp, creation")',
    {
      wire(_answer, reply) {
        reply.header('date', new Date(Date.now() - 90_000).toUTCString());
        return undefined;
      },
    },
    ALL,
  ),

  // ---- Password (4.3, 4.4)
  reading(
    'allowed-r18-reset-token-void-after-login',
    'password',
    '4.4',
    'a reset token e-mailed before the account\u2019s latest successful login is invalid (422 keyed by `token`), as Django\u2019s PasswordResetTokenGenerator makes it: the token hashes the user\u2019s `last_login`, so logging in after asking for a reset voids the e-mail; a token asked for after the latest login resets as by the reference (4.4: "token | string | yes | max 255; the token received by e-mail"; "422 when the token is invalid (errors map keyed by token)": what makes a token invalid is not given)',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== RESET) return;
        onParsedBody(request, (body) => {
          if (typeof body.email !== 'string' || typeof body.token !== 'string') return;
          const asked = forgotAt.get(lower(body.email));
          const logged = loginAt.get(lower(body.email));
          if (asked === undefined || logged === undefined || logged <= asked) return;
          body.token = '';
          refuse(request, 'token', 'This password reset token is invalid.');
        });
      },
      wire(answer, reply) {
        const body = reply.request.body as Record<string, unknown> | undefined;
        if (answer.method === 'POST' && answer.status === 200 && typeof body?.email === 'string') {
          if (answer.url === FORGOT) forgotAt.set(lower(body.email), Date.now());
          if (answer.url === AUTH) loginAt.set(lower(body.email), Date.now());
        }
        return refusedAnswer(answer, reply);
      },
    },
    only('password', 'authentication'),
  ),
  reading(
    'allowed-r18-reset-identical-retry-200',
    'password',
    '4.4',
    'a reset-password sent again within ten minutes with the same e-mail, token and password as one answered 200 is answered 200 again, with the same message (the retry of a request whose answer was lost: the password already is the one asked for), as an idempotent endpoint answers a replay; any other use of a spent token is still 422 keyed by `token` (4.4: "200: { data: { message: string } }. 422 when the token is invalid (errors map keyed by token)": whether a token is spent by its first use, and what an identical repeat answers, is not given)',
    {
      wire(answer, reply) {
        if (answer.method !== 'POST' || answer.url !== RESET) return undefined;
        const body = reply.request.body as Record<string, unknown> | undefined;
        if (typeof body?.email !== 'string' || typeof body.token !== 'string' || typeof body.password !== 'string') return undefined;
        const key = digest(`${lower(body.email)}\n${body.token}\n${body.password}`);
        if (answer.status === 200) {
          resets.set(key, { at: Date.now(), payload: answer.payload });
          return undefined;
        }
        const earlier = resets.get(key);
        if (answer.status !== 422 || !earlier || Date.now() - earlier.at > 600_000) return undefined;
        reply.code(200);
        reply.removeHeader('content-length');
        return earlier.payload;
      },
    },
    only('password'),
  ),

  // ---- Banks (4.10, 2.4)
  reading(
    'allowed-r18-iban-spaces-removed',
    'banks',
    '4.10',
    'an IBAN sent in its print form, in groups of four with single spaces (`DE89 3704 0044 0532 0130 00`), is read without the spaces and stored, shown and judged for uniqueness in its electronic form, as a bank team normalises an IBAN before validating it (ISO 13616 gives both forms); an IBAN with any other character is refused as by the reference (4.10: "iban | string | yes | max 191, alphanumeric, unique": whether the rule holds for the text as sent or for the IBAN it writes is not given)',
    {
      request(request) {
        onBankCreate(request, (body) => {
          if (typeof body.iban !== 'string' || !/^[A-Za-z0-9]+( [A-Za-z0-9]+)+$/.test(body.iban)) return;
          body.iban = body.iban.replace(/ /g, '');
        });
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r18-swift-country-matches-iban',
    'banks',
    '4.10',
    'a create whose BIC names another country than its IBAN (the BIC\u2019s letters 5 and 6 against the IBAN\u2019s first two) is refused 422 keyed by `swift`, as a SEPA bank team checks that the BIC belongs to the IBAN\u2019s country; a BIC of the IBAN\u2019s country is judged as by the reference (4.10: "swift | string | yes | alphanumeric, length 8 to 11"; 7: "422 | bank create | invalid field, for example an unknown currency": which checks make a field invalid is given by example only)',
    bankCreateRefused(({ iban, swift }) => {
      if (typeof iban !== 'string' || typeof swift !== 'string' || !/^[A-Za-z]{2}/.test(iban) || !/^[A-Za-z0-9]{8,11}$/.test(swift)) return undefined;
      if (swift.slice(4, 6).toUpperCase() === iban.slice(0, 2).toUpperCase()) return undefined;
      return ['swift', `The swift code must be of the IBAN's country (${iban.slice(0, 2).toUpperCase()}).`];
    }),
    only('banks'),
  ),
  reading(
    'allowed-r18-swift-upper-case-only',
    'banks',
    '4.10',
    'a BIC written with lower-case letters is refused 422 keyed by `swift`, as a validator of ISO 9362 (whose BIC is upper-case letters and digits only) refuses it; an upper-case BIC is judged as by the reference (4.10: "swift | string | yes | alphanumeric, length 8 to 11"; 7: "422 | bank create | invalid field": the letter case of an alphanumeric SWIFT code is not given)',
    bankCreateRefused(({ swift }) => (typeof swift === 'string' && /[a-z]/.test(swift) ? ['swift', 'The swift code must be written in capital letters and digits (ISO 9362).'] : undefined)),
    only('banks'),
  ),
  reading(
    'allowed-r18-bank-name-needs-a-letter',
    'banks',
    '4.10',
    'a `bankName` with no letter in it (only digits, punctuation or spaces, `12345`, `---`) is refused 422 keyed by `bankName`, as a team whose name rule is Laravel\u2019s `regex:/\\pL/` refuses it; any name with a letter of any script is judged as by the reference (4.10: "bankName | string | yes | max 191"; 7: "422 | bank create | invalid field, for example an unknown currency": what else makes a name invalid is not given)',
    bankCreateRefused(({ bankName }) => (typeof bankName === 'string' && bankName.trim() !== '' && !/\p{L}/u.test(bankName) ? ['bankName', 'The bank name must contain at least one letter.'] : undefined)),
    only('banks'),
  ),
  reading(
    'allowed-r18-iban-unique-per-currency',
    'banks',
    '4.10',
    'an IBAN is unique per currency: a second bank with an IBAN already created through the interface and another currency is created (201), as a multi-currency account (one IBAN, several currency pockets, as Wise or Revolut give) is added once per currency; the same IBAN with the same currency is still refused 422 keyed by `iban` (4.10: "iban | string | yes | max 191, alphanumeric, unique"; 8: "bank.iban | max 191, unique": the scope of the uniqueness is not given, and readings that scope it per user or per platform were allowed)',
    {
      request(request) {
        onBankCreate(request, (body) => {
          const { iban, currency } = body;
          if (typeof iban !== 'string' || typeof currency !== 'string' || !/^[A-Za-z0-9]+$/.test(iban) || !/^[A-Za-z]{3}$/.test(currency) || iban.length > 185) return;
          const held = ibanCurrencies.get(iban.toUpperCase());
          if (!held || held.has(currency.toUpperCase())) return;
          const alias = `${iban}Q18${currency.toUpperCase()}`;
          ibanAliases.set(alias.toUpperCase(), iban);
          body.iban = alias;
        });
      },
      wire(answer) {
        if (!BANK_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        let changed = false;
        for (const record of recordsOf(body)) {
          if (typeof record?.iban !== 'string') continue;
          const original = ibanAliases.get(record.iban.toUpperCase());
          const iban = original ?? record.iban;
          if (answer.method === 'POST' && answer.status === 201) {
            const held = ibanCurrencies.get(iban.toUpperCase()) ?? new Set<string>();
            held.add(String(record.currency).toUpperCase());
            ibanCurrencies.set(iban.toUpperCase(), held);
          }
          if (original !== undefined) {
            record.iban = original;
            changed = true;
          }
        }
        return changed ? JSON.stringify(body) : undefined;
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r18-bank-country-member',
    'banks',
    '2.4',
    'each bank record also carries `country`, the ISO 3166 code its IBAN begins with (`"DE"`), as Stripe\u2019s and Plaid\u2019s bank-account objects carry one (2.4 lists the fields a bank record has, and no rule of the text forbids a record more members; readings answering other extra members were allowed)',
    onAnswers(BANK_ROUTES, (body) => {
      const records = recordsOf(body).filter((record) => typeof record?.iban === 'string');
      if (records.length === 0) return false;
      for (const record of records) record.country = /^[A-Za-z]{2}/.test(record.iban) ? record.iban.slice(0, 2).toUpperCase() : null;
    }),
    only('banks'),
  ),
  reading(
    'allowed-r18-bank-validation-before-platform-refusal',
    'banks',
    '4.10',
    'a bank create the platform forbids the account (state `user.forbidden`) whose body also breaks a rule of 4.10\u2019s table is answered 422 with those fields\u2019 errors, as a team whose form request validates before its policy (a NestJS ValidationPipe before the guard\u2019s handler check) answers; a valid body still gets the 403 (4.10: "Errors: create 401, 403, 422"; 5.6: "Access to another user\u2019s resources, or an unauthorized action, yields 403 or 409": which of two failures is answered first is not given)',
    {
      wire(answer, reply) {
        if (isSession(answer)) {
          const data = parse(answer.payload)?.data;
          if (typeof data?.id === 'string' && typeof data.userId === 'string') sessionUsers.set(data.id, lower(data.userId));
          return undefined;
        }
        if (answer.method !== 'POST' || answer.url !== BANKS || (answer.status !== 403 && answer.status !== 409)) return undefined;
        if (parse(answer.payload)?.message !== UNAUTHORIZED) return undefined;
        const bearer = bearerOf(reply.request);
        const user = bearer ? sessionUsers.get(bearer) : undefined;
        if (user === undefined || user !== lower(paramsOf(reply).user)) return undefined;
        const errors = bankCreateErrors(reply.request.body as Record<string, unknown> | undefined);
        const messages = Object.values(errors).flat();
        if (messages.length === 0) return undefined;
        const more = messages.length - 1;
        return answerWith(reply, 422, { message: more > 0 ? `${messages[0]} (and ${more} more error${more > 1 ? 's' : ''})` : messages[0], errors });
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r18-bank-create-replay-answers-record',
    'banks',
    '4.10',
    'a bank create repeated within a minute by the same session with the same body as one answered 201 is answered 201 with the record the first one created (nothing new is stored), as an idempotent create answers the retry of a request whose answer was lost; the same IBAN sent by another session, with another body, after a minute or after that bank was deleted is refused 422 as by the reference (4.10: "iban | ... | unique"; "Create ... 201 { data: <Bank> }"; 7: "422 | bank create | invalid field": the uniqueness holds, as one bank has the IBAN; what an identical repeat answers is not given)',
    {
      wire(answer, reply) {
        if (answer.method === 'DELETE' && answer.url === BANK && answer.status === 200) deletedBanks.add(lower(paramsOf(reply).bank));
        if (answer.method !== 'POST' || answer.url !== BANKS) return undefined;
        const body = reply.request.body as Record<string, unknown> | undefined;
        if (!body || typeof body !== 'object') return undefined;
        const key = digest(JSON.stringify([bearerOf(reply.request) ?? '', lower(paramsOf(reply).user), body.bankName, body.iban, body.swift, body.currency]));
        if (answer.status === 201) {
          bankCreates.set(key, { at: Date.now(), payload: answer.payload, id: lower(parse(answer.payload)?.data?.id) });
          return undefined;
        }
        const earlier = bankCreates.get(key);
        if (answer.status !== 422 || !earlier || Date.now() - earlier.at > 60_000 || deletedBanks.has(earlier.id)) return undefined;
        reply.code(201);
        reply.removeHeader('content-length');
        return earlier.payload;
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r18-created-ids-uuid-v1',
    'banks',
    '1',
    'the banks and cards created through the interface get time-based (version 1) UUIDs whose node is the region that wrote them, as a team on a multi-region active-active store (Cassandra\u2019s timeuuid) gives its new rows; records written before (the provider states\u2019) keep theirs, and every id is read back in paths as it was answered (1.6: "{bank}, {bonus} and {card} are record IDs (UUID strings)"; 2.4 and 2.5: "id | string (UUID)": which version of UUID is not given)',
    createdIdsShownAs(uuidV1),
    only('banks', 'cards'),
  ),

  // ---- Cards (4.6a, 2.5)
  reading(
    'allowed-r18-card-month-two-digits-required',
    'cards',
    '4.6a',
    'a card expiry\u2019s month must be written with two digits, as PHP\u2019s date letter `m` writes it ("01 through 12"): `07/29` is a date, `7/29` is refused 422 keyed by `expirationDate`, and an `expirationMonth` of `7` 422 keyed by `expirationMonth` (4.6a: "expirationDate | ... | format m/y"; "expirationMonth | ... | format m": the letters are not defined; in PHP\u2019s date format `m` is the month with leading zeros, `n` the one without)',
    {
      request(request) {
        onCardFields(request, (field, value) => {
          if (field === 'expirationDate' && /^\d\/\d+$/.test(value)) {
            refuse(request, field, 'The expiration date field must match the format mm/yy.');
            return 'x';
          }
          if (field === 'expirationMonth' && /^\d$/.test(value)) {
            refuse(request, field, 'The expiration month field must match the format mm.');
            return 'x';
          }
          return undefined;
        });
      },
      wire: refusedAnswer,
    },
    only('cards'),
  ),
  reading(
    'allowed-r18-card-two-digit-year-posix-pivot',
    'cards',
    '4.6a',
    'a two-digit expiry year is read as Python\u2019s `strptime("%y")` reads it (POSIX: 69 to 99 are 1969 to 1999, 00 to 68 are 2000 to 2068), so `12/75` is a past date and refused 422 keyed by `expirationDate` (an `expirationYear` of `75` keyed by `expirationYear`); years 00 to 68 are judged as by the reference (4.6a: "expirationDate | ... | format m/y; not in the past"; "expirationYear | ... | format y; not in the past": the century of a two-digit year is not given)',
    {
      request(request) {
        onCardFields(request, (field, value) => {
          if (field === 'expirationDate' && /^\d{1,2}\/(69|[7-9]\d)$/.test(value)) {
            refuse(request, field, 'The expiration date field must be a date after or equal to today.');
            return 'x';
          }
          if (field === 'expirationYear' && /^(69|[7-9]\d)$/.test(value)) {
            refuse(request, field, 'The expiration year field must be a date after or equal to today.');
            return 'x';
          }
          return undefined;
        });
      },
      wire: refusedAnswer,
    },
    only('cards'),
  ),
  reading(
    'allowed-r18-holder-name-embossable-characters',
    'cards',
    '4.6a',
    'a `holderName` with a character a card can not be embossed with (a digit, an emoji, a symbol other than `.`, `\'` and `-`) is refused 422 keyed by `holderName`, as a card team keeps names to what the card shows; letters of any script, their marks and spaces are judged as by the reference (4.6a: "holderName | string | yes | max 191"; 7: "422 | card create | invalid or missing field, for example lastFourDigits": what else makes a field invalid is not given)',
    {
      request(request) {
        onCardFields(request, (field, value) => {
          if (field !== 'holderName' || value.trim() === '' || /^[\p{L}\p{M} .'\u2019-]+$/u.test(value)) return undefined;
          refuse(request, field, 'The holder name may only contain letters, spaces, apostrophes, hyphens and periods.');
          return '';
        });
      },
      wire: refusedAnswer,
    },
    only('cards'),
  ),
  reading(
    'allowed-r18-card-expires-at-member',
    'cards',
    '2.5',
    'each card record also carries `expiresAt`, the Unix second its expiry month ends (UTC), beside `expirationDate`, as an API that gives every time also as a timestamp writes it (2.5 lists the fields a card record has, and no rule of the text forbids a record more members; 1.4 names the timestamps that are Unix seconds, of which a new one follows the form)',
    onAnswers(CARD_ROUTES, (body) => {
      const records = recordsOf(body).filter((record) => record && typeof record === 'object' && 'expirationDate' in record);
      if (records.length === 0) return false;
      for (const record of records) {
        const expiry = expiryOf(record.expirationDate);
        record.expiresAt = expiry ? Date.UTC(expiry.year, expiry.month, 1) / 1000 - 1 : null;
      }
    }),
    only('cards'),
  ),
  reading(
    'allowed-r18-card-list-hides-expired',
    'cards',
    '4.6a',
    'the card list leaves out the cards whose expiry month is over, as a wallet lists only the cards a user can still pay with; an expired card is still shown by its id (4.6a: "List | GET /api/v1/user/{user}/card | ... | 200 { data: [<Card>] }": which of the user\u2019s cards a list holds is not given)',
    onAnswers([CARDS], (body, answer) => {
      if (answer.method !== 'GET' || !Array.isArray(body?.data)) return false;
      const now = new Date();
      const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
      const kept = body.data.filter((record: any) => {
        const expiry = expiryOf(record?.expirationDate);
        return !expiry || expiry.year * 12 + expiry.month >= thisMonth;
      });
      if (kept.length === body.data.length) return false;
      body.data = kept;
    }),
    only('cards'),
  ),

  // ---- Ids in paths (1.6, 7)
  reading(
    'allowed-r18-malformed-record-id-400',
    'banks',
    '7',
    'a `{bank}`, `{card}` or `{bonus}` that is not a UUID is answered 400 `{ message }` where the reference answers 404, as an Elixir/Phoenix team whose Ecto cast of the id fails (Ecto.Query.CastError, answered 400 by Plug) or a NestJS team with ParseUUIDPipe answers; a well-formed id of no record is still 404 (1.6: "{bank}, {bonus} and {card} are record IDs (UUID strings)"; 7: "404 | bank show, bonus show, card show | no record found": a text that is no record ID at all is not a lookup that found nothing, and what it answers is not given)',
    {
      wire(answer, reply) {
        if (answer.status !== 404 || ![BANK, CARD, BONUS].includes(answer.url)) return undefined;
        const params = paramsOf(reply);
        const id = params.bank ?? params.card ?? params.bonus;
        if (typeof id !== 'string' || UUID.test(id)) return undefined;
        return answerWith(reply, 400, { message: 'The record id must be a UUID.' });
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r18-malformed-user-id-400',
    'balances',
    '7',
    'a `{user}` that is not a UUID is answered 400 `{ message }` by an authenticated request (401 still comes first), as a NestJS team with `ParseUUIDPipe` on the path parameter or a FastAPI team with a `UUID`-typed one (which answers 422 in its own form; this team answers 400) answers before the handler looks at the owner; a UUID of another user is answered as by the reference (1.6: "A path segment written {user} is the user ID (UUID string)"; 5.6 gives 403 or 409 for "another user\u2019s resources": a text that is no user ID names no user, and what it answers is not given)',
    {
      wire(answer, reply) {
        if (![403, 404, 409].includes(answer.status) || !answer.url.startsWith('/api/v1/user/:user/')) return undefined;
        const user = paramsOf(reply).user;
        if (typeof user !== 'string' || UUID.test(user)) return undefined;
        return answerWith(reply, 400, { message: 'The user id must be a UUID.' });
      },
    },
    ALL,
  ),

  // ---- Bonuses (2.5b, 2.7)
  reading(
    'allowed-r18-bonus-summary-total-member',
    'bonuses',
    '2.5b',
    'each bonus asset summary also carries `total: { bonuses, amount }`, the sums over its three statuses, as a dashboard API gives the row total beside its columns (2.5b: "{ asset: <asset summary>, orders: integer, distributed: S, pending: S, canceled: S }": no rule of the text forbids a summary more members; readings answering extra members elsewhere were allowed)',
    onAnswers([SUMMARY], (body) => {
      if (!Array.isArray(body?.data) || body.data.length === 0) return false;
      for (const entry of body.data) {
        if (!entry || typeof entry !== 'object') continue;
        const parts = ['distributed', 'pending', 'canceled'].map((status) => entry[status]).filter((s) => s && typeof s === 'object');
        const amount = parts.reduce((sum, s) => sum + (typeof s.amount === 'number' ? s.amount : 0), 0);
        entry.total = { bonuses: parts.reduce((sum, s) => sum + (typeof s.bonuses === 'number' ? s.bonuses : 0), 0), amount: Math.round(amount * 1e8) / 1e8 };
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r18-payment-meta-php-empty-array',
    'bonuses',
    '2.7',
    'an order\u2019s empty `payment.meta` is written `[]`, as PHP\u2019s `json_encode` writes an empty array (Laravel\u2019s casts of a JSON column to `array` give one), not `{}` (2.7: "payment | object: method (value seen: bank), id, meta, url, currency, ...": `meta` is named with no type, unlike the order\u2019s own `meta` ("object with main (array)"))',
    onAnswers(BONUS_ROUTES, (body) => {
      const payments = ordersOf(body)
        .map((order) => order.payment)
        .filter((payment) => payment && typeof payment.meta === 'object' && payment.meta !== null && !Array.isArray(payment.meta) && Object.keys(payment.meta).length === 0);
      if (payments.length === 0) return false;
      for (const payment of payments) payment.meta = [];
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r18-proof-uploaded-false',
    'bonuses',
    '2.7',
    'an order whose payment has no proof uploaded writes `proofUploaded: false`, as a team with a boolean column defaulting to false writes it, not null (2.7: "proofUploaded (nullable)": its type is not given, and null is allowed, not required)',
    onAnswers(BONUS_ROUTES, (body) => {
      const payments = ordersOf(body)
        .map((order) => order.payment)
        .filter((payment) => payment && typeof payment === 'object' && payment.proofUploaded === null);
      if (payments.length === 0) return false;
      for (const payment of payments) payment.proofUploaded = false;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r18-payment-id-number',
    'bonuses',
    '2.7',
    'an order\u2019s `payment.id` is the payment provider\u2019s numeric id, written as a JSON number (the same for one payment at every read), as a team storing a PSP\u2019s integer key writes it (2.7: "payment | object: method (value seen: bank), id, meta, url, currency, ...": the payment\u2019s `id` is named with no type, while the order\u2019s own `id` is "string (UUID)")',
    onAnswers(BONUS_ROUTES, (body) => {
      const payments = ordersOf(body)
        .map((order) => order.payment)
        .filter((payment) => payment && typeof payment.id === 'string');
      if (payments.length === 0) return false;
      for (const payment of payments) payment.id = Number.parseInt(digest(payment.id).slice(0, 12), 16);
    }),
    only('bonuses'),
  ),
];

/** Whether an answer issues a Session (a login or a JWT login answered 200). */
function isSession(answer: WireAnswer): boolean {
  return answer.status === 200 && (answer.url === AUTH || answer.url === JWT);
}

/*
 * Run against the suite (main at 5a5b4c4, `nice -n 19 node bin/mutants.mjs --shards 1` in three batches of 9, 8 and 8):
 * 19 of 25 stayed conformant; the 6 refused are kept in `readingsR18Refused` below, each with its failing tests (from
 * `node bin/conformance.mjs run --group G --mutant NAME`) and the argument:
 * - allowed-r18-iban-spaces-removed (1 test, banks): "POST .../bank answers 422 for an iban with spaces": "expected 422,
 *   got 201". Text: 4.10 "iban | string | yes | max 191, alphanumeric, unique". Judgement: a fair refusal. The
 *   constraint is on the field as sent (the lead's ruling of issue 27: "the constraint columns are exhaustive"), and a
 *   text with spaces is not alphanumeric; that a bank may normalise the print form is a leniency the text does not give.
 * - allowed-r18-swift-country-matches-iban (2 tests, banks): "... answers 201 for swift codes of 8 to 11 alphanumerics
 *   that are not BICs": "section 4.10: swift "xdxejcs3" is valid (bank.swift.length), so bank create must answer 201;
 *   got 422: {"message":"The swift code must be of the IBAN's country (DE)." ...}"; "... answers 201 for ibans of digits
 *   only, of letters only and of digits before letters": "section 4.10: iban "FAEEGEDCDEHICDJD" is valid
 *   (bank.iban.alphanumeric), so bank create must answer 201; got 422 ...". Text: 4.10 "swift | alphanumeric, length 8
 *   to 11". Judgement: a fair refusal, by the lead's judgement of allowed-r12-swift-bic-structure and
 *   allowed-r12-iban-checksum-validated (the constraint column is the whole rule of a field). Written before this
 *   reader knew of that judgement (its description first cited those readings as allowed; corrected).
 * - allowed-r18-swift-upper-case-only (1 test, banks): the same test: "swift "xa1mcj13" is valid (bank.swift.length), so
 *   bank create must answer 201; got 422: {"message":"The swift code must be written in capital letters and digits (ISO
 *   9362)." ...}". Judgement: a fair refusal, for the same reason ("alphanumeric" includes lower-case letters).
 * - allowed-r18-bank-name-needs-a-letter (1 test, banks): "... answers 201 for bankNames with the markup and quoting
 *   characters and ...": "section 4.10: bankName "1822" is valid (bank.bankName.max), so bank create must answer 201; got
 *   422: {"message":"The bank name must contain at least one letter." ...}". Text: 4.10 "bankName | string | yes | max
 *   191". Judgement: a fair refusal under the same ruling ("max 191" is the whole rule; "1822" is a real bank's name).
 * - allowed-r18-holder-name-embossable-characters (1 test, cards): "POST .../card answers 201 for holderNames and aliases
 *   with apostrophes, straight and curly, ...": "section 4.6a: holderName "Siobhán O’Brien 𠮷😀" and alias "O'Hara’s card"
 *   are strings far under 191 characters, so card create must answer 201; got 422". Text: 4.6a "holderName | string |
 *   yes | max 191". Judgement: a fair refusal under the same ruling (the emoji is what the reading refused).
 * - allowed-r18-iban-unique-per-currency (3 tests, banks): "POST .../bank answers 422 for an IBAN that another bank
 *   already has, and stores nothing": "expected 422, got 201"; "... answers a case variant of a taken IBAN alike both
 *   ways (201 or 422: whether case counts is not said)": "the lower-case copy of a taken upper-case IBAN answered 201,
 *   the upper-case copy of a taken lower-case IBAN answered 422; whether case counts or not, it counts alike both ways";
 *   "... stores nothing and changes nothing when a create is refused (an invalid field naming an existing record,
 *   another user's path, no token), and reserves no iban": "expected 201 or 401 or 403 or 409 or 422, got 201". Text:
 *   4.10 "iban | ... | unique"; 8 "bank.iban | max 191, unique": the scope of the uniqueness is not given (per user and
 *   per platform are registered readings). Judgement: a false failure (contestable). The three tests send the copy of a
 *   taken IBAN with another currency than the first bank's (the reading answers 201 only to such a copy; not confirmed
 *   in the suites' source, which this reader may not read), so they decide that uniqueness is not scoped by currency. A suite fair to this reading sends the copy with the first bank's currency (then every scope,
 *   per user, per platform, per currency or global, refuses it) and advises on a 201 for another currency.
 * Fixed since (branch fix-wb15c) and registered, conformant: allowed-r18-iban-unique-per-currency. The duplicate-IBAN
 * tests of suites/banks.test.ts and the refused-create check of helpers/arrange/invariants.ts send the copy of a taken
 * IBAN in the first bank's currency (same user, same platform), which every scope refuses; a new advisory test sends the
 * user's own IBAN in another currency and advises on a 201 (docs/judging.md, "Scope of uniqueness"). The deviation
 * wb2-banks-iban-unique-per-currency, which it cannot be told from, moved to roundWb2NotDeviations.
 * Conformant but changing nothing the suite sees (the runner said "changed no answer of its run"):
 * allowed-r18-bank-validation-before-platform-refusal (no invalid create by a forbidden account) and
 * allowed-r18-bank-create-replay-answers-record (no identical create repeated). allowed-r18-card-list-hides-expired was
 * judged alone ("changed nothing when together with 1 other reading"); the others acted on answers or requests of
 * their runs as far as the runner reports (no per-reading trace was read: see the report).
 */
const REFUSED = new Set<string>([
  'allowed-r18-iban-spaces-removed',
  'allowed-r18-swift-country-matches-iban',
  'allowed-r18-swift-upper-case-only',
  'allowed-r18-bank-name-needs-a-letter',
  'allowed-r18-holder-name-embossable-characters',
]);

export const readingsR18Refused: Mutant[] = readingsR18Written.filter((mutant) => REFUSED.has(mutant.name));

/**
 * The fair refusals of round 18 as the deviations they were judged (registered in index.ts after review-ac, which found
 * them pinned by no mutant): the suite must kill each (docs/judging.md, "The constraint columns are exhaustive"; the
 * IBAN's spaces: "Normalisation before validation").
 */
export const readingsR18JudgedDeviations: Mutant[] = judgedDeviations(readingsR18Refused, `: a rule beyond the field's column (the lead's ruling)`);

/** The readings of round 18 (registered in index.ts): each must stay conformant. */
export const readingsR18Mutants: Mutant[] = readingsR18Written.filter((mutant) => !REFUSED.has(mutant.name));
