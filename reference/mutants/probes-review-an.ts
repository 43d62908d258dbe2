import { createHash } from 'node:crypto';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { onBankCreate, onCardFields, onParsedBody, only, parse, reading, recordsOf, routeOf } from './reading.js';
import { AUTH, BALANCE_ROUTES, BONUS, COIN, FORGOT, NFT, RESET } from './routes.js';

/**
 * review-an (issue 28, "fair to the readings nobody listed"): a read-only fairness review of explore/, helpers/states/,
 * the security scan, schemas/ and the newest changes. Each probe takes one choice the text leaves open, the other way
 * from the reference. Each description quotes the text that leaves the point open. Verdicts when written (bin/mutants.mjs
 * for the suites; bin/conformance.mjs explore --mutant for the properties of `conformance explore`, which no self-test
 * judges allowed readings with):
 * - P1 allowed-review-an-path-ids-uuid-v4-pipe: suites conformant; explore fails 8 properties (paths.ts unknownIdProperty,
 *   otherUserProperty: fc.uuid() draws versions 1 to 8).
 * - P2 allowed-review-an-login-email-dns-checked-before-credentials: suites conformant; explore fails "a valid e-mail of at
 *   most 191 characters passes validation" (values.ts plainEmail writes every address under .test).
 * - P3 allowed-review-an-texts-stored-nfkc: suites conformant; explore fails both "stored as sent" properties (as it fails
 *   allowed-r7-texts-stored-nfkc, the same storage read from the answer side).
 * - P4 allowed-review-an-nft-show-addresses-checksum-case, P5 allowed-review-an-coin-show-links-serialised-urls: REFUSED by
 *   the balances show-vs-list checks (suites/balances.test.ts:273, round wb22's meta members compared as text).
 * - P6 allowed-review-an-bonus-show-urls-serialised: REFUSED (helpers/arrange/invariants.ts:2300, the bonus show's members).
 * - P7 allowed-review-an-token-meta-unknown-values-null: REFUSED (schemas/balance-meta.json types genesis_date, total_supply).
 * - P8 allowed-review-an-email-over-254-not-valid: REFUSED by the four 255-character rows of suites/password.test.ts.
 * - P9 allowed-review-an-unknown-user-422: suites conformant; explore fails otherUserProperty (5 properties).
 * The REFUSED ones fail `npm test`'s mutation run until the suite is fixed (or the lead rules them deviations).
 */

/** A UUID as 1.6 writes it, its version nibble captured (RFC 9562 section 4). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * NestJS's `new ParseUUIDPipe({ version: '4' })` (the example of its documentation) on every `{user}` and record id of a
 * path: a UUID of another version (or variant) is refused before the controller with 400 and Nest's error body. The
 * service's own ids are all version 4, so no id it issued is refused.
 */
function uuidV4Pipe(): Mutation {
  return {
    wire(answer: WireAnswer, reply) {
      const params = (reply.request.params ?? {}) as Record<string, unknown>;
      for (const name of ['user', 'bank', 'card', 'bonus']) {
        const value = params[name];
        const m = typeof value === 'string' ? UUID.exec(value) : null;
        if (!m || (m[1] === '4' && /[89ab]/i.test(m[2]!))) continue;
        reply.code(400);
        return JSON.stringify({ message: 'Validation failed (uuid v4 is expected)', error: 'Bad Request', statusCode: 400 });
      }
      return undefined;
    },
  };
}

/**
 * A mixed-case checksum writing of a hex address (as EIP-55 writes an Ethereum address: the same address, letters
 * upper-cased where a hash of the lower-case address says so; sha256 stands in for keccak-256 here, the case pattern
 * being all that matters to a reader that compares addresses).
 */
function checksumCase(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return address;
  const lower = address.slice(2).toLowerCase();
  const hash = createHash('sha256').update(lower).digest('hex');
  return `0x${[...lower].map((c, i) => (/[a-f]/.test(c) && parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}

/** One route's 200 answers rewritten record by record (a show's `data`). */
function onShow(route: string, change: (record: any) => boolean): Mutation {
  return {
    wire(answer: WireAnswer) {
      if (answer.status !== 200 || answer.url !== route) return undefined;
      const body = parse(answer.payload);
      let changed = false;
      for (const record of recordsOf(body)) if (record && typeof record === 'object' && change(record)) changed = true;
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/** A URL as WHATWG URL serialises it (Pydantic v2's HttpUrl, Java's URI normalize): an empty path written `/`. */
function serialisedUrl(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}

/**
 * A login e-mail whose domain does not resolve: under the reserved TLD `.test` (RFC 6761 6.2: never resolves), but for
 * `example.test`, where the reference's hook makes its accounts (a DNS-checking target's own hook would make resolvable
 * addresses), and the stand-in of allowed-o-login-email-domain-must-resolve (a DNS label of 40 characters or more).
 */
function unresolvable(email: unknown): boolean {
  if (typeof email !== 'string' || !email.includes('@')) return false;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return (domain.endsWith('.test') && domain !== 'example.test') || domain.split('.').some((label) => label.length >= 40);
}

/** Requests whose `{user}` names no user of the service (seen by the request hook, which reads the store). */
const UNKNOWN_USER = new WeakSet<object>();

/**
 * A `{user}` that names no user refused as an invalid route parameter: Laravel's FormRequest validating the route's
 * `user` with `exists:users,id` (422 keyed by `user`), where the reference answers another user's resources 403 or 409.
 * A request without valid authentication stays 401 (5.3 gives that precedence).
 */
function unknownUserRefused422(): Mutation {
  return {
    request(request, ctx) {
      const user = (request.params as Record<string, unknown> | undefined)?.user;
      if (typeof user !== 'string' || !ctx || !/^\/api\/v1\/user\/:user\//.test(routeOf(request))) return;
      if (!ctx.db.prepare('SELECT 1 FROM users WHERE id = ? COLLATE NOCASE').get(user)) UNKNOWN_USER.add(request);
    },
    wire(answer: WireAnswer, reply) {
      if (!UNKNOWN_USER.has(reply.request) || ![403, 404, 409].includes(answer.status)) return undefined;
      reply.code(422);
      return JSON.stringify({ message: 'The selected user is invalid.', errors: { user: ['The selected user is invalid.'] } });
    },
  };
}

/** The tokens of the reference's coin catalogue (a chain of their own): a market-data feed gives most tokens no genesis date or supply. */
const TOKENS = new Set(['USDT', 'USDC']);

export const probesReviewAnMutants: Mutant[] = [
  // P1 (explore/paths.ts unknownIdProperty and otherUserProperty): fast-check's fc.uuid() draws UUIDs of versions 1 to 8;
  // the fixed suites send version-4 ids only.
  reading(
    'allowed-review-an-path-ids-uuid-v4-pipe',
    'banks',
    '1',
    'every {user}, {bank}, {card} and {bonus} path segment goes through NestJS\u2019s ParseUUIDPipe({ version: \u20184\u2019 }) (the example of its documentation): a UUID of another version is refused 400 { message, error, statusCode } before the controller; the service issues version-4 ids only (1.6: "record IDs (UUID strings)", no version; a UUID the service never issues names no record under one reading and is an invalid id under another, and section 7 lists no answer for an id of another form)',
    uuidV4Pipe(),
    only('banks', 'cards', 'bonuses', 'balances'),
  ),
  // P2 (explore/authentication.explore.ts, "a valid e-mail of at most 191 characters passes validation"): the domain check
  // of allowed-o-login-email-domain-must-resolve made before the credentials are looked at (as a validator does), so no
  // failed login is counted and no brute-force 425 masks the 422 while fast-check shrinks.
  reading(
    'allowed-review-an-login-email-dns-checked-before-credentials',
    'authentication',
    '4.2',
    'a login e-mail whose domain does not resolve is refused with 422 keyed by email by the validator, before the credentials are looked at (Laravel\u2019s email:dns rule; 4.2: email "required, a valid e-mail, max 191": whether its domain must resolve is not said); a domain under the reserved TLD .test (RFC 6761: never resolves) but the hook\u2019s own example.test, and a DNS label of 40 characters or more, as allowed-o-login-email-domain-must-resolve stands in',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== AUTH) return;
        onParsedBody(request, (body) => {
          if (unresolvable(body.email)) body.email = 'unresolvable domain';
        });
      },
    },
    only('authentication'),
  ),
  // P3 (explore's "stored as sent", helpers/spec/normalisation.ts storedForm): NFKC, the fourth normal form of Unicode.
  reading(
    'allowed-review-an-texts-stored-nfkc',
    'banks',
    '2.4',
    'bankName, holderName and alias normalised to Unicode NFKC before they are validated and stored (Django\u2019s normalize_username, Python\u2019s unicodedata.normalize(\u2018NFKC\u2019) on input): "\u00bd" is stored "1\u20442", "\ufb01" "fi", a full-width letter its ASCII one (2.4 and 2.5 give the fields as "string"; no clause says a record repeats the letters sent, and the suite already takes NFC and NFD as storage normalisation)',
    {
      request(request) {
        onBankCreate(request, (body) => {
          if (typeof body.bankName === 'string') body.bankName = body.bankName.normalize('NFKC');
        });
        onCardFields(request, (field, value) => (field === 'holderName' || field === 'alias' ? value.normalize('NFKC') : undefined));
      },
    },
    only('banks', 'cards'),
  ),
  // P4 (suites/balances.test.ts shownAsListedCheck, round wb22's meta members): owner and creator compared exactly.
  reading(
    'allowed-review-an-nft-show-addresses-checksum-case',
    'balances',
    '2.2',
    'the NFT show writes meta.owner and meta.creator, Ethereum addresses, in mixed-case checksum form (EIP-55, as a node or ethers.js getAddress() gives them) while the list gives them lower case from the indexer\u2019s table: the same addresses (2.2: meta "Keys seen: image, url, owner, creator", no type or writing; hex is read in either case)',
    onShow(NFT, (record) => {
      const meta = record.meta;
      if (!meta || typeof meta !== 'object') return false;
      let changed = false;
      for (const key of ['owner', 'creator']) {
        const was = meta[key];
        if (typeof was !== 'string') continue;
        const cased = checksumCase(was);
        if (cased !== was) {
          meta[key] = cased;
          changed = true;
        }
      }
      return changed;
    }),
    only('balances'),
  ),
  // P5 (suites/balances.test.ts shownAsListedCheck, round wb22's meta members): links compared exactly.
  reading(
    'allowed-review-an-coin-show-links-serialised-urls',
    'balances',
    '2.2',
    'the coin show writes meta.links through a URL type (Pydantic v2\u2019s HttpUrl, WHATWG URL serialisation): "https://bitcoin.org" is answered "https://bitcoin.org/" while the list passes the stored text; one URL (RFC 3986 6.2.3: an empty path and "/" are equivalent for http and https; 2.2: links "object with website, github, facebook, twitter", no type or writing)',
    onShow(COIN, (record) => {
      const links = record.meta?.links;
      if (!links || typeof links !== 'object') return false;
      let changed = false;
      for (const key of Object.keys(links)) {
        const was = links[key];
        const now = serialisedUrl(was);
        if (now !== was) {
          links[key] = now;
          changed = true;
        }
      }
      return changed;
    }),
    only('balances'),
  ),
  // P6 (suites/bonuses.test.ts, the bonus show compared with the list member by member: memberTree): urls compared exactly.
  reading(
    'allowed-review-an-bonus-show-urls-serialised',
    'bonuses',
    '2.7',
    'the bonus show writes its order\u2019s externalPlatform.urls (website, widget) through a URL type (Pydantic v2\u2019s HttpUrl, WHATWG URL serialisation): "https://partner.widget.test" is answered "https://partner.widget.test/" while the list passes the stored text; one URL (RFC 3986 6.2.3; 2.7: "urls = { website, widget }", no type or writing)',
    onShow(BONUS, (record) => {
      const urls = record.order?.externalPlatform?.urls;
      if (!urls || typeof urls !== 'object') return false;
      let changed = false;
      for (const key of Object.keys(urls)) {
        const was = urls[key];
        const now = serialisedUrl(was);
        if (now !== was) {
          urls[key] = now;
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  // P7 (schemas/balance-meta.json: genesis_date "type": "string", total_supply "type": "number").
  reading(
    'allowed-review-an-token-meta-unknown-values-null',
    'balances',
    '2.2',
    'a token\u2019s meta passed through from a market-data feed that knows neither its genesis date nor its supply writes genesis_date: null and total_supply: null (CoinGecko gives most tokens genesis_date null), and the hook names only the coins whose meta carries a genesis date (2.2: meta "May be empty. Keys seen: ... for coins also genesis_date (date string) ... total_supply (number)": whether a key without a value is left out or written null is not said; the suite already takes links written null, allowed-r8-links-null-when-absent)',
    {
      wire(answer: WireAnswer) {
        if (answer.status !== 200 || !BALANCE_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        let changed = false;
        for (const record of recordsOf(body)) {
          if (!record?.meta || typeof record.meta !== 'object' || !TOKENS.has(record.symbol)) continue;
          record.meta.genesis_date = null;
          record.meta.total_supply = null;
          changed = true;
        }
        return changed ? JSON.stringify(body) : undefined;
      },
      state(name: string, data: unknown) {
        if (name !== 'balances' || !data || typeof data !== 'object') return data;
        const held = data as { genesisDate?: string[]; genesisDates?: { symbol: string }[] };
        if (Array.isArray(held.genesisDate)) held.genesisDate = held.genesisDate.filter((symbol) => !TOKENS.has(symbol));
        if (Array.isArray(held.genesisDates)) held.genesisDates = held.genesisDates.filter((entry) => !TOKENS.has(entry.symbol));
        return held;
      },
    },
    only('balances'),
  ),
  // P8 (suites/password.test.ts: forgot-password and reset-password of a known address of exactly 255 characters).
  reading(
    'allowed-review-an-email-over-254-not-valid',
    'password',
    '4.3',
    'forgot-password and reset-password validate the e-mail as validator.js isEmail (NestJS class-validator @IsEmail()) and Python\u2019s email-validator (Pydantic EmailStr) do: an address longer than 254 characters is no valid e-mail (RFC 5321 4.5.3.1.3: a path of at most 256 octets with its angle brackets), refused with 422 keyed by email, beside @MaxLength(255) (4.3, 4.4: email "valid e-mail, max 255": an address of 255 characters keeps the length and breaks validity under that reading; the suite\u2019s own comment at the forgot-password rows says a strict validator refuses it as not an address)',
    {
      request(request) {
        if (request.method !== 'POST' || (routeOf(request) !== FORGOT && routeOf(request) !== RESET)) return;
        onParsedBody(request, (body) => {
          if (typeof body.email === 'string' && body.email.length > 254) body.email = 'not a valid address';
        });
      },
    },
    only('password'),
  ),
  // P9 (explore/paths.ts otherUserProperty: a random UUID as {user}, which names no user): 403, 409 or 404 only.
  reading(
    'allowed-review-an-unknown-user-422',
    'banks',
    '5',
    'a {user} that names no user of the service is refused 422 keyed by user (Laravel\u2019s FormRequest validating the route parameter with exists:users,id), as another user\u2019s resources stay 403 or 409 (5.6 covers "another user\u2019s resources", and a user that does not exist has none; docs/judging.md, "Precedence of errors": such an input may answer 404 or 422)',
    unknownUserRefused422(),
    only('banks', 'cards', 'bonuses', 'balances'),
  ),
];

