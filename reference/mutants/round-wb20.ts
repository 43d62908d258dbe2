import type { FastifyRequest } from 'fastify';
import type { Mutation } from '../mutation.js';
import type { ReferenceContext, UserRow } from '../context.js';
import { sessionOf } from '../modules/authentication.js';
import { answerWith, claimsOf, onCardFields, onParsedBody, routeOf, signedBy } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';

/**
 * White-box round wb20 (issue 27, "a rule is verified only where it was checked everywhere it applies"): deviations a
 * real backend could ship, written by a twentieth reviewer who read the specification, docs/judging.md, suites/ and
 * helpers/ (ACCESS_CLASSES and malformedWritings, the JWT tables, the e-mail rows of login, forgot- and reset-password,
 * the value-class tables of the banks and cards suites, the expiry tables, RECORD_ROUTES' id rows) and aimed at what
 * rounds wb1 to wb19 left alone:
 * - exactness of what identifies: a token's numeric id in another numeric writing (`<id>.0`, `+<id>`), a bearer whose
 *   scheme is written twice or glued to the token, a token whose `|` arrives URL-encoded; a reset token compared
 *   without letter case (a plain-text token column of a case-insensitive collation); e-mails read through an address
 *   normaliser (a trailing dot after the domain, dots in the local part ignored as Gmail does) at login, forgot- and
 *   reset-password and in a JWT's email claim; a JWT `id` claim and a JWT `{platform}` parsed as .NET GUIDs (in braces,
 *   without hyphens); record ids in braces on show and delete;
 * - a claim's falsy value: an `expire` of 0 read as "no expiry" (`if (payload.expire && ...)`);
 * - value classes never sent: a bankName with a slash, a holderName with an ampersand (joint holders) and in Cyrillic,
 *   an alias with `#` and with `/`; HTML entities decoded on input (`&amp;` stored as `&`); a zero-width space taken out
 *   of an IBAN, a SWIFT and lastFourDigits before validation; lastFourDigits in full-width digits; expiries written
 *   `12 / 45`, `2045-12` and `45/12`.
 * Each breaks a rule that holds under every reading of the specification; its description quotes the sentence it
 * breaks. All rewrite answers as sent, or a request before the reference reads it (a bearer, a path parameter, a body
 * field, a card form's field); the JWT mutants verify the JWT's RS512 signature with the platform's key themselves and
 * answer a Session made by the reference's own sessionOf; none needs a deviation of the reference's modules.
 *
 * Score before fixes: 3 caught of 33 (`nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME ...`, five batches of 8, 8, 8,
 * 8 and 1; the 30 survivors again together with --no-hints, beside wb19-token-in-quotes-accepted as a control that the
 * run can kill: 0 of 30 caught, the control killed; see OPEN). Every mutant was first seen to bite by a throwaway script
 * (not kept) that started the reference with and without it and sent the same requests over HTTP: the bank list with
 * `Bearer <id>.0|<secret>`, `Bearer +<id>|<secret>`, `Bearer Bearer <token>`, `Bearer<token>`, `Bearer <id>%7C<secret>`
 * answered 200 (401 unmutated); a login with the e-mail plus a trailing dot, or with a dot taken from its local part, and
 * the right password 200 (403); forgot-password for those writings 200 (422); the e-mailed reset token in swapped letter
 * case, and the account's token beside the e-mail plus a dot, 200 (422); JWTs with id `{<uuid>}`, id without hyphens,
 * email plus a dot, `expire: 0`, and a valid JWT to `{<platform id>}` 200 (403, 403, 403, 416, 403); a bank, card and
 * bonus show of `{<id>}` 200 (404) and a bank delete of `{<id>}` 200 (404); `Danske Bank A/S`, `Card #2`, `Travel/Work`,
 * `Mr & Mrs J Smith`, `Иван Петров` refused 422 keyed by their field (201); `AT&amp;T Bank` and the alias `A &amp; B`
 * stored with `&` (as sent); an IBAN, a SWIFT and lastFourDigits with a zero-width space inside, and lastFourDigits
 * `１２３４`, 201 stored without it (422); expiries `12 / 45`, `2045-12`, `45/12` 201 stored as 12/45 (422).
 */

const paramsOf = (request: { params?: unknown }) => (request.params ?? {}) as Record<string, string | undefined>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// --- exactness: tokens ---------------------------------------------------------------------------

/** The bearer token (the whole Authorization value after the scheme) rewritten by `to` before the reference authenticates it. */
export function authorizationReadAs(to: (value: string) => string | undefined): Mutation {
  return {
    request(request) {
      const header = request.headers.authorization;
      if (typeof header !== 'string') return;
      const read = to(header);
      if (read !== undefined) request.headers.authorization = read;
    },
  };
}

// --- exactness: e-mails --------------------------------------------------------------------------

/** The account whose e-mail `normalise(sent)` names, when `sent` names none (an address normaliser run before the lookup). */
function accountByNormalisedEmail(ctx: ReferenceContext, sent: string, normalise: (email: string) => string): string | undefined {
  if (ctx.db.prepare('SELECT 1 FROM users WHERE email = ?').get(sent)) return undefined;
  const wanted = normalise(sent).toLowerCase();
  const rows = ctx.db.prepare('SELECT email FROM users').all() as { email: string }[];
  return rows.find((row) => normalise(row.email).toLowerCase() === wanted)?.email;
}

const trailingDotDropped = (email: string) => email.replace(/\.+$/, '');
const localDotsDropped = (email: string) => {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : `${email.slice(0, at).replace(/\./g, '')}${email.slice(at)}`;
};

/** The `email` of `route`'s body read through `normalise` when it names no account as sent. */
function emailNormalised(route: string, normalise: (email: string) => string): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== route) return;
      onParsedBody(request, (body) => {
        if (typeof body.email !== 'string') return;
        const found = accountByNormalisedEmail(ctx, body.email, normalise);
        if (found) body.email = found;
      });
    },
  };
}

/**
 * A reset token compared without letter case (a plain-text token column of a case-insensitive collation, MySQL's
 * utf8mb4_unicode_ci): the token e-mailed to the address, sent in another letter case, resets the password.
 */
function resetTokenCaseInsensitive(): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.reset) return;
      onParsedBody(request, (body) => {
        if (typeof body.token !== 'string' || typeof body.email !== 'string') return;
        const found = ctx.db
          .prepare('SELECT token FROM outbox WHERE recipient = ? COLLATE NOCASE AND lower(token) = lower(?) AND token <> ? ORDER BY id DESC LIMIT 1')
          .get(body.email, body.token, body.token) as { token: string } | undefined;
        if (found) body.token = found.token;
      });
    },
  };
}

// --- exactness: JWT claims and platforms ----------------------------------------------------------


/**
 * A JWT login the reference refuses answered with a Session when `read` finds, in the claims and the path's platform,
 * a platform whose key signed the JWT and a user it names (a lenient parser of the claims or of the path).
 */
function jwtReadAs(read: (claims: Record<string, unknown>, platform: string, ctx: ReferenceContext) => { platform: string; user: UserRow } | undefined): Mutation {
  const marked = new WeakMap<object, { ctx: ReferenceContext; user: UserRow }>();
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.jwt) return;
      const claims = claimsOf(request);
      const jwt = request.headers.token;
      if (!claims || typeof jwt !== 'string') return;
      const found = read(claims, paramsOf(request).platform ?? '', ctx);
      if (!found || !found.user.is_active || found.user.locked || !signedBy(ctx, found.platform, jwt)) return;
      marked.set(request, { ctx, user: found.user });
    },
    wire(answer, reply) {
      const mark = marked.get(reply.request);
      if (!mark || answer.status === 200) return undefined;
      return answerWith(reply, 200, sessionOf(mark.ctx, mark.user, 'jwt'));
    },
  };
}

const userById = (ctx: ReferenceContext, id: string) => ctx.db.prepare('SELECT * FROM users WHERE id = ? COLLATE NOCASE').get(id) as UserRow | undefined;
const userByEmail = (ctx: ReferenceContext, email: string) => ctx.db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
const futureOrAbsent = (claims: Record<string, unknown>, nowMs: number) => typeof claims.expire === 'number' && claims.expire * 1000 >= nowMs;

/** A .NET GUID writing of a UUID (`{...}`, 32 hex digits without hyphens) read as the UUID; undefined when `text` is none or is the plain form. */
function guidRead(text: string, form: 'braces' | 'no-hyphens'): string | undefined {
  if (form === 'braces') {
    const m = /^\{([0-9a-f-]{36})\}$/i.exec(text);
    return m && UUID.test(m[1]!) ? m[1] : undefined;
  }
  const m = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i.exec(text);
  return m ? `${m[1]}-${m[2]}-${m[3]}-${m[4]}-${m[5]}` : undefined;
}

// --- record ids in braces -----------------------------------------------------------------------

/** `param` of `route` (method `method`) given in braces read as the UUID inside (a GUID parser). */
function recordIdInBraces(method: string, route: string, param: string): Mutation {
  return {
    request(request) {
      if (request.method !== method || routeOf(request) !== route) return;
      const params = request.params as Record<string, string> | undefined;
      const value = params?.[param];
      if (typeof value !== 'string') return;
      const read = guidRead(decodeURIComponent(value), 'braces');
      if (read) params![param] = read;
    },
  };
}

// --- value classes --------------------------------------------------------------------------------

/** A bank create's body field rewritten by `rewrite` before validation; `marked` records the requests rewritten. */
function bankFieldRewritten(field: string, rewrite: (text: string) => string | undefined, marked?: WeakSet<object>): Mutation {
  return {
    request(request) {
      if (request.method !== 'POST' || routeOf(request) !== URL.bankList) return;
      onParsedBody(request, (body) => {
        const value = body[field];
        if (typeof value !== 'string') return;
        const changed = rewrite(value);
        if (changed === undefined) return;
        body[field] = changed;
        marked?.add(request);
      });
    },
  };
}

/** A name rule beyond "max 191": a bank create's `field` holding `chars` refused 422 keyed by it (the reference is sent an over-long value). */
function bankFieldRefusedFor(field: string, chars: RegExp, message: string): Mutation {
  const marked = new WeakSet<object>();
  const inner = bankFieldRewritten(field, (text) => (chars.test(text) ? 'x'.repeat(192) : undefined), marked);
  return {
    request: inner.request,
    wire(answer, reply) {
      if (!marked.has(reply.request) || answer.status !== 422) return undefined;
      return answerWith(reply, 422, { message, errors: { [field]: [message] } });
    },
  };
}

/** As bankFieldRefusedFor, for a card create's `field` (holderName, alias). */
function cardFieldRefusedFor(field: string, chars: RegExp, message: string): Mutation {
  const marked = new WeakSet<object>();
  return {
    request(request) {
      onCardFields(request, (name, value) => {
        if (name !== field || !chars.test(value)) return undefined;
        marked.add(request);
        return 'x'.repeat(192);
      });
    },
    wire(answer, reply) {
      if (!marked.has(reply.request) || answer.status !== 422) return undefined;
      return answerWith(reply, 422, { message, errors: { [field]: [message] } });
    },
  };
}

/** A card create's `field` rewritten by `read` before validation (a lenient parser or an input filter). */
function cardFieldReadAs(fields: readonly string[], read: (value: string) => string | undefined): Mutation {
  return { request: (request: FastifyRequest) => onCardFields(request, (field, value) => (fields.includes(field) ? read(value) : undefined)) };
}

/** html_entity_decode on input (a sanitiser that undoes an escaping the client never did). */
const entitiesDecoded = (text: string): string | undefined => {
  if (!/&(amp|lt|gt|quot|#39|apos);/.test(text)) return undefined;
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, '&');
};

/** Invisible format characters (zero-width space, joiners, BOM, soft hyphen) taken out before validation. */
const invisibleStripped = (text: string): string | undefined => (/[\u200b-\u200d\u2060\ufeff\u00ad]/.test(text) ? text.replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, '') : undefined);

/** Unicode decimal digits of other scripts (full-width, Arabic-Indic, Devanagari) read as ASCII digits (a \d of Unicode, int() of Python). */
const unicodeDigitsRead = (text: string): string | undefined => {
  const read = text.replace(/[\uff10-\uff19]/g, (d) => String(d.charCodeAt(0) - 0xff10)).replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[\u0966-\u096f]/g, (d) => String(d.charCodeAt(0) - 0x0966));
  return read === text ? undefined : read;
};

// --- the round ------------------------------------------------------------------------------------

const written: Mutant[] = [
  // --- exactness: tokens ---
  // wb20-token-id-decimal-writing-accepted (<id>.0|secret, +<id>|secret read as the id) is an allowed reading since review-ai F1:
  // 2.1 gives the token's form, not how its numeric id is read (probes-review-ai.ts).
  // wb20-bearer-scheme-twice-accepted (Bearer Bearer <token> read as the token) is an allowed reading since review-aj F1:
  // Laravel's bearerToken() reads what follows the last "Bearer " (probes-review-aj.ts).
  // white-box round wb20
  { name: 'wb20-bearer-scheme-glued-accepted', clause: '5', group: 'authentication', description: 'section 5.3 ("Authorization: Bearer <ACCESS_TOKEN>"; "Without valid authentication the response is 401"): Authorization: Bearer<token>, the scheme glued to the token (no scheme Bearer, no token), authenticates (a prefix strip: substr($header, 6))', mutation: authorizationReadAs((h) => { const m = /^Bearer(\d+\|.+)$/i.exec(h); return m ? `Bearer ${m[1]}` : undefined; }) },
  // white-box round wb20
  { name: 'wb20-token-pipe-url-encoded-accepted', clause: '5', group: 'authentication', description: 'sections 2.1/5.3 (the token\u2019s form "<numeric_id>|<secret>"; "Without valid authentication the response is 401"): a bearer whose | is written %7C (<id>%7C<secret>, another string than the token issued) authenticates (the header URL-decoded)', mutation: authorizationReadAs((h) => { const m = /^(Bearer\s+)(\d+)%7C(.+)$/i.exec(h); return m ? `${m[1]}${m[2]}|${m[3]}` : undefined; }) },

  // --- exactness: e-mails and reset tokens ---
  // white-box round wb20
  { name: 'wb20-reset-token-case-insensitive', clause: '4.4', group: 'password', description: 'section 4.4 (token "the token received by e-mail"; "422 when the token is invalid"): the e-mailed token sent in another letter case resets the password (a plain-text token column of a case-insensitive collation)', mutation: resetTokenCaseInsensitive() },
  // white-box round wb20
  { name: 'wb20-login-email-trailing-dot-read-as-account', clause: '4.2', group: 'authentication', description: 'sections 4.2/5.5 (403 "wrong credentials"): a login with the account\u2019s e-mail followed by a dot (name@example.com., no account\u2019s address) and the account\u2019s password logs into the account (an address normaliser drops the trailing dot)', mutation: emailNormalised(URL.login, trailingDotDropped) },
  // white-box round wb20
  { name: 'wb20-login-email-local-dots-ignored', clause: '4.2', group: 'authentication', description: 'sections 4.2/5.5 (403 "wrong credentials"): a login whose e-mail is the account\u2019s with dots added to or taken from its local part (j.ohn@x for john@x: another address outside Gmail) logs into the account with its password (Gmail\u2019s normalisation applied to every domain)', mutation: emailNormalised(URL.login, localDotsDropped) },
  // white-box round wb20
  { name: 'wb20-forgot-email-trailing-dot-read-as-account', clause: '4.3', group: 'password', description: 'section 4.3 ("422 when the e-mail is unknown"): forgot-password for a known e-mail followed by a dot (name@example.com.) answers 200 and mails the reset to the account', mutation: emailNormalised(URL.forgot, trailingDotDropped) },
  // white-box round wb20
  { name: 'wb20-forgot-email-local-dots-ignored', clause: '4.3', group: 'password', description: 'section 4.3 ("422 when the e-mail is unknown"): forgot-password for a known e-mail with a dot added to its local part answers 200 and mails the reset to the account (Gmail\u2019s normalisation on every domain)', mutation: emailNormalised(URL.forgot, localDotsDropped) },
  // white-box round wb20
  { name: 'wb20-reset-email-trailing-dot-read-as-account', clause: '4.4', group: 'password', description: 'section 4.4 (email "valid e-mail"; "422 when the token is invalid"): reset-password with the account\u2019s e-mail followed by a dot and the account\u2019s token resets the account', mutation: emailNormalised(URL.reset, trailingDotDropped) },

  // --- exactness: JWT ---
  // white-box round wb20
  { name: 'wb20-jwt-id-claim-in-braces-accepted', clause: '4.1', group: 'authentication', description: 'sections 4.1/1.6 (id "string, user ID"; {user} "the user ID (UUID string)"; 403 "wrong credentials"): a JWT whose id claim is the user\u2019s UUID in braces ({<uuid>}, no user\u2019s id) authenticates that user (Guid.Parse)', mutation: jwtReadAs((claims, platform, ctx) => { if (typeof claims.id !== 'string' || !futureOrAbsent(claims, ctx.now())) return undefined; const id = guidRead(claims.id, 'braces'); const user = id ? userById(ctx, id) : undefined; return user ? { platform, user } : undefined; }) },
  // white-box round wb20
  { name: 'wb20-jwt-id-claim-without-hyphens-accepted', clause: '4.1', group: 'authentication', description: 'sections 4.1/1.6 (id "string, user ID", a UUID string; 403 "wrong credentials"): a JWT whose id claim is the user\u2019s UUID without its hyphens (32 hex digits) authenticates that user (Guid.Parse\u2019s N format)', mutation: jwtReadAs((claims, platform, ctx) => { if (typeof claims.id !== 'string' || !futureOrAbsent(claims, ctx.now())) return undefined; const id = guidRead(claims.id, 'no-hyphens'); const user = id ? userById(ctx, id) : undefined; return user ? { platform, user } : undefined; }) },
  // white-box round wb20
  { name: 'wb20-jwt-email-claim-trailing-dot-accepted', clause: '4.1', group: 'authentication', description: 'section 4.1 (email "string, user e-mail"; 403 "wrong credentials"): a JWT whose email claim is the user\u2019s e-mail followed by a dot (no user\u2019s address) authenticates that user', mutation: jwtReadAs((claims, platform, ctx) => { if (typeof claims.email !== 'string' || !claims.email.endsWith('.') || !futureOrAbsent(claims, ctx.now())) return undefined; const user = userByEmail(ctx, trailingDotDropped(claims.email)); return user ? { platform, user } : undefined; }) },
  // white-box round wb20
  { name: 'wb20-jwt-platform-id-in-braces-accepted', clause: '4.1', group: 'authentication', description: 'section 4.1 ("platform (required), the platform ID"): a JWT sent to the platform\u2019s id in braces ({<id>}: no platform\u2019s id) authenticates as that platform (Guid.Parse on the path)', mutation: jwtReadAs((claims, platform, ctx) => { const id = guidRead(decodeURIComponent(platform), 'braces'); if (!id || !futureOrAbsent(claims, ctx.now())) return undefined; const user = typeof claims.id === 'string' ? userById(ctx, claims.id) : typeof claims.email === 'string' ? userByEmail(ctx, claims.email) : undefined; return user ? { platform: id, user } : undefined; }) },
  // white-box round wb20
  { name: 'wb20-jwt-expire-zero-accepted', clause: '4.1', group: 'authentication', description: 'sections 4.1/7 (expire "required, timestamp, must be now or later"; 416 JWT expired, 412 payload invalid): a JWT whose expire is 0 (1970) authenticates (if ($payload->expire && $payload->expire < time()): a falsy expire skips the check)', mutation: jwtReadAs((claims, platform, ctx) => { if (claims.expire !== 0 && claims.expire !== '0') return undefined; const user = typeof claims.id === 'string' ? userById(ctx, claims.id) : typeof claims.email === 'string' ? userByEmail(ctx, claims.email) : undefined; return user ? { platform, user } : undefined; }) },

  // --- record ids in braces ---
  // white-box round wb20
  { name: 'wb20-bank-show-id-in-braces-answered', clause: '4.10', group: 'banks', description: 'sections 1.6/7 ({bank} "record IDs (UUID strings)"; 404 "no record found"): a bank show of the bank\u2019s id in braces ({<id>}, no UUID string) answers the bank (a GUID parser binds the route)', mutation: recordIdInBraces('GET', URL.bankOne, 'bank') },
  // white-box round wb20
  { name: 'wb20-card-show-id-in-braces-answered', clause: '4.6a', group: 'cards', description: 'sections 1.6/7 ({card} "record IDs (UUID strings)"; 404 "no record found"): a card show of the card\u2019s id in braces answers the card (a GUID parser binds the route)', mutation: recordIdInBraces('GET', URL.cardOne, 'card') },
  // white-box round wb20
  { name: 'wb20-bonus-show-id-in-braces-answered', clause: '4.11', group: 'bonuses', description: 'sections 1.6/7 ({bonus} "record IDs (UUID strings)"; 404 "no record found"): a bonus show of the bonus\u2019s id in braces answers the bonus (a GUID parser binds the route)', mutation: recordIdInBraces('GET', URL.bonusOne, 'bonus') },
  // white-box round wb20
  { name: 'wb20-bank-delete-id-in-braces-deletes', clause: '4.10', group: 'banks', description: 'sections 1.6/4.10 ({bank} "record IDs (UUID strings)"): a bank delete of the bank\u2019s id in braces ({<id>}, no record\u2019s id) deletes the bank (a GUID parser binds the route)', mutation: recordIdInBraces('DELETE', URL.bankOne, 'bank') },

  // --- value classes: names ---
  // white-box round wb20
  { name: 'wb20-banks-bank-name-slash-refused', clause: '4.10', group: 'banks', description: 'sections 4.10/8 (bankName "max 191", the whole rule): a bankName with a slash (Nordea Bank Abp / Filial i Norge, Danske Bank A/S) is refused 422 keyed by bankName (a name rule of letters, digits and . & \' - , ( ))', mutation: bankFieldRefusedFor('bankName', /\//, 'The bank name format is invalid.') },
  // white-box round wb20
  { name: 'wb20-banks-bank-name-entities-decoded', clause: '4.10', group: 'banks', description: 'sections 4.10/2.4 (bankName "max 191"; the record\u2019s bankName is the name sent): a bankName holding &amp; (AT&amp;T Bank) is stored and answered with & (html_entity_decode on input)', mutation: bankFieldRewritten('bankName', entitiesDecoded) },
  // white-box round wb20
  { name: 'wb20-cards-alias-entities-decoded', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (alias "max 191"; the record\u2019s alias is the alias sent): an alias holding &amp; or &lt; is stored and answered decoded (html_entity_decode on input)', mutation: cardFieldReadAs(['alias'], entitiesDecoded) },
  // white-box round wb20
  { name: 'wb20-cards-alias-hash-refused', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 (alias "max 191", the whole rule): an alias with # (Card #2) is refused 422 keyed by alias (a name rule of letters, digits, spaces and . \' -)', mutation: cardFieldRefusedFor('alias', /#/, 'The alias format is invalid.') },
  // white-box round wb20
  { name: 'wb20-cards-alias-slash-refused', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 (alias "max 191", the whole rule): an alias with a slash (Travel/Work) is refused 422 keyed by alias', mutation: cardFieldRefusedFor('alias', /\//, 'The alias format is invalid.') },
  // white-box round wb20
  { name: 'wb20-cards-holder-name-ampersand-refused', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 (holderName "max 191", the whole rule): a holderName with an ampersand (Mr & Mrs J Smith, joint holders) is refused 422 keyed by holderName', mutation: cardFieldRefusedFor('holderName', /&/, 'The holder name format is invalid.') },
  // white-box round wb20
  { name: 'wb20-cards-holder-name-cyrillic-refused', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 (holderName "max 191", the whole rule): a holderName in Cyrillic, Greek, Han or Arabic letters is refused 422 keyed by holderName (a Latin-only name rule)', mutation: cardFieldRefusedFor('holderName', /[\u0370-\u03ff\u0400-\u04ff\u0600-\u06ff\u4e00-\u9fff]/, 'The holder name format is invalid.') },

  // --- value classes: invisible and other-script characters ---
  // white-box round wb20
  { name: 'wb20-banks-iban-zero-width-space-stripped', clause: '4.10', group: 'banks', description: 'section 4.10 (iban "alphanumeric"; 422 "invalid field"): an IBAN with a zero-width space (or a soft hyphen, a BOM) inside is accepted and stored without it (invisible characters stripped before validation)', mutation: bankFieldRewritten('iban', invisibleStripped) },
  // white-box round wb20
  { name: 'wb20-banks-swift-zero-width-space-stripped', clause: '4.10', group: 'banks', description: 'section 4.10 (swift "alphanumeric, length 8 to 11"; 422 "invalid field"): a SWIFT with a zero-width space inside is accepted and stored without it', mutation: bankFieldRewritten('swift', invisibleStripped) },
  // white-box round wb20
  { name: 'wb20-cards-last-four-zero-width-space-stripped', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 (lastFourDigits "numeric, exactly 4 digits"): lastFourDigits with a zero-width space inside (12\u200b34) is accepted and stored as 1234', mutation: cardFieldReadAs(['lastFourDigits'], invisibleStripped) },
  // white-box round wb20
  { name: 'wb20-cards-last-four-unicode-digits-accepted', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 (lastFourDigits "numeric, exactly 4 digits"): lastFourDigits in full-width or Arabic-Indic digits (\uff11\uff12\uff13\uff14, \u0661\u0662\u0663\u0664: no card number is written so) is accepted and stored as 1234 (a Unicode \\d)', mutation: cardFieldReadAs(['lastFourDigits'], unicodeDigitsRead) },

  // --- value classes: expiries ---
  // white-box round wb20
  { name: 'wb20-cards-expiry-spaces-around-slash-accepted', clause: '4.6a', group: 'cards', description: 'section 4.6a (expirationDate "format m/y"): an expirationDate written 12 / 45 or 12/ 45 is accepted (201) and stored as 12/45 (a lenient date parser)', mutation: cardFieldReadAs(['expirationDate'], (v) => { const m = /^(\d{1,2})\s*\/\s*(\d{2})$/.exec(v); return m && v !== `${m[1]}/${m[2]}` ? `${m[1]}/${m[2]}` : undefined; }) },
  // white-box round wb20
  { name: 'wb20-cards-expiry-iso-year-month-accepted', clause: '4.6a', group: 'cards', description: 'section 4.6a (expirationDate "format m/y"): an expirationDate written as an ISO 8601 year and month (2045-12) is accepted and stored as 12/45 (strtotime)', mutation: cardFieldReadAs(['expirationDate'], (v) => { const m = /^\d{2}(\d{2})-(\d{2})$/.exec(v); return m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${m[2]}/${m[1]}` : undefined; }) },
  // white-box round wb20
  { name: 'wb20-cards-expiry-year-first-accepted', clause: '4.6a', group: 'cards', description: 'section 4.6a (expirationDate "format m/y"): an expirationDate written year first (45/12: no month 45) is accepted and stored as 12/45 (a parser that tries y/m when m/y fails)', mutation: cardFieldReadAs(['expirationDate'], (v) => { const m = /^(\d{2})\/(\d{1,2})$/.exec(v); return m && Number(m[1]) > 12 && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${m[2]!.padStart(2, '0')}/${m[1]}` : undefined; }) },
];

/*
 * Caught (3): wb20-cards-alias-slash-refused (the text-class row's alias `Card 💳😀 𠮷 & <b>"x"</b>` holds a slash in
 * `</b>`: caught by accident of that value, not by a row about slashes); wb20-cards-holder-name-cyrillic-refused (the
 * two-byte boundary row's holderName is made of TWO_BYTE_LETTERS, which hold ж and λ; deterministic, not a draw);
 * wb20-cards-expiry-iso-year-month-accepted (the row "answers 422 for an expirationDate written year-month 20yy-mm").
 *
 * Survivors (OPEN, 30), each with the shallow check and the check that would catch it:
 * - wb20-token-id-decimal-writing-accepted, wb20-bearer-scheme-twice-accepted, wb20-bearer-scheme-glued-accepted,
 *   wb20-token-pipe-url-encoded-accepted: the access table's `malformed` row (helpers/arrange/invariants.ts
 *   malformedWritings) sends two writings only, `<id>ab|<secret>` and `"<token>"`; the numeric id is never written as
 *   another number, the scheme never doubled or glued, the separator never encoded. Would catch: more malformed writings
 *   of the real token, for every kind of login and every protected route: `<id>.0|<secret>`, `+<id>|<secret>`,
 *   `Bearer Bearer <token>`, `Bearer<token>` (the whole header), `<id>%7C<secret>`: 401.
 * - wb20-login-email-trailing-dot-read-as-account, wb20-login-email-local-dots-ignored: login's "unknown e-mail" rows
 *   send the account's e-mail without its last character, with a LIKE wildcard, or a fresh address; never the address
 *   with a trailing dot after the domain, nor with a dot added to or taken from its local part. Would catch: the
 *   account's e-mail plus `.`, and its local part with a dot inserted (or removed), each with the right password: 403
 *   (or 422 keyed by email), never a Session (one fresh account, within the two failed logins a run allows).
 * - wb20-forgot-email-trailing-dot-read-as-account, wb20-forgot-email-local-dots-ignored: forgot-password's unknown
 *   e-mails are the LIKE-wildcard and fresh ones. Would catch: the same two writings of a known address: 422 keyed by
 *   email (and no e-mail in the account's outbox).
 * - wb20-reset-email-trailing-dot-read-as-account: reset's e-mail rows are missing, no @, 256 characters, LIKE wildcards.
 *   Would catch: the account's token beside its e-mail plus `.`: 422 (email or token), the password unchanged.
 * - wb20-reset-token-case-insensitive: the token rows alter the e-mailed token by appending and removing a character,
 *   never by letter case (as the access table's recased-secret row does for bearer tokens). Would catch: the e-mailed
 *   token with its letters' case swapped (when it holds letters): 422 keyed by token, the password unchanged.
 * - wb20-jwt-id-claim-in-braces-accepted, wb20-jwt-id-claim-without-hyphens-accepted,
 *   wb20-jwt-email-claim-trailing-dot-accepted: the JWT claim rows name an unknown user by a fresh UUID or a fresh
 *   e-mail, and the real user by its exact id and e-mail; never another writing of the real one. Would catch: JWTs of the
 *   platform naming the user by `{<id>}`, by its id without hyphens, by its e-mail plus `.`: never a Session (403 or
 *   412).
 * - wb20-jwt-platform-id-in-braces-accepted: "never authenticates a valid JWT sent to an unknown platform" sends an
 *   unrelated id and the real id with a character appended (round wb19), not the real id in braces. Would catch: the
 *   same JWT to `{<platform id>}` (URL-encoded): never a Session.
 * - wb20-jwt-expire-zero-accepted: the past-expire rows send a timestamp an hour ago; no row sends the falsy 0 (nor a
 *   negative one). Would catch: `expire: 0` (and `-1`) by id and by email: 416 (or 412), never a Session.
 * - wb20-bank-show-id-in-braces-answered, wb20-card-show-id-in-braces-answered, wb20-bonus-show-id-in-braces-answered,
 *   wb20-bank-delete-id-in-braces-deletes: RECORD_ROUTES' "id that is no UUID" rows send `not-a-uuid`, the real id cut
 *   short and with a character appended (a .NET GUID parser rejects both), never the real id in braces or without
 *   hyphens, the writings a GUID parser takes; docs/judging.md already says braces make another id. Would catch: the
 *   real id as `{<id>}` (URL-encoded) on every show (404 expected, another 4xx advised on, never the record) and on the
 *   delete, with the bank still shown afterwards with the fields of its create.
 *
 * Closed after the round (fix-wb20b, registered; the values are fixed, none drawn, so no run depends on a draw; each
 * killed by `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME`, twice, the second with --write-hints):
 * - wb20-banks-bank-name-slash-refused, wb20-banks-bank-name-entities-decoded: a value-class row of bank create sends
 *   `Danske Bank A/S` and `AT&amp;T Bank`, each 201 and stored exactly as sent in the create answer, the show and the
 *   list ("answers 201 for bankNames with a slash and written with an HTML entity (Danske Bank A/S, AT&amp;T Bank)",
 *   suites/banks.test.ts; an entity decoded is no storage normalisation, as escaping is none: docs/judging.md "Records
 *   hold what was sent").
 * - wb20-cards-holder-name-ampersand-refused, wb20-cards-alias-hash-refused, wb20-cards-alias-entities-decoded, and
 *   wb20-cards-alias-slash-refused (registered in the round, caught by the `/` of `</b>`; now also deliberately): three
 *   cards of one user, `Mr & Mrs J Smith` / `Card #2`, the alias `Travel/Work` and the alias `A &amp; B &lt;1&gt;`, each
 *   201 and stored as sent ("answers 201 for a holderName with an ampersand, aliases with # and with a slash, and an
 *   alias written with HTML entities, stored as sent", suites/cards.test.ts).
 * - wb20-banks-iban-zero-width-space-stripped, wb20-banks-swift-zero-width-space-stripped,
 *   wb20-cards-last-four-zero-width-space-stripped: boundary rows with U+200B inside, 422 keyed by the field ("answers
 *   422 for an iban with a zero-width space inside", "answers 422 for a swift of 8 alphanumerics with a zero-width
 *   space inside", suites/banks.test.ts; "answers 422 for lastFourDigits of 4 digits with a zero-width space inside",
 *   suites/cards.test.ts); docs/judging.md "Normalisation before validation" says only outer white space and letter
 *   case are normalisation there.
 * - wb20-cards-expiry-spaces-around-slash-accepted, wb20-cards-expiry-year-first-accepted: the other-writings table
 *   sends `12 / 45`, `12/ 45` and `45/12` too, each 422 keyed by expirationDate ("answers 422 for expiries written
 *   otherwise than m/y, m and y (12-45, 12.45, Dec/45, 12/045, 12 / 45, 12/ 45, 45/12; expirationMonth Dec;
 *   expirationYear 045)", suites/cards.test.ts; renamed from the round wb19 title, kill hints carried over).
 *
 * Closed after the round (fix-wb20a, registered; none depends on a draw: every writing is made from the session's own
 * token and the JWTs are signed with fixed claims; each killed by `nice -n 19 node bin/mutants.mjs --shards 1 --mutant
 * NAME`):
 * - wb20-token-id-decimal-writing-accepted (an allowed reading since review-ai F1: probes-review-ai.ts),
 *   wb20-bearer-scheme-twice-accepted (an allowed reading since review-aj F1: probes-review-aj.ts),
 *   wb20-bearer-scheme-glued-accepted: the access table's malformed row also sends, as the whole Authorization header, `Bearer <id>.0|<secret>`,
 *   `Bearer +<id>|<secret>`, `Bearer Bearer <token>` and `Bearer<token>`, for every kind of login
 *   (helpers/arrange/invariants.ts malformedWritings): 401. Caught by "answers the whole access table in every path
 *   shape (...)" of every protected route.
 * - wb20-jwt-expire-zero-accepted: "answers 416 (or 412), never a Session, for a JWT whose expire is 0 (by id) or -1 (by
 *   email)" (suites/authentication.test.ts; one fresh account, two failed logins): 416 or 412 in the 412 / 416 format
 *   (allowed-r20-jwt-expire-before-2000-invalid answers 412).
 *
 * Left OPEN after the round (fix-wb20a): wb20-reset-token-case-insensitive. The reference e-mails a reset token of
 * lower-case hexadecimal (randomBytes(32).toString('hex')), and the lead's ruling takes a one-case hex token re-cased as
 * the same token under a hex decoder's reading (as review-o for the access token; allowed-r7-reset-token-any-case is
 * that reading, registered): against the reference a re-cased row could only advise, so no check can kill the mutant,
 * which on a lower-case hex token answers exactly as allowed-r7-reset-token-any-case does. Catching it needs a token of
 * another alphabet (mixed-case, base62, base64url) arranged by the reference or a provider state; left to the lead.
 *
 * Doubts (each kept a deviation, said here for the lead): wb20-cards-last-four-unicode-digits-accepted relies on
 * "numeric, exactly 4 digits" meaning ASCII digits; a Unicode `\d` (.NET, Python's str.isdigit) calls `１２３４` four
 * digits, though no card number is printed so and section 8 says "exactly 4 digits" of a card. wb20-bank-delete-id-in-
 * braces-deletes: judging.md lets a delete of an id that is no UUID answer 200 ("a delete's 200 aside"); the mutant is a
 * deviation only because it also removes the bank named by that other writing (the bank is gone from the show and the
 * list), which docs/judging.md's "one in braces stays another id" rules out. wb20-bearer-scheme-twice-accepted and
 * wb20-bearer-scheme-glued-accepted are lenient header parsers, as wb19-token-in-quotes-accepted was (registered).
 */
const OPEN = new Set<string>([
  'wb20-reset-token-case-insensitive',
]);

/**
 * Not deviations under every reading (the lead's judgement after the round; never registered):
 * - Ids in braces or without hyphens: wb20-bank-show-id-in-braces-answered, wb20-card-show-id-in-braces-answered,
 *   wb20-bonus-show-id-in-braces-answered, wb20-bank-delete-id-in-braces-deletes, wb20-jwt-id-claim-in-braces-accepted,
 *   wb20-jwt-id-claim-without-hyphens-accepted, wb20-jwt-platform-id-in-braces-accepted. 1.6 and 2.1 give ids as "UUID
 *   string"s; `{<uuid>}` and the 32 hex digits without hyphens are writings of the same UUID that PostgreSQL's `uuid`
 *   input and .NET's Guid.Parse read as that UUID, so a target whose lookup casts the segment or claim finds the same
 *   record, user or platform. docs/judging.md's "one in braces stays another id" is about the ids of an answer, which
 *   the schemas hold to the canonical form; a path segment or claim the client writes otherwise names the same UUID
 *   under such a reading.
 * - E-mail writings: wb20-login-email-trailing-dot-read-as-account, wb20-forgot-email-trailing-dot-read-as-account,
 *   wb20-reset-email-trailing-dot-read-as-account, wb20-jwt-email-claim-trailing-dot-accepted (a domain with its
 *   trailing dot is the same fully qualified domain in DNS), wb20-login-email-local-dots-ignored,
 *   wb20-forgot-email-local-dots-ignored (a service that canonicalises addresses as Gmail does, dots of the local part
 *   aside, holds one account per canonical address: the normalisation axis, as letter case is; the password still
 *   decides a login).
 * - wb20-token-pipe-url-encoded-accepted (fix-wb20a): `Bearer <id>%7C<secret>` read as the token is the registered
 *   reading allowed-r19-bearer-percent-encoded-read ("a bearer token sent percent-encoded ... is read decoded, as a team
 *   whose gateway decodes the credential before the service reads it does"; 5.3 gives the header's form, 2.1 the
 *   token's, and whether an encoded form of it is read is not given). The malformed row sends that writing too and
 *   advises (a security note) when it is accepted, never fails it.
 * - wb20-cards-last-four-unicode-digits-accepted: "numeric, exactly 4 digits" under a Unicode digit class (.NET's \d,
 *   Python's str.isdigit) takes full-width and Arabic-Indic digits; that they are ASCII is not said.
 */
const NOT_DEVIATIONS = new Set<string>([
  'wb20-token-pipe-url-encoded-accepted',
  'wb20-bank-delete-id-in-braces-deletes',
  'wb20-bank-show-id-in-braces-answered',
  'wb20-bonus-show-id-in-braces-answered',
  'wb20-card-show-id-in-braces-answered',
  'wb20-jwt-id-claim-in-braces-accepted',
  'wb20-jwt-id-claim-without-hyphens-accepted',
  'wb20-jwt-platform-id-in-braces-accepted',
  'wb20-cards-last-four-unicode-digits-accepted',
  'wb20-forgot-email-local-dots-ignored',
  'wb20-login-email-local-dots-ignored',
  'wb20-forgot-email-trailing-dot-read-as-account',
  'wb20-login-email-trailing-dot-read-as-account',
  'wb20-reset-email-trailing-dot-read-as-account',
  'wb20-jwt-email-claim-trailing-dot-accepted',
]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb20Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name) && !NOT_DEVIATIONS.has(mutant.name));

/** The mutants of the round judged no deviation under every reading (not registered). */
export const roundWb20NotDeviations: Mutant[] = written.filter((mutant) => NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb20OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));

/** Every mutant the round wrote. */
export const roundWb20Written: readonly Mutant[] = written;

