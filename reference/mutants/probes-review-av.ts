import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import { findUserByEmail, hashPassword } from '../modules/authentication.js';
import type { ReferenceContext } from '../context.js';
import type { Mutant } from './types.js';
import { answerWith, holderNamesEmbossed, onParsedBody, only, parse, reading, recordsOf, routeOf } from './reading.js';
import { CARD_ROUTES, RESET } from './routes.js';
import { loginShowsPreviousUsersAntiPhishingCode } from './probes-review-ao.js';

/**
 * review-av (issue 28, "fair to the readings nobody listed"): a fairness and code review of the newest fixes (reading
 * round r28's two false failures, review-au fixes, transliteratedAlike, fix-wb26) and of what no review had read
 * (suites/password.test.ts, helpers/arrange/password.ts, the image tests of suites/cards.test.ts). Each allowed-* probe
 * takes one choice the text leaves open, the other way from the reference; each description quotes the text that leaves
 * the point open. Verdicts (bin/mutants.mjs --shards 1 --mutant NAME for the suites; bin/conformance.mjs explore
 * --mutant NAME --group cards --endpoint 'POST /api/v1/user/{user}/card' --runs 200 --seed 1 for explore), 2026-11-28:
 * - F1 allowed-review-av-state-passwords-100-characters-bcrypt: REFUSED, four tests (suites/authentication.test.ts:797
 *   "answers 403 with { error } for a wrong password": "expected 403, got 200"; the brute-force tests at :1052 and
 *   :1112, "expected 425, got 200"): helpers/arrange/flows.ts wrongPasswordOf appends `-wrong` to any password that
 *   stays within 191 characters, and a password of 72 bytes or more with a suffix is the same password to bcrypt.
 * - F2 allowed-review-av-reset-token-signed-96-bcrypt: REFUSED, one test (suites/password.test.ts:521-523, "a token that was
 *   never sent": "expected 422, got 200"): the wrong token is the e-mailed one with its LAST four characters changed,
 *   where the sibling test (:562, wb14) leaves a token of 72 bytes or more unjudged at its end.
 * - F3 allowed-review-av-card-holder-embossed-ukrainian-national, F3b allowed-review-av-card-holder-embossed-bulgarian-
 *   official: suites conformant (pins); explore's holderName property fails ("stored as sent"), on г written H and и
 *   written Y (Ukrainian), on ъ written A (Bulgarian): helpers/spec/normalisation.ts LATIN_WRITINGS gives Cyrillic its
 *   Russian writings only, though docs/judging.md names BGN/PCGN, whose Ukrainian and Bulgarian systems these are.
 * - F4 allowed-review-av-card-image-ids-relative-to-card: REFUSED, one test (suites/cards.test.ts:229
 *   expectImagesOfOwnCard, "the first card's cardImage1 in the create answer and the second card's cardImage1 in its
 *   create answer are both \"front\"").
 * - F5 allowed-review-av-2fa-code-once-checked-first: REFUSED, one test (suites/password.test.ts:388, "logging in with the
 *   old password and a valid code must answer 403, got 422"): the old password is sent with the code the bearer's login
 *   has just used.
 * - D1 review-av-login-shows-previous-users-code-as-secret-word (a deviation): SURVIVED; with helpers/check/security.ts
 *   of 00cba72^ the bonuses group fails it 28 times ("/data/profile/secretWord carries the anti-phishing code of another
 *   user"), since 00cba72 none: a loss of detection of the own-code fix.
 */

const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);
const ACCOUNT_STATES = ['user', 'user.inactive', 'user.expired-token', 'user.short-session', 'user.brute-force', 'user.locked', 'user.throttled', 'user.forbidden'];

/** A password of exactly `length` letters and digits (a hook's fixed-length generator). */
const passwordOf = (length: number): string => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let out = '';
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return out;
};

/** The first 72 bytes of a password, what bcrypt keeps of it. */
const bcryptKept = (password: string): string => Buffer.from(password, 'utf8').subarray(0, 72).toString('utf8');

/** The signed reset tokens the `password-reset.token` state answered, by the first 72 bytes bcrypt compares of each. */
const signedTokens = new Map<string, string>();
/** A token of 96 characters standing for `token`: the token, a full stop and a base64url signature of it. */
const signedTokenOf = (token: string): string => `${token}.${createHash('sha256').update(`sig:${token}`).digest('base64url')}`.slice(0, 96);

/**
 * Ukraine's national transliteration (Cabinet of Ministers resolution 55 of 2010), which BGN/PCGN adopted for Ukrainian
 * in 2019 and which Ukrainian passports (ICAO 9303 machine-readable zones) and Ukrainian card issuers emboss: Г as H,
 * И as Y, Ґ as G, Х as KH, Є as IE, Ї as I, Й as I, Ю as IU, Я as IA, Щ as SHCH, Ь left out (the word-initial Ye, Yi,
 * Y, Yu, Ya taken as the medial forms: a simplification that stays inside the table). Russian letters the Ukrainian
 * alphabet lacks as BGN/PCGN writes them (Ы Y, Э E, Ъ left out, Ё IO); Latin letters without a decomposition and Greek
 * as ICAO 9303 writes them; other letters lose their marks (NFKD); what has no Latin writing is left out.
 */
const UKRAINIAN_OF: Readonly<Record<string, string>> = {
  '\u0430': 'a', '\u0431': 'b', '\u0432': 'v', '\u0433': 'h', '\u0491': 'g', '\u0434': 'd', '\u0435': 'e', '\u0454': 'ie', '\u0436': 'zh', '\u0437': 'z',
  '\u0438': 'y', '\u0456': 'i', '\u0457': 'i', '\u0439': 'i', '\u043a': 'k', '\u043b': 'l', '\u043c': 'm', '\u043d': 'n', '\u043e': 'o', '\u043f': 'p',
  '\u0440': 'r', '\u0441': 's', '\u0442': 't', '\u0443': 'u', '\u0444': 'f', '\u0445': 'kh', '\u0446': 'ts', '\u0447': 'ch', '\u0448': 'sh',
  '\u0449': 'shch', '\u044c': '', '\u044e': 'iu', '\u044f': 'ia', '\u044b': 'y', '\u044d': 'e', '\u044a': '', '\u0451': 'io',
  '\u00e6': 'ae', '\u00f8': 'oe', '\u00df': 'ss', '\u00fe': 'th', '\u0153': 'oe', '\u00f0': 'd', '\u0142': 'l', '\u0111': 'd', '\u0127': 'h', '\u014b': 'n', '\u0131': 'i',
  '\u03b1': 'a', '\u03b2': 'v', '\u03b3': 'g', '\u03b4': 'd', '\u03b5': 'e', '\u03b6': 'z', '\u03b7': 'i', '\u03b8': 'th', '\u03b9': 'i', '\u03ba': 'k', '\u03bb': 'l',
  '\u03bc': 'm', '\u03bd': 'n', '\u03be': 'x', '\u03bf': 'o', '\u03c0': 'p', '\u03c1': 'r', '\u03c2': 's', '\u03c3': 's', '\u03c4': 't', '\u03c5': 'y', '\u03c6': 'f',
  '\u03c7': 'ch', '\u03c8': 'ps', '\u03c9': 'o',
};
/** A holderName as a Ukrainian issuer embosses it: the national table (lower case, NFC), then marks off, capitals, ASCII only. */
/**
 * Bulgaria's official transliteration (the Transliteration Act of 2009, the writing of Bulgarian passports; BGN/PCGN's
 * Bulgarian system since 2013, the UN's since 2012): Ъ as A, Щ as SHT, Ж ZH, Х H, Ц TS, Ч CH, Ш SH, Й Y, Ю YU, Я YA,
 * Ь Y; the other letters as the Ukrainian table above writes Russian ones (И I, Г G here).
 */
const BULGARIAN_OF: Readonly<Record<string, string>> = {
  ...UKRAINIAN_OF,
  '\u0433': 'g', '\u0438': 'i', '\u0439': 'y', '\u0445': 'h', '\u0449': 'sht', '\u044a': 'a', '\u044c': 'y', '\u044e': 'yu', '\u044f': 'ya',
};
/** A holderName as an issuer embosses it by `table`: the table (lower case, NFC), else marks off, then capitals, ASCII only. */
const embossedBy = (table: Readonly<Record<string, string>>) => {
  const letter = (c: string): string => {
    if (Object.hasOwn(table, c)) return table[c]!;
    const bare = c.normalize('NFKD').replace(/\p{M}+/gu, '');
    return [...bare].map((b) => (Object.hasOwn(table, b) ? table[b]! : b)).join('');
  };
  return (name: string): string =>
    [...name.normalize('NFC').toLowerCase()]
      .map(letter)
      .join('')
      .replace(/[^\x20-\x7e]/gu, '')
      .toUpperCase();
};

/**
 * A login's 2FA code checked first and once (RFC 6238 5.2: "the verifier MUST NOT accept the second attempt of the same
 * OTP after the successful validation has been issued for the first OTP"): a code that already opened a session of the
 * account is refused before the password is compared, 422 keyed by 2fa, as a Laravel form request with Google2FA's
 * verifyKeyNewer refuses it. The requests of password logins, each with its account's 2FA and the code it sent.
 */
function totpCodeOnce() {
  const sent = new WeakMap<object, { account: string; code: string; replay: boolean }>();
  const used = new Map<string, Set<string>>();
  return {
    request(request: FastifyRequest, ctx?: ReferenceContext) {
      if (request.method !== 'POST' || routeOf(request) !== '/api/v1/authenticate' || !ctx) return;
      onParsedBody(request, (body) => {
        if (typeof body.email !== 'string' || typeof body['2fa'] !== 'string') return;
        const user = findUserByEmail(ctx, body.email);
        if (!user?.totp_secret) return;
        const account = user.id;
        sent.set(request, { account, code: body['2fa'], replay: used.get(account)?.has(body['2fa']) ?? false });
      });
    },
    wire(answer: WireAnswer, reply: FastifyReply) {
      const login = sent.get(reply.request);
      if (!login || answer.url !== '/api/v1/authenticate') return undefined;
      if (login.replay) return answerWith(reply, 422, { message: 'The 2fa code has already been used.', errors: { '2fa': ['The 2fa code has already been used.'] } });
      if (answer.status === 200) (used.get(login.account) ?? used.set(login.account, new Set()).get(login.account)!).add(login.code);
      return undefined;
    },
  };
}

const written: Mutant[] = [
  // F1 (code review of 00cba72, wrongPasswordOf): two allowed readings together. The state's password of 100 characters
  // (a length 4.2 allows, as allowed-r28-state-passwords-191-characters takes 191) with `-wrong` appended is 106
  // characters, so wrongPasswordOf appends; bcrypt (allowed-login-password-72-byte-prefix) compares only the first 72
  // bytes, and takes the suite's "wrong" password as the right one.
  reading(
    'allowed-review-av-state-passwords-100-characters-bcrypt',
    'authentication',
    '4.2',
    'the accounts the provider states make have passwords of 100 letters and digits, and the service keeps a password as bcrypt does, its first 72 bytes (allowed-login-password-72-byte-prefix), as a Laravel service with the framework\u2019s default hasher whose hook draws long random passwords makes them (docs/provider-states.md, `user`: "{ id, email, password, ... }": the password\u2019s length is left to the target; 4.2: "password | string | yes | min 8, max 191 characters"; readings of 8 and 191 characters were pinned in round r28)',
    {
      deviation: 'login.password-72-byte-prefix',
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.password !== 'string' || typeof data.id !== 'string') return data;
        const password = passwordOf(100);
        const changed = ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(bcryptKept(password)), data.id).changes;
        return changed === 1 ? { ...data, password } : data;
      },
    },
    only('authentication', 'password'),
  ),
  // F2 (suites/password.test.ts, 'answers 422 keyed by token for a token that was never sent'): the wrong token is the
  // e-mailed one with its LAST four characters changed, where the sibling test of wb14 (a character appended or removed)
  // is not verified for a token of 72 bytes or more, since a token compared as bcrypt compares does not see its end.
  reading(
    'allowed-review-av-reset-token-signed-96-bcrypt',
    'password',
    '4.4',
    'the forgot-password e-mail carries a signed reset token of 96 characters (the token, a full stop and a base64url signature), the `password-reset.token` state answers it so, and the service keeps a reset token as it keeps a password, hashed with bcrypt, so it compares the token’s first 72 bytes (4.4: "token | string | yes | max 255; the token received by e-mail": its form and length are not given, nor how it is compared; docs/judging.md "A reset token is the one e-mailed" already leaves a token of 72 bytes or more compared so unjudged at its end; allowed-login-password-72-byte-prefix is the same comparison for passwords)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'POST' || routeOf(request) !== RESET) return;
        onParsedBody(request, (body) => {
          if (typeof body.token !== 'string' || Buffer.byteLength(body.token, 'utf8') < 72) return;
          const token = signedTokens.get(bcryptKept(body.token));
          if (token !== undefined) body.token = token;
        });
      },
      state(name: string, data: unknown) {
        if (name !== 'password-reset.token' || !isObject(data) || typeof data.token !== 'string' || data.token.length >= 72) return data;
        const signed = signedTokenOf(data.token);
        signedTokens.set(bcryptKept(signed), data.token);
        return { ...data, token: signed };
      },
    },
    only('password'),
  ),
  // F3 (helpers/spec/normalisation.ts LATIN_WRITINGS, code review of b2e25d7): the Cyrillic writings are Russian ones
  // (г G, и I), so Ukraine's national table, which BGN/PCGN adopted (г H, и Y: МИХАЙЛО as MYKHAILO, СЕРГІЙ as SERHII),
  // is another text to transliteratedAlike, though docs/judging.md names BGN/PCGN among the tables a holderName may be
  // embossed by. The suites send no г or и in a holderName (a pin there); conformance explore's holderName property does.
  reading(
    'allowed-review-av-card-holder-embossed-ukrainian-national',
    'cards',
    '2.5',
    'a card\u2019s holderName is stored as a Ukrainian issuer embosses it, in Latin capitals by Ukraine\u2019s national transliteration (resolution 55 of 2010, BGN/PCGN\u2019s Ukrainian system since 2019, the writing of Ukrainian passports): "\u041c\u0438\u0445\u0430\u0439\u043b\u043e" as MYKHAILO, "\u0421\u0435\u0440\u0433\u0456\u0439" as SERHII, "\u00f8" as OE, "\u00e1" as A; validated as sent (2.5: holderName "string"; no clause says a record repeats the letters sent; docs/judging.md, "Storage normalisation": letters without a decomposition "in any writing ICAO 9303, ISO 9, GOST, BGN/PCGN, Unidecode or Laravel\u2019s Str::ascii gives them")',
    holderNamesEmbossed(embossedBy(UKRAINIAN_OF)),
    only('cards'),
  ),
  // F3b: the same gap for Bulgaria's official table (ъ as A, щ as SHT: ТЪРНОВСКИ as TARNOVSKI, ЩЕРЕВ as SHTEREV).
  reading(
    'allowed-review-av-card-holder-embossed-bulgarian-official',
    'cards',
    '2.5',
    'a card\u2019s holderName is stored as a Bulgarian issuer embosses it, in Latin capitals by Bulgaria\u2019s official transliteration (the Transliteration Act of 2009, BGN/PCGN\u2019s Bulgarian system since 2013, the writing of Bulgarian passports): "\u0422\u044a\u0440\u043d\u043e\u0432\u0441\u043a\u0438" as TARNOVSKI, "\u0429\u0435\u0440\u0435\u0432" as SHTEREV, "\u00f8" as OE, "\u00e1" as A; validated as sent (2.5: holderName "string"; no clause says a record repeats the letters sent; docs/judging.md, "Storage normalisation": letters without a decomposition "in any writing ICAO 9303, ISO 9, GOST, BGN/PCGN, Unidecode or Laravel\u2019s Str::ascii gives them")',
    holderNamesEmbossed(embossedBy(BULGARIAN_OF)),
    only('cards'),
  ),
  // F4 (suites/cards.test.ts expectImagesOfOwnCard, round wb22): two cards of one user may share no image identifier in
  // any read, which holds only where an identifier names an image across cards. An identifier relative to its card (the
  // name of the image in the card's own folder, fetched through an endpoint after card show, which 4.6a leaves unshown)
  // is the same for every card.
  reading(
    'allowed-review-av-card-image-ids-relative-to-card',
    'cards',
    '2.5',
    'a card\u2019s images are stored in the card\u2019s own folder (`cards/<card id>/front`, `cards/<card id>/back`), and `cardImage1` and `cardImage2` name them within it, `front` and `back`, as a client fetches them through an image endpoint of the card (2.5: "cardImage1 | string | Identifier of the stored first image", "cardImage2 | string | Identifier of the stored second image": the form of an identifier is not given, nor whether it names the image across cards or within its card; 4.6a: "URL parameters and responses for card show beyond the path shape above, and any endpoint after it: not shown"; paths, URLs, UUIDs and digests were readings of rounds 2 to 24)',
    {
      wire(answer: WireAnswer, _reply: FastifyReply) {
        if ((answer.status !== 200 && answer.status !== 201) || !CARD_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        for (const record of recordsOf(body)) {
          if (typeof record?.cardImage1 === 'string' && record.cardImage1 !== '') record.cardImage1 = 'front';
          if (typeof record?.cardImage2 === 'string' && record.cardImage2 !== '') record.cardImage2 = 'back';
        }
        return JSON.stringify(body);
      },
    },
    only('cards'),
  ),
  // F5 (suites/password.test.ts, 'answers 200 for a 2FA account, and the new password logs in with a TOTP code while the
  // old one is refused'): the old password's login sends the code the bearer's login has just used (one step), and must
  // answer 403; a verifier that refuses a used code, before the password (no precedence is given), answers otherwise.
  reading(
    'allowed-review-av-2fa-code-once-checked-first',
    'authentication',
    '4.2',
    'a 2FA code that has already opened a session of the account is refused when sent again, before the password is compared, with 422 keyed by 2fa ("The 2fa code has already been used."), as RFC 6238 5.2 asks of a verifier and a Laravel form request with Google2FA\u2019s verifyKeyNewer answers (4.2: "2fa | string | no | exactly 6 digits": whether a code serves once is not given, nor the status of a wrong code, nor which of a wrong password and a refused code is answered first; the suite advises on any refusal of a wrong code other than 403)',
    totpCodeOnce(),
    only('authentication', 'password'),
  ),
];

/**
 * D1 (code review of 00cba72, helpers/check/security.ts own-code judged by meaning): review-ao's deviation
 * (review-ao-login-shows-previous-users-anti-phishing: every login answer carries the previous user's anti-phishing code)
 * with the code under `secretWord`, a name the anti-phishing feature also goes by, which namesAntiPhishingCode
 * (/phish|securityphrase|securityword|securitycode/) does not know. The reference's codes are 12 hexadecimal characters,
 * under SUBSTRING_SECRET_LENGTH, so since 00cba72 the scan finds them only under a member naming such a code.
 */
const loginShowsPreviousUsersCodeAsSecretWord = (): Mutation =>
  loginShowsPreviousUsersAntiPhishingCode((data, userId, code) => (data.profile = { id: userId, secretWord: code }));

const deviations: Mutant[] = [
  {
    name: 'review-av-login-shows-previous-users-code-as-secret-word',
    clause: '2.6',
    group: 'bonuses',
    description: 'sections 2.6 and 4.2 (security: a user\u2019s anti-phishing code, "masked" even in its own bonus, shown to another user): every login answer carries, beside the Session, a profile from a cache one login fills for the next, with the anti-phishing code of the user who logged in before under `secretWord`',
    mutation: loginShowsPreviousUsersCodeAsSecretWord(),
  },
];

export const probesReviewAvMutants: readonly Mutant[] = [...written, ...deviations];
