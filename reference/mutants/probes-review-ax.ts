import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.js';
import { hashPassword } from '../modules/authentication.js';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { holderNamesEmbossed, onAnswers, onParsedBody, only, parse, perServer, reading, recordsOf, routeOf, setCookie } from './reading.js';
import { BANK_ROUTES, FORGOT, RESET } from './routes.js';
import type { Mutation } from '../mutation.js';

const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);
const ACCOUNT_STATES = ['user', 'user.inactive', 'user.expired-token', 'user.short-session', 'user.brute-force', 'user.locked', 'user.throttled', 'user.forbidden'];

/**
 * review-ax (issues 27 and 28): a code and fairness review of the fixes of review-aw's findings (08fcc30 tokenAllowed,
 * d9b4ae4 the embossed holderName and ISO 9 / GOST B writings, b2a0f2c the reset token made wrong in its middle), of
 * reading round r29's (aaaf419 learnAccountPassword and the long anti-phishing code as a whole value, 3ee2e97
 * sepaConvertedAlike), of perServer/perServerMutation (21b1414) and of the three fix-wb27c checks (cd1c6a0, a380275,
 * a4df33d). Each allowed-* probe takes a choice the text leaves open (a pin where it stays conformant); each deviation
 * (no `allowed-`) is a fault the suite should catch, proving a loss of detection when it survives. Verdicts in the
 * review-ax report (bin/mutants.mjs --shards 1 --mutant NAME; bin/conformance.mjs run --mutant NAME --group G).
 * Verdicts, 2026-11-28:
 * - A1 allowed-review-ax-rolling-token-cookie: REFUSED, 5 tests (the `elsewhere` rows of GET/POST bank, GET/DELETE
 *   bank/{bank}, logout: "answered 401 whose header set-cookie carries a token the run knows to belong to another session
 *   or user"). helpers/check/check.ts sentCredentials collects the bearer, `Token`, `Authorization` and `?*token` only,
 *   not the Cookie header, X-Auth-Token / X-Access-Token or (fix-wb27c) a create's body members api_token / access_token,
 *   which the same rows send: the caller's own token echoed from there is judged another session's (review-aw F1's fix,
 *   tokenAllowed, reads context.sent and so misses them).
 * - A2 allowed-review-ax-401-names-token-sent-elsewhere: REFUSED, 5 tests, the same rows ("header www-authenticate
 *   carries a token ..."); the same cause.
 * - B1 allowed-review-ax-bank-name-sepa-libfintx: REFUSED, 5 tests (banks value classes: "got \"ATampT Bank\"", "got
 *   \"AB Bank Main\"", the markup row, the scripts row, 191 two-byte characters). sepaConvertedAlike accepts only a
 *   one-for-one conversion (a full stop or a space); libfintx, a real SEPA converter, leaves out what the set lacks.
 * - B2 allowed-review-ax-bank-name-sepa-projectforge: REFUSED, 4 tests (`;` as `,`, non-ASCII left out, output kept in
 *   Basic Latin, not the SEPA set). A weaker case: its output is no SEPA-set text.
 * - C1 review-ax-card-holder-upper-and-backslash-stripped: SURVIVED (--no-hints; conformance --group cards --grep
 *   backslash: 1 passed, advised "holderName is stored as \"DOE, JO  JR.\" for \"Doe, Jo \\\\ Jr.\" sent (trimmed,
 *   normalised or in another letter case ...)"): review-aw F5's embossed form lets a text in ASCII capitals leave out
 *   any non-embosser character one by one, so wb19's stripslashes on an upper-casing server is advised on only.
 * - D1 allowed-review-ax-state-passwords-are-the-local-part: REFUSED, 53 tests (password and authentication groups,
 *   every forgot-password 200 that names the address: "body /data/message carries a password the run knows").
 *   learnAccountPassword exempts a password EQUAL to the id or the e-mail; its local part, inside the address the
 *   message names, is found by substring (16 characters or more).
 * - E1 review-ax-reset-selector-last-verifier-unchecked: SURVIVED (--no-hints, no test failed; conformance --group
 *   password: the valid reset and "a token that was never sent" both pass, so the mapping is live): review-aw F7 changes
 *   a token under 72 bytes at its end only, and the next test appends or removes a last character, all of which a
 *   selector at the end refuses for its selector; no wrong token changes the start alone. Before b2a0f2c a token of 72
 *   bytes or more was changed at its start and the others at their end: the same gap for short tokens.
 * After the review (the lead): A1, A2 fixed (sentCredentials also collects the Cookie header's values, headers and JSON
 * or form members whose name ends in `token`); D1 fixed (learnAccountPassword: a password inside its account's id or
 * e-mail); C1 killed (the embossed form needs a stored text wholly in the embosser's set; the cards backslash value also
 * carries `(CFO)`); E1 killed (the never-sent token changed at its start, middle and, under 72 bytes, end); B1 fixed
 * (sepaConvertedAlike lets a converter drop what the set lacks, and collapse spaces; the banks backslash value carries an
 * `&`, which stripslashes keeps). B2 RULED a fair refusal, not registered (REFUSED below): its output keeps characters
 * outside the SEPA set (`&`, `<`, `"`) while it drops others (`#`, every non-ASCII letter), which is what an input filter
 * that takes characters out does (wb19's stripslashes, wb10's formula prefix): no conversion to a named character set,
 * and a suite that passed it would pass those faults.
 * - Controls: review-ax-card-holder-upper-and-backslash-stripped was KILLED on d9b4ae4^ (b2a0f2c, before review-aw F5's
 *   embossed form; a temporary worktree, removed) by "... a holderName and an alias with a backslash ...".
 */

/** The value of a cookie of a request's Cookie header, if sent. */
const cookieOf = (header: unknown, name: string): string | undefined => {
  for (const part of String(header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
};

/**
 * libfintx (a .NET FinTS/SEPA library) SepaHelper.ConvertToValidSepaString, as a backend that stores its bank records as
 * it will write them into pain.001 files: ä ö ü (either case) as ae oe ue, ß as ss, every character of the set
 * `\s a-z A-Z 0-9 / ? : ( ) . , ' + -` kept, every other one LEFT OUT (returned as the empty string).
 */
const LIBFINTX: Readonly<Record<string, string>> = { '\u00c4': 'Ae', '\u00d6': 'Oe', '\u00dc': 'Ue', '\u00e4': 'ae', '\u00f6': 'oe', '\u00fc': 'ue', '\u00df': 'ss' };
const libfintxSepa = (text: string): string => [...text].map((c) => LIBFINTX[c] ?? (/^[\sa-zA-Z0-9/?:().,'+-]$/.test(c) ? c : '')).join('');

/**
 * ProjectForge's SEPATransferGeneratorUtils.eraseUnsuportedChars (micromata/projectforge, the SEPA transfer export of
 * an ERP): `_` as `-`, `;` as `,`, `#` left out, German umlauts as ae oe ue and ß as ss, other accents taken off, then
 * every character outside Basic Latin left out, the text trimmed.
 */
const projectforgeSepa = (text: string): string =>
  text
    .replace(/_/g, '-')
    .replace(/;/g, ',')
    .replace(/#/g, '')
    .replace(/[\u00c4\u00d6\u00dc\u00e4\u00f6\u00fc\u00df]/g, (c) => LIBFINTX[c]!)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\u0000-\u007f]/g, '')
    .trim();

const written: Mutant[] = [
  // A1 (item 1, tokenAllowed and helpers/check/check.ts sentCredentials): the `elsewhere` rows of the access tables send
  // the caller's token in a cookie (`access_token=<token>; token=...`), in X-Auth-Token and X-Access-Token, and (fix-wb27c)
  // in a create's body; sentCredentials collects the bearer, `Token`, `Authorization` and `?*token` only, so the caller's
  // own token echoed from those places is "a token of another session".
  reading(
    'allowed-review-ax-rolling-token-cookie',
    'authentication',
    '5',
    'a cookie middleware renews the `access_token` cookie a request carries on every answer, whatever its status (`Set-Cookie: access_token=<the value sent>; Max-Age=3600; HttpOnly`, a rolling expiry for a browser client), though 5.3 authenticates by the Authorization header alone (1.2: which headers an answer carries is not given; the value is the caller\u2019s own text: docs/judging.md, the request\u2019s own token "in any answer" is no finding; review-aw F1: "What the request sent, the answer may repeat")',
    {
      wire(_answer: WireAnswer, reply: FastifyReply) {
        const sent = cookieOf(reply.request.headers.cookie, 'access_token');
        if (sent === undefined || sent === '') return undefined;
        setCookie(reply, `access_token=${encodeURIComponent(sent)}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax`);
        return undefined;
      },
    },
    only('banks'),
  ),
  // A2 (item 1, as A1): a 401 that says where it found a credential it does not accept, naming it (RFC 6750 3.1
  // invalid_request), for a token sent in X-Auth-Token, X-Access-Token or a body member api_token / access_token.
  reading(
    'allowed-review-ax-401-names-token-sent-elsewhere',
    'authentication',
    '5',
    'a protected route answered 401 for a request without a bearer header says which credential it found in the wrong place (`WWW-Authenticate: Bearer realm="api", error="invalid_request", error_description="token <value> was sent in X-Auth-Token; send it as Authorization: Bearer"`; the same for X-Access-Token and the body members api_token and access_token) (RFC 6750 3 and 3.1; 5.3: "Without valid authentication the response is 401"; which headers an answer carries is not given; the value is the caller\u2019s own text: review-aw F1, allowed-review-aw-401-names-refused-bearer)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 401 || /^Bearer\s/i.test(String(reply.request.headers.authorization ?? ''))) return undefined;
        const headers = reply.request.headers;
        const body = (reply.request.body ?? {}) as Record<string, unknown>;
        const places: [string, unknown][] = [['X-Auth-Token', headers['x-auth-token']], ['X-Access-Token', headers['x-access-token']], ['the body member api_token', body.api_token], ['the body member access_token', body.access_token]];
        const found = places.find(([, value]) => typeof value === 'string' && value !== '') as [string, string] | undefined;
        if (!found) return undefined;
        reply.header('www-authenticate', `Bearer realm="api", error="invalid_request", error_description="token ${found[1].replace(/["\\]/g, '')} was sent in ${found[0]}; send it as Authorization: Bearer"`);
        return undefined;
      },
    },
    only('banks'),
  ),
  // B1 (item 2, sepaConvertedAlike): a real SEPA converter leaves out what the set lacks instead of writing a full stop.
  reading(
    'allowed-review-ax-bank-name-sepa-libfintx',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored as libfintx\u2019s SepaHelper.ConvertToValidSepaString writes it for SEPA files: umlauts as ae oe ue, \u00df as ss, the SEPA basic Latin characters kept, every other character left out (`Barclays & Co <Main>` -> `Barclays  Co Main`) (the reading allowed-r29-bank-name-sepa-character-set, which sepaConvertedAlike makes a normalisation, with a real converter; 4.10: "bankName | string | yes | max 191"; 2.4: "bankName | string")',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = libfintxSepa(record.bankName);
    }),
    only('banks'),
  ),
  reading(
    'allowed-review-ax-bank-name-sepa-projectforge',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored as ProjectForge\u2019s SEPATransferGeneratorUtils.eraseUnsuportedChars writes it for SEPA transfers: `_` as `-`, `;` as `,`, `#` left out, umlauts as ae oe ue, accents taken off, every character outside Basic Latin left out (`AT&amp;T Bank` -> `AT&amp,T Bank`) (a real converter of the reading allowed-r29-bank-name-sepa-character-set; 4.10: "bankName | string | yes | max 191")',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = projectforgeSepa(record.bankName);
    }),
    only('banks'),
  ),
  // D1 (item 4, helpers/net/secrets.ts learnAccountPassword): r29's hook whose passwords are the address, with the
  // address's local part instead (as public: a forgot-password message that names the address shows it). A password of
  // 16 characters or more is found inside a text (SUBSTRING_SECRET_LENGTH); learnAccountPassword exempts only a password
  // EQUAL to the id or the e-mail.
  reading(
    'allowed-review-ax-state-passwords-are-the-local-part',
    'password',
    '4.3',
    'every account the provider states make has the local part of its own e-mail address as its password (a QA hook that spares its testers a second value; a local part of 8 to 64 characters passes 4.2\u2019s rule), and a forgot-password answered 200 names the address it wrote to, "We have e-mailed your password reset link to <address>." (docs/provider-states.md, `user`: the password is left to the target; 4.3: the message\u2019s words are not given; allowed-r29-state-passwords-are-the-address, whose password is the whole address, is conformant since aaaf419)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.email !== 'string' || typeof data.id !== 'string') return data;
        const local = data.email.slice(0, data.email.lastIndexOf('@'));
        if (local.length < 8 || local.length > 64) return data;
        const changed = ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(local), data.id).changes;
        return changed === 1 ? { ...data, password: local } : data;
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 200 || answer.url !== FORGOT) return undefined;
        const email = (reply.request.body as Record<string, unknown> | undefined)?.email;
        const body = parse(answer.payload);
        if (typeof email !== 'string' || !isObject(body?.data) || typeof body.data.message !== 'string') return undefined;
        body.data.message = `We have e-mailed your password reset link to ${email}.`;
        return JSON.stringify(body);
      },
    },
    only('password', 'authentication'),
  ),
];

/**
 * A reset token of 64 characters (as the reference's, under bcrypt's 72 bytes) laid out `<verifier: 40><selector: 24>`,
 * the selector LAST, where the reset finds the row by the selector and never compares the verifier (review-aw's
 * review-aw-reset-split-token-verifier-unchecked with the selector at the end): any token that ends with a sent selector
 * resets the password.
 */
function selectorLastVerifierUnchecked(): Mutation {
  const tokensOf = perServer(() => new Map<string, string>());
  const hex = (label: string, token: string, length: number) => createHash('sha256').update(`${label} ${token}`).digest('hex').slice(0, length);
  return {
    request(request: FastifyRequest, ctx?: ReferenceContext) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== RESET) return;
      const tokens = tokensOf(ctx.db);
      onParsedBody(request, (body) => {
        if (typeof body.token !== 'string' || body.token.length !== 64) return;
        const token = tokens.get(body.token.slice(40));
        if (token !== undefined) body.token = token;
      });
    },
    state(name: string, data: unknown, ctx: ReferenceContext) {
      const record = data as Record<string, unknown> | undefined;
      if (name !== 'password-reset.token' || !record || typeof record.token !== 'string') return data;
      const selector = hex('selector', record.token, 24);
      tokensOf(ctx.db).set(selector, record.token);
      return { ...record, token: `${hex('verifier', record.token, 40)}${selector}` };
    },
  };
}

/** PHP's stripslashes. */
const stripSlashes = (text: string) => text.replace(/\\(.?)/gs, '$1');

const deviations: Mutant[] = [
  // C1 (item 2, transliteratedAlike's embossed form, review-aw F5): wb19's stripslashes fault on a server that also stores
  // holder names in capitals (an allowed reading): in ASCII capitals any non-embosser character may now be left out, one
  // by one, so the fault is advised on. An embosser leaves out ALL of them; this server keeps = < > " @ and drops \ only.
  {
    name: 'review-ax-card-holder-upper-and-backslash-stripped',
    clause: '4.6a',
    group: 'cards',
    description: 'sections 4.6a/2.5 (holderName "max 191"; records hold what was sent): a card\u2019s holderName is stored in capitals (an allowed reading) after stripslashes took its backslashes out (wb19-cards-holder-name-backslash-stripped), every other character kept: "Doe, Jo \\ Jr." as "DOE, JO  JR.", "=Acme Ltd" as "=ACME LTD"',
    mutation: holderNamesEmbossed((name) => stripSlashes(name).toUpperCase()),
  },
  // E1 (item 3, suites/password.test.ts "a token that was never sent", review-aw F7): a token under 72 bytes is changed
  // at its end only (and, in the next test, a character appended or its last removed), which a selector at the end
  // refuses for its selector, so a verifier never compared is not seen.
  {
    name: 'review-ax-reset-selector-last-verifier-unchecked',
    clause: '4.4',
    group: 'password',
    description: 'sections 4.4/7 ("token ... the token received by e-mail"; 422 "token invalid"): the e-mailed reset token is 64 characters, a 40-character verifier then a 24-character selector, and the reset finds the row by the selector and never compares the verifier, so a token whose verifier differs (never sent) resets the password',
    mutation: selectorLastVerifierUnchecked(),
  },
];

/** Ruled a fair refusal by the lead (B2): not registered. */
export const probesReviewAxRefused: readonly Mutant[] = written.filter((m) => m.name === 'allowed-review-ax-bank-name-sepa-projectforge');

export const probesReviewAxMutants: readonly Mutant[] = [...written.filter((m) => !probesReviewAxRefused.includes(m)), ...deviations];
