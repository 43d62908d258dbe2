import type { FastifyReply } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import { answerWith, onCardFields, onParsedBody, parse, perServer, recordsOf, routeOf } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';

/**
 * White-box round wb19 (issue 27, "a rule is verified only where it was checked everywhere it applies"): deviations a
 * real backend could ship, written by a nineteenth reviewer who read the specification, docs/judging.md, suites/ and
 * helpers/ (ACCESS_CLASSES, LISTS and RECORD_ROUTES of helpers/spec/instances.ts, the value-class tables of the banks and
 * cards suites, the JWT tables, the bonus and balance checks) and aimed at what rounds wb1 to wb18 left alone:
 * - exactness of what identifies: an access token whose numeric id is read as a number (`0123|secret`, `123abc|secret`:
 *   Sanctum's `find($id)` on MySQL casts the text), a token sent in quotes; e-mails matched with SQL LIKE wildcards
 *   (`_`, `%`) at login, forgot- and reset-password; a JWT platform id read as a number; an asset symbol matched as a
 *   prefix (assets[], the bonus summary's {asset});
 * - value classes never sent: an expiry written with another separator, with a month's name, a year of three digits;
 *   names with a backslash (stripslashes), parentheses, a comma;
 * - siblings of checked rules: the 2fa format (section 8) for an account without 2FA; "responses are JSON" on the 404 of
 *   an unknown balance symbol, of an unknown summary asset, on the refusal of an owner query parameter;
 * - sequences never tried: a bank delete, then the user's cards; a password reset, then a 2FA login without a code; two
 *   users reading one coin or NFT in turn (a cache keyed by symbol or query alone);
 * - consistency inside one record: an order's `fromAsset` against its `fromSymbol`, `toSymbol` against `toAsset`.
 * Each breaks a rule that holds under every reading of the specification; its description quotes the sentence it
 * breaks. All rewrite answers as sent, or a request before the reference reads it (a bearer, a path parameter, a body
 * field, a query); one (the reset that drops 2FA) clears a user's TOTP secret through ctx.db, as the deviating reset
 * would; none needs a deviation of the reference's modules.
 *
 * Score before fixes: 5 caught of 31 (`nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME ...`, three batches of 10, 10
 * and 11; the 26 survivors again together with --no-hints: 0 of 26 caught; see OPEN). Every mutant was first seen to bite
 * by a throwaway script of inject calls against the reference with and without it (not kept): e.g. `123ab|secret` and
 * `"123|secret"` answered 200 (401 unmutated); a login, forgot- and reset-password with `a_c@x` for `abc@x` answered 200
 * (403/422 unmutated); a non-2FA login with 2fa `12345` 200 (422); a JWT to `<platform id>x` 200 (403); a 2FA account's
 * login without a code after a reset 200 (403); card expiries `12-45`, `Dec/45` and the pair 12/`045` 201 (422);
 * `Jo \\ Doe`, `C:\\card`, `A\\B Bank` stored without the backslash; `DOE, JOHN` and `HSBC Bank (Europe)` refused 422
 * (201); an IBAN that begins another of the user's refused as taken (201); the card list empty after a bank delete (one
 * card); `assets[]=ET` listing ETH (none); a summary of `BT` answering BTC's entry (none); the 404 of `balances/NOPE`,
 * `balances/nft/NOPE` as text/html, the summary of `NOBONUSASSET` as text/plain 404 (200 []), `card?user_id=` 400 HTML (200);
 * the second user's coin list, coin show and summary the first user's; an order's fromAsset BTC beside fromSymbol EUR.
 * Dropped before scoring because they could not bite on the reference's data (kept out of `written`): an NFT show or
 * filtered NFT list cached across users (every user's NFTs have their own symbols), and a token id with leading zeros
 * (`0123|secret`), which the REFERENCE ITSELF accepts (reference/tokens.ts looks the id up as `Number(match[1])`), so the
 * mutant changed nothing: see the note under OPEN.
 */

const key = (id: unknown) => String(id).toLowerCase();
const paramsOf = (request: { params?: unknown }) => (request.params ?? {}) as Record<string, string | undefined>;
const queryOf = (request: { query?: unknown }) => (request.query ?? {}) as Record<string, unknown>;

// --- exactness of what identifies -------------------------------------------------------------

/** The bearer token rewritten by `to` before the reference authenticates it (every protected route). */
function bearerReadAs(to: (bearer: string) => string | undefined): Mutation {
  return {
    request(request) {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header) : null;
      if (!match) return;
      const read = to(match[1]!.trim());
      if (read !== undefined) request.headers.authorization = `Bearer ${read}`;
    },
  };
}

/**
 * The `email` of `route`'s body matched with SQL LIKE (`WHERE email LIKE ?`, its wildcards unescaped): an address that
 * names no account but holds `_` or `%` is read as the first account it matches.
 */
function emailMatchedWithLike(route: string): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== route) return;
      onParsedBody(request, (body) => {
        const email = body.email;
        if (typeof email !== 'string' || !/[%_]/.test(email)) return;
        if (ctx.db.prepare('SELECT 1 FROM users WHERE email = ?').get(email)) return;
        const found = ctx.db.prepare('SELECT email FROM users WHERE email LIKE ? ORDER BY rowid LIMIT 1').get(email) as { email: string } | undefined;
        if (found) body.email = found.email;
      });
    },
  };
}

/** Section 8's 2fa format checked only for accounts with 2FA: an account without it logs in with any 2fa text. */
function twoFactorFormatOnlyFor2faAccounts(): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.login) return;
      onParsedBody(request, (body) => {
        const code = body['2fa'];
        if (typeof code !== 'string' || /^\d{6}$/.test(code) || typeof body.email !== 'string') return;
        const user = ctx.db.prepare('SELECT totp_secret FROM users WHERE email = ?').get(body.email) as { totp_secret: string | null } | undefined;
        if (user && !user.totp_secret) delete body['2fa'];
      });
    },
  };
}

/** A JWT login's `{platform}` cut to the 36 characters of a UUID (`substr($platform, 0, 36)`): `<id>x` is platform `<id>`. */
function jwtPlatformIdCut(): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.jwt) return;
      const platform = paramsOf(request).platform ?? '';
      if (platform.length <= 36) return;
      const cut = platform.slice(0, 36);
      if (ctx.db.prepare('SELECT 1 FROM platforms WHERE id = ?').get(cut)) (request.params as Record<string, string>).platform = cut;
    },
  };
}

/** A password reset answered 200 also turns off the account's 2FA (the reset clears `totp_secret` with the password). */
function resetDrops2fa(): Mutation {
  const reset = new Set<string>();
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.login || reset.size === 0) return;
      onParsedBody(request, (body) => {
        if (typeof body.email === 'string' && reset.has(key(body.email))) ctx.db.prepare('UPDATE users SET totp_secret = NULL WHERE email = ?').run(body.email);
      });
    },
    wire(answer, reply) {
      if (answer.method !== 'POST' || answer.url !== URL.reset || answer.status !== 200) return undefined;
      const body = (reply.request.body ?? {}) as Record<string, unknown>;
      if (typeof body.email === 'string') reset.add(key(body.email));
      return undefined;
    },
  };
}

// --- value classes never sent -------------------------------------------------------------------

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A card's expiry fields read by `read` before validation (a lenient date parser): a new value, or undefined to keep it. */
function cardExpiryReadAs(read: (field: string, value: string) => string | undefined): Mutation {
  return { request: (request) => onCardFields(request, read) };
}

/** stripslashes on `fields` of a bank create's body (an input filter of the old magic-quotes kind). */
const stripSlashes = (text: string) => text.replace(/\\(.?)/gs, '$1');

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

/**
 * A name rule beyond "max 191" (`regex:/^[\pL\pN .&'\-]+$/`): a bankName with `chars` is refused 422 keyed by
 * bankName. The reference is sent an over-long name, so it refuses (and stores nothing); its message is reworded.
 */
function bankNameRefusedFor(chars: RegExp): Mutation {
  const marked = new WeakSet<object>();
  const inner = bankFieldRewritten('bankName', (name) => (chars.test(name) ? 'x'.repeat(192) : undefined), marked);
  return {
    request: inner.request,
    wire(answer, reply) {
      if (!marked.has(reply.request) || answer.status !== 422) return undefined;
      return answerWith(reply, 422, { message: 'The bank name format is invalid.', errors: { bankName: ['The bank name format is invalid.'] } });
    },
  };
}

/** As bankNameRefusedFor, for a card's holderName. */
function holderNameRefusedFor(chars: RegExp): Mutation {
  const marked = new WeakSet<object>();
  return {
    request(request) {
      onCardFields(request, (field, value) => {
        if (field !== 'holderName' || !chars.test(value)) return undefined;
        marked.add(request);
        return 'x'.repeat(192);
      });
    },
    wire(answer, reply) {
      if (!marked.has(reply.request) || answer.status !== 422) return undefined;
      return answerWith(reply, 422, { message: 'The holder name format is invalid.', errors: { holderName: ['The holder name format is invalid.'] } });
    },
  };
}

/**
 * IBAN uniqueness checked with a prefix match (`WHERE iban LIKE ? || '%'` both ways): an IBAN that begins another bank's
 * of the user, or that another's begins, is refused as taken (the create is sent that bank's IBAN, which the reference
 * refuses 422 keyed by iban).
 */
function ibanPrefixCountedTaken(): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.bankList) return;
      const user = paramsOf(request).user;
      onParsedBody(request, (body) => {
        const iban = body.iban;
        if (typeof iban !== 'string' || iban.length < 4 || !user) return;
        const other = ctx.db
          .prepare("SELECT iban FROM banks WHERE user_id = ? AND deleted_at IS NULL AND iban <> ? AND (iban LIKE ? || '%' OR ? LIKE iban || '%') LIMIT 1")
          .get(user, iban, iban, iban) as { iban: string } | undefined;
        if (other) body.iban = other.iban;
      });
    },
  };
}

/**
 * A bank delete (200) also removes the user's cards created before it (banks and cards kept in one payment-methods
 * table, the delete's `WHERE user_id = ?` missing its type): the card list no longer holds them, their show is 404.
 */
function bankDeleteCascadesCards(): Mutation {
  const deletedAt = new Map<string, number>();
  return {
    wire(answer, reply) {
      const user = key(paramsOf(reply.request).user);
      if (answer.method === 'DELETE' && answer.url === URL.bankOne && answer.status === 200) {
        deletedAt.set(user, Math.floor(Date.now() / 1000));
        return undefined;
      }
      const since = deletedAt.get(user);
      if (since === undefined || answer.method !== 'GET' || answer.status !== 200) return undefined;
      const body = parse(answer.payload);
      if (answer.url === URL.cardList && Array.isArray(body?.data)) {
        const kept = body.data.filter((card: any) => !(typeof card?.createdAt === 'number' && card.createdAt <= since));
        if (kept.length === body.data.length) return undefined;
        body.data = kept;
        return JSON.stringify(body);
      }
      if (answer.url === URL.cardOne && typeof body?.data?.createdAt === 'number' && body.data.createdAt <= since) {
        return answerWith(reply, 404, { message: `No query results for model [App\\Models\\Card] ${paramsOf(reply.request).card}` });
      }
      return undefined;
    },
  };
}

// --- balances -----------------------------------------------------------------------------------

/** assets[] symbols matched as prefixes (`symbol LIKE ? || '%'`): a symbol the user does not hold names every held one it begins. */
function assetsFilterByPrefix(route: string): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'GET' || routeOf(request) !== route) return;
      const query = queryOf(request) as Record<string, unknown>;
      const name = query['assets[]'] !== undefined ? 'assets[]' : query.assets !== undefined ? 'assets' : undefined;
      const user = paramsOf(request).user;
      if (!name || !user) return;
      const raw = query[name];
      const symbols = (Array.isArray(raw) ? raw : [raw]).filter((s): s is string => typeof s === 'string' && s !== '');
      const held = (ctx.db.prepare('SELECT symbol FROM balances WHERE user_id = ?').all(user) as { symbol: string }[]).map((r) => r.symbol);
      const out: string[] = [];
      let changed = false;
      for (const s of symbols) {
        if (held.some((h) => h.toLowerCase() === s.toLowerCase())) { out.push(s); continue; }
        const begun = held.filter((h) => h.toLowerCase().startsWith(s.toLowerCase()));
        if (begun.length === 0) { out.push(s); continue; }
        out.push(...begun);
        changed = true;
      }
      if (changed) (request.query as Record<string, unknown>)[name] = out.length === 1 ? out[0] : out;
    },
  };
}

/** A 404 of `routes` (the reference's JSON) sent as the framework's HTML or text page, unless `when` says otherwise. */
function notFoundAs(routes: readonly string[], type: 'html' | 'text', when: (answer: WireAnswer, reply: FastifyReply) => boolean = () => true): Mutation {
  return {
    wire(answer, reply) {
      if (!routes.includes(answer.url) || answer.status !== 404 || !when(answer, reply)) return undefined;
      reply.removeHeader('content-length');
      if (type === 'text') {
        reply.header('content-type', 'text/plain; charset=utf-8');
        return 'Not Found';
      }
      reply.header('content-type', 'text/html; charset=utf-8');
      return `<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n`;
    },
  };
}

/** A show of `route` cached by its symbol alone (`Cache::remember("balance:$asset")`): another user reading the same symbol gets the first reader's record. */
function showCachedBySymbol(route: string): Mutation {
  const cacheOf = perServer(() => new Map<string, { user: string; payload: string }>());
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== route || answer.status !== 200) return undefined;
      const cache = cacheOf(reply.server);
      const params = paramsOf(reply.request);
      const symbol = key(params.asset);
      const user = key(params.user);
      const hit = cache.get(symbol);
      if (hit && hit.user !== user) return hit.payload;
      cache.set(symbol, { user, payload: answer.payload });
      return undefined;
    },
  };
}


/** The 200 answers of `route` for which `when` holds cached under one key for every user: a second user gets the first user's answer. */
function routeCachedAcrossUsers(route: string, when: (reply: FastifyReply) => boolean): Mutation {
  const cacheOf = perServer((): { first?: { user: string; payload: string } } => ({}));
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== route || answer.status !== 200 || !when(reply)) return undefined;
      const cache = cacheOf(reply.server);
      const user = key(paramsOf(reply.request).user);
      if (cache.first && cache.first.user !== user) return cache.first.payload;
      cache.first ??= { user, payload: answer.payload };
      return undefined;
    },
  };
}

// --- bonuses ------------------------------------------------------------------------------------

/** Every bonus record's order (list, filtered list, show) changed by `change` (a relation or column mapped wrongly). */
function ordersChanged(change: (order: any) => boolean): Mutation {
  return {
    wire(answer) {
      if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== URL.bonusList && answer.url !== URL.bonusOne)) return undefined;
      const body = parse(answer.payload);
      let changed = false;
      for (const record of recordsOf(body)) if (record?.order && typeof record.order === 'object' && change(record.order)) changed = true;
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/** The summary's `{asset}` matched as a prefix (`LIKE ? || '%'`): an asset the user has no bonus in names the first of the user's bonus assets it begins. */
function summaryAssetByPrefix(): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'GET' || routeOf(request) !== URL.summary) return;
      const params = paramsOf(request);
      if (!params.asset || !params.user) return;
      const own = ctx.db.prepare('SELECT 1 FROM bonuses WHERE user_id = ? AND asset_symbol = ? COLLATE NOCASE').get(params.user, params.asset);
      if (own) return;
      const begun = ctx.db.prepare("SELECT asset_symbol FROM bonuses WHERE user_id = ? AND asset_symbol LIKE ? || '%' ORDER BY asset_symbol LIMIT 1").get(params.user, params.asset) as { asset_symbol: string } | undefined;
      if (begun) (request.params as Record<string, string>).asset = begun.asset_symbol;
    },
  };
}

/** A summary of an asset the user has no bonus in (200 with no entry) answered 404 as text/plain (`abort(404)` before the JSON middleware). */
function summaryEmptyAsText(): Mutation {
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== URL.summary || answer.status !== 200 || !paramsOf(reply.request).asset) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data) || body.data.length > 0) return undefined;
      reply.code(404);
      reply.header('content-type', 'text/plain; charset=utf-8');
      reply.removeHeader('content-length');
      return 'Not Found';
    },
  };
}

/** A list asked with an owner query parameter (user_id, userId, user) refused 400 as an HTML page (a strict query validator's default view). */
function ownerQueryRefusedAsHtml(): Mutation {
  const lists = new Set<string>([URL.bankList, URL.cardList, URL.bonusList]);
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || !lists.has(answer.url)) return undefined;
      const query = queryOf(reply.request);
      if (!['user_id', 'userId', 'user'].some((name) => name in query)) return undefined;
      reply.code(400);
      reply.header('content-type', 'text/html; charset=utf-8');
      reply.removeHeader('content-length');
      return '<!DOCTYPE html>\n<html><head><title>400 Bad Request</title></head><body><h1>Bad Request</h1><p>Unknown query parameter.</p></body></html>\n';
    },
  };
}

const UNKNOWN_SYMBOL = (answer: WireAnswer, reply: FastifyReply) => Boolean(paramsOf(reply.request).asset);

const written: Mutant[] = [
  // --- exactness: tokens ---
  // white-box round wb19
  { name: 'wb19-token-id-trailing-letters-accepted', clause: '5', group: 'authentication', description: 'sections 2.1/5.3 ("Without valid authentication the response is 401"): a token whose numeric id carries letters after its digits (123abc|secret, never issued) authenticates (MySQL casts \'123abc\' to 123 in WHERE id = ?)', mutation: bearerReadAs((b) => { const m = /^(\d+)[A-Za-z]+(\|.+)$/.exec(b); return m ? `${m[1]}${m[2]}` : undefined; }) },
  // white-box round wb19
  { name: 'wb19-token-in-quotes-accepted', clause: '5', group: 'authentication', description: 'sections 2.1/5.3 (the Session id is "sent later as the bearer token"; "Without valid authentication the response is 401"): a bearer token sent inside double quotes ("123|secret", another string than the one issued) authenticates (a middleware that trims quotes)', mutation: bearerReadAs((b) => /^"(.+)"$/.exec(b)?.[1]) },

  // --- exactness: e-mails ---
  // white-box round wb19
  { name: 'wb19-login-email-like-wildcards', clause: '4.2', group: 'authentication', description: 'sections 4.2/5.5 (403 "wrong credentials"): a login whose e-mail names no account but holds _ or % logs into the first account that e-mail matches as a SQL LIKE pattern (a_c@x for abc@x), with that account\u2019s password', mutation: emailMatchedWithLike(URL.login) },
  // white-box round wb19
  { name: 'wb19-forgot-email-like-wildcards', clause: '4.3', group: 'password', description: 'section 4.3 ("422 when the e-mail is unknown"): forgot-password for an unknown e-mail holding _ or % answers 200 and mails the reset to the first account it matches as a LIKE pattern', mutation: emailMatchedWithLike(URL.forgot) },
  // white-box round wb19
  { name: 'wb19-reset-email-like-wildcards', clause: '4.4', group: 'password', description: 'section 4.4 (e-mail "valid e-mail"; "422 when the token is invalid"): reset-password with an e-mail holding _ or % that names no account resets the account it matches as a LIKE pattern, with that account\u2019s token', mutation: emailMatchedWithLike(URL.reset) },
  // white-box round wb19
  { name: 'wb19-login-2fa-format-unchecked-without-2fa', clause: '8', group: 'authentication', description: 'sections 8/4.2 ("authenticate.2fa | exactly 6 digits", "enforced as validation errors, status 422"): for an account without 2FA a 2fa of 5 digits, 7 digits or letters is ignored and the login answers 200 (the 2fa rule checked only when the account has 2FA)', mutation: twoFactorFormatOnlyFor2faAccounts() },
  // white-box round wb19
  { name: 'wb19-jwt-platform-id-cut-to-uuid', clause: '4.1', group: 'authentication', description: 'section 4.1 ("platform (required), the platform ID"; the platform in the path verifies the JWT): a JWT sent to a platform id with characters after its UUID (<id>x: no such platform) authenticates as platform <id> (the segment cut to 36 characters)', mutation: jwtPlatformIdCut() },
  // white-box round wb19
  { name: 'wb19-reset-drops-2fa', clause: '4.4', group: 'password', description: 'sections 4.4/4.2 (reset "Finishes a password reset"; a 2FA account needs its code, docs/provider-states.md): a password reset also turns off the account\u2019s 2FA, so the new password logs in without a code', mutation: resetDrops2fa() },

  // --- value classes: card expiries ---
  // white-box round wb19
  { name: 'wb19-cards-expiry-other-separator-accepted', clause: '4.6a', group: 'cards', description: 'section 4.6a (expirationDate "format m/y"): an expirationDate written 12-45, 12.45 or 12 45 is accepted (201) and stored as 12/45 (a lenient date parser)', mutation: cardExpiryReadAs((field, value) => { if (field !== 'expirationDate') return undefined; const m = /^(\d{2})[-. ](\d{2})$/.exec(value); return m ? `${m[1]}/${m[2]}` : undefined; }) },
  // white-box round wb19
  { name: 'wb19-cards-expiry-month-name-accepted', clause: '4.6a', group: 'cards', description: 'section 4.6a (expirationDate "format m/y"; expirationMonth "format m"): an expiry month written as its English name (Dec/45; expirationMonth Dec) is accepted and stored as the month\u2019s number (strtotime)', mutation: cardExpiryReadAs((field, value) => { const month = (name: string) => { const i = MONTHS.indexOf(name.slice(0, 3).toLowerCase()); return i < 0 ? undefined : String(i + 1).padStart(2, '0'); }; if (field === 'expirationDate') { const m = /^([A-Za-z]{3,9})\/(\d{2})$/.exec(value); const n = m ? month(m[1]!) : undefined; return n ? `${n}/${m![2]}` : undefined; } if (field === 'expirationMonth' && /^[A-Za-z]{3,9}$/.test(value)) return month(value); return undefined; }) },
  // white-box round wb19
  { name: 'wb19-cards-expiry-year-three-digits-accepted', clause: '4.6a', group: 'cards', description: 'section 4.6a (expirationYear "format y; not in the past"): a year of three digits (045, as expirationYear or in 12/045) is read as its number, 45, then as 2045 and accepted; it is no two-digit year, and read whole (Unicode y) it is the year 45, in the past', mutation: cardExpiryReadAs((field, value) => { if (field === 'expirationYear') return /^0(\d{2})$/.exec(value)?.[1]; if (field === 'expirationDate') { const m = /^(\d{2})\/0(\d{2})$/.exec(value); return m ? `${m[1]}/${m[2]}` : undefined; } return undefined; }) },

  // --- value classes: names ---
  // white-box round wb19
  { name: 'wb19-cards-holder-name-backslash-stripped', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (holderName "max 191"; records hold what was sent): backslashes are taken out of a card\u2019s holderName before it is stored (stripslashes), in every read', mutation: cardExpiryReadAs((field, value) => (field === 'holderName' && value.includes('\\') ? stripSlashes(value) : undefined)) },
  // white-box round wb19
  { name: 'wb19-cards-alias-backslash-stripped', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (alias "max 191"; records hold what was sent): backslashes are taken out of a card\u2019s alias before it is stored (stripslashes)', mutation: cardExpiryReadAs((field, value) => (field === 'alias' && value.includes('\\') ? stripSlashes(value) : undefined)) },
  // white-box round wb19
  { name: 'wb19-cards-holder-name-comma-refused', clause: '4.6a', group: 'cards', description: 'section 4.6a (holderName "string | yes | max 191"): a holderName with a comma (DOE, JOHN) is refused 422 keyed by holderName (a name rule beyond the table)', mutation: holderNameRefusedFor(/,/) },
  // white-box round wb19
  { name: 'wb19-banks-bank-name-backslash-stripped', clause: '4.10', group: 'banks', description: 'sections 4.10/2.4 (bankName "max 191"; records hold what was sent): backslashes are taken out of a bankName before it is stored (stripslashes), in every read', mutation: bankFieldRewritten('bankName', (name) => (name.includes('\\') ? stripSlashes(name) : undefined)) },
  // white-box round wb19
  { name: 'wb19-banks-bank-name-parentheses-refused', clause: '4.10', group: 'banks', description: 'section 4.10 (bankName "string | yes | max 191"): a bankName with parentheses or a comma (HSBC Bank (Europe), Bank, N.A.) is refused 422 keyed by bankName (a name rule beyond the table)', mutation: bankNameRefusedFor(/[(),]/) },
  // white-box round wb19
  { name: 'wb19-banks-iban-prefix-counted-taken', clause: '4.10', group: 'banks', description: 'sections 4.10/8 (iban "max 191, alphanumeric, unique"): an IBAN that begins another of the user\u2019s banks\u2019 IBANs (or that one begins) is refused 422 as taken, though no bank has it (uniqueness checked with LIKE iban%)', mutation: ibanPrefixCountedTaken() },
  // white-box round wb19
  { name: 'wb19-bank-delete-removes-user-cards', clause: '4.10', group: 'banks', description: 'sections 4.10/4.6a (Delete "DELETE /api/v1/user/{user}/bank/{bank}"; the card list holds the user\u2019s cards): a bank delete also removes every card the user created before it (one payment-methods table, the delete\u2019s type condition missing): the card list drops them, their show answers 404', mutation: bankDeleteCascadesCards() },

  // --- balances ---
  // white-box round wb19
  { name: 'wb19-coin-filter-symbol-prefix-matched', clause: '4.8', group: 'balances', description: 'section 4.8 (assets[] "asset symbols to return"): an assets[] symbol the user does not hold lists every held coin whose symbol it begins (BT lists BTC; USD lists USDT and USDC), coins that were not named', mutation: assetsFilterByPrefix(URL.coinList) },
  // white-box round wb19
  { name: 'wb19-nft-filter-symbol-prefix-matched', clause: '4.6', group: 'balances', description: 'section 4.6 (assets[] "asset symbols to return"): an assets[] symbol the user does not hold lists every held NFT whose symbol it begins, NFTs that were not named', mutation: assetsFilterByPrefix(URL.nftList) },
  // white-box round wb19
  { name: 'wb19-coin-show-unknown-symbol-404-html', clause: '1', group: 'balances', description: 'section 1.2 ("Requests and responses are JSON"): a coin show of a symbol the user does not hold answers 404 as an HTML page (text/html)', mutation: notFoundAs([URL.coinOne], 'html', UNKNOWN_SYMBOL) },
  // white-box round wb19
  { name: 'wb19-nft-show-unknown-symbol-404-html', clause: '1', group: 'balances', description: 'section 1.2 ("Requests and responses are JSON"): an NFT show of a symbol the user does not hold answers 404 as an HTML page (text/html)', mutation: notFoundAs([URL.nftOne], 'html', UNKNOWN_SYMBOL) },
  // white-box round wb19
  { name: 'wb19-coin-list-cached-across-users', clause: '4.8', group: 'balances', description: 'sections 4.8/5.6 (GET /api/v1/user/{user}/balances, the user\u2019s coins): the unfiltered coin list is cached under one key for every user, so the second user to ask gets the first user\u2019s coins and amounts', mutation: routeCachedAcrossUsers(URL.coinList, (reply) => Object.keys(queryOf(reply.request)).length === 0) },
  // white-box round wb19
  { name: 'wb19-coin-show-cached-by-symbol-across-users', clause: '4.9', group: 'balances', description: 'sections 4.9/5.6 (GET /api/v1/user/{user}/balances/{asset}: the user\u2019s balance): a coin show is cached by its symbol alone, so the second user to read a coin gets the first reader\u2019s record and amounts', mutation: showCachedBySymbol(URL.coinOne) },

  // --- bonuses ---
  // white-box round wb19
  { name: 'wb19-bonuses-order-from-asset-of-to-symbol', clause: '2.7', group: 'bonuses', description: 'section 2.7 (fromSymbol, toSymbol; fromAsset, toAsset "asset summary"): every read of a bonus gives its order\u2019s fromAsset as the summary of the toSymbol asset (the relation defined on to_symbol), while fromSymbol names the other asset', mutation: ordersChanged((o) => { if (!o.fromAsset || !o.toAsset || o.fromAsset.symbol === o.toAsset.symbol) return false; o.fromAsset = structuredClone(o.toAsset); return true; }) },
  // white-box round wb19
  { name: 'wb19-bonuses-order-to-asset-of-from-symbol', clause: '2.7', group: 'bonuses', description: 'section 2.7 (fromSymbol, toSymbol; fromAsset, toAsset "asset summary"): every read of a bonus gives its order\u2019s toAsset as the summary of the fromSymbol asset (the relation defined on from_symbol), while toSymbol names the asset bought', mutation: ordersChanged((o) => { if (!o.fromAsset || !o.toAsset || o.fromAsset.symbol === o.toAsset.symbol) return false; o.toAsset = structuredClone(o.fromAsset); return true; }) },
  // white-box round wb19
  { name: 'wb19-bonuses-summary-all-assets-cached-across-users', clause: '4.11', group: 'bonuses', description: 'sections 4.11/5.6 (GET /api/v1/user/{user}/bonus/assets/{asset?}, the user\u2019s bonuses): the summary of all assets (without {asset}) is cached under one key for every user, so the second user to ask gets the first user\u2019s summary (the sibling path shape of wb13\u2019s cached {asset} summary)', mutation: routeCachedAcrossUsers(URL.summary, (reply) => !paramsOf(reply.request).asset) },
  // white-box round wb19
  { name: 'wb19-bonuses-order-to-symbol-as-from-symbol', clause: '2.7', group: 'bonuses', description: 'section 2.7 (fromSymbol, toSymbol; toAsset "asset summary"): every read of a bonus gives its order\u2019s toSymbol as the fromSymbol (a column mapped twice), while toAsset names the asset bought', mutation: ordersChanged((o) => { if (typeof o.fromSymbol !== 'string' || o.toSymbol === o.fromSymbol) return false; o.toSymbol = o.fromSymbol; return true; }) },
  // white-box round wb19
  { name: 'wb19-bonuses-summary-asset-prefix-matched', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5b ({asset} "optional path segment (symbol)"): the summary of an asset the user has no bonus in, whose symbol begins the symbol of one the user has, answers that asset\u2019s entry (asset matched with LIKE asset%)', mutation: summaryAssetByPrefix() },
  // white-box round wb19
  { name: 'wb19-bonuses-summary-unknown-asset-404-text', clause: '1', group: 'bonuses', description: 'section 1.2 ("Requests and responses are JSON"): the summary of an asset the user has no bonus in answers 404 as text/plain "Not Found"', mutation: summaryEmptyAsText() },

  // --- lists: a refusal's form ---
  // white-box round wb19
  { name: 'wb19-lists-owner-query-400-html', clause: '1', group: 'banks', description: 'section 1.2 ("Requests and responses are JSON"): the bank, card and bonus lists asked with user_id, userId or user in the query answer 400 as an HTML page (a strict query validator\u2019s default view)', mutation: ownerQueryRefusedAsHtml() },
];

/*
 * Caught (5): wb19-login-2fa-format-unchecked-without-2fa (POST authenticate's boundary rows send a 2fa of 5 and 7 digits
 * to an account without 2FA: 422 expected); wb19-banks-bank-name-parentheses-refused (faker's company names with a comma,
 * e.g. the delete tests' banks: drawn, not arranged); wb19-bonuses-summary-all-assets-cached-across-users (the valid-token
 * rows of the summary in both path shapes compare with the user's own bonuses); wb19-coin-list-cached-across-users and
 * wb19-coin-show-cached-by-symbol-across-users (the coin precision/amount checks against the state's amounts).
 *
 * Survivors (OPEN), each with the shallow check and the check that would catch it:
 * - wb19-token-id-trailing-letters-accepted, wb19-token-in-quotes-accepted: ACCESS_CLASSES alters the secret (wrong,
 *   re-cased, appended, truncated, under another id) but never the numeric id's writing nor the token's framing. Would
 *   catch: rows `<id>ab|<secret>` (and `0<id>|<secret>`, once the reference stops accepting it) and `"<token>"`: 401.
 * - wb19-login-email-like-wildcards, wb19-forgot-email-like-wildcards, wb19-reset-email-like-wildcards: the e-mails
 *   sent as "unknown" are a prefix of the account's ("without its last character") or fresh addresses; none holds a LIKE
 *   wildcard. Would catch: the account's e-mail with one letter replaced by `_` (and its local part by `%`): login 403 with
 *   the right password, forgot-password 422 keyed by email, reset-password with the account's token 422 (email or token),
 *   the password unchanged.
 * - wb19-jwt-platform-id-cut-to-uuid: "never authenticates a valid JWT sent to an unknown platform" sends an unrelated id.
 *   Would catch: the real platform's id with a character appended (and cut by one) as `{platform}`: never a Session.
 * - wb19-reset-drops-2fa: "answers 200 for a 2FA account, and the new password logs in with a TOTP code" only logs in
 *   WITH a code. Would catch: after that reset, a login with the new password and no code must be refused (the 2FA
 *   judgement, "must not log in without a valid TOTP code").
 * - wb19-bank-delete-removes-user-cards: after a bank delete the suite reads banks only ("deletes that only" keeps the
 *   user's other BANK). Would catch: a user with a card and two banks; after the delete of one bank the card list and
 *   card show still answer the card with its fields (and the bonus list its bonuses).
 * - wb19-coin-show-unknown-symbol-404-html, wb19-nft-show-unknown-symbol-404-html, wb19-bonuses-summary-unknown-asset-404-text,
 *   wb19-lists-owner-query-400-html:
 *   the checks where the specification is silent on the status (an unknown balance symbol, a summary asset without
 *   bonuses, an owner query parameter) read the status only (expectNoServerError), never that the refusal is JSON
 *   (section 1.2), the wb18-record-id-not-uuid-404-html gap on four more routes. Would catch: the JSON media type (and
 *   `{ message }` or `{ error }`) asked of every 4xx those checks accept.
 * - wb19-bonuses-order-from-asset-of-to-symbol, wb19-bonuses-order-to-asset-of-from-symbol,
 *   wb19-bonuses-order-to-symbol-as-from-symbol: an order is compared between reads member by member, never with itself.
 *   Would catch: in every read, `fromAsset.symbol` equals `fromSymbol` and `toAsset.symbol` equals `toSymbol` (case-free).
 *
 * Noticed, left alone: the reference accepts a token whose numeric id has leading zeros (`01|<secret>` for `1|<secret>`:
 * reference/tokens.ts `Number(match[1])`), another string than the one issued, which judging.md's "Every access-table
 * credential that is not the token issued answers 401" would refuse; a row for it would fail the reference as it stands.
 * Doubts: the four "responses are JSON" survivors share wb18's doubt (the status there is open, the media type is not);
 * wb19-token-in-quotes-accepted is the mildest deviation (a lenient parser; no other user's token is reachable);
 * wb19-coin-filter-symbol-prefix-matched relies on "assets[] returns the symbols it names" (judging.md) against a search
 * reading such as the bank currency's (allowed-wb6-bank-list-currency-filter-search), which 4.6/4.8's "asset symbols to
 * return" does not offer; wb19-reset-drops-2fa relies on the provider-state promise that a 2FA account needs its code,
 * which a reset (4.4: "Finishes a password reset") gives no reason to lift.
 *
 * Closed after the round (fix-wb19b, registered; none depends on a draw: every value is arranged; each killed by
 * `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME` on each of three runs):
 * - wb19-cards-expiry-other-separator-accepted, wb19-cards-expiry-month-name-accepted,
 *   wb19-cards-expiry-year-three-digits-accepted: "POST /api/v1/user/{user}/card answers 422 for expiries written
 *   otherwise than m/y, m and y (12-45, 12.45, Dec/45, 12/045, 12 / 45, 12/ 45, 45/12; expirationMonth Dec; expirationYear
 *   045)" (suites/cards.test.ts; the last three writings added by fix-wb20b): one user, six creates (nine since), each
 *   422 keyed by an expiry field. None is a writing any reading takes
 *   (docs/judging.md "The expiry m/y": only a one-digit month and the year's number of digits are open; 045 is no PHP y
 *   and, as Unicode's y, the year 45, in the past).
 * - wb19-cards-holder-name-backslash-stripped, wb19-cards-alias-backslash-stripped: "... answers 201 for a holderName and
 *   an alias with a backslash (and an alias with a comma and parentheses), stored as sent" (suites/cards.test.ts): one
 *   card, compared in the create answer, the show and the list; a 422 keyed by holderName alone is advised on (a symbol no
 *   card is embossed with: allowed-r18-holder-name-embossable-characters) and the alias sent again beside a plain
 *   holderName.
 * - wb19-banks-bank-name-backslash-stripped, and wb19-banks-bank-name-parentheses-refused (registered, caught before only
 *   when faker drew a name with a comma): "POST /api/v1/user/{user}/bank answers 201 for bankNames with parentheses and a
 *   comma, and with backslashes" (suites/banks.test.ts, a value-class row: `HSBC Bank (Europe), N.A.` and
 *   `A\B Bank \ Main\`, each in the create answer, the show and the list).
 * - wb19-banks-iban-prefix-counted-taken: "... answers 201 for IBANs that begin with a taken one or that a taken one begins
 *   (unique is the whole value), all listed" (suites/banks.test.ts): the user's IBAN with a digit appended and cut by its
 *   last character, in the first bank's currency, both 201 and listed with the first.
 * - wb19-coin-filter-symbol-prefix-matched, wb19-nft-filter-symbol-prefix-matched: "GET /api/v1/user/{user}/balances lists
 *   none of the held coins when assets[] names a held coin's symbol cut by one character (a symbol the user does not
 *   hold)" and its NFT twin (suites/balances.test.ts, expectCutSymbolListsNoHeld): a 200 lists no held asset the filter did
 *   not name (docs/judging.md "assets[] returns the symbols it names"); a refusal other than 401, 403, 409 is advised on,
 *   and so is a record named by its alias (allowed-r12-assets-filter-reads-aliases) or of an asset not held.
 * - wb19-bonuses-summary-asset-prefix-matched: "GET /api/v1/user/{user}/bonus/assets/{asset?} answers a bonus asset's
 *   symbol cut by one character (an asset the user has no bonus in) with no other asset" (suites/bonuses.test.ts), as the
 *   NOBONUSASSET row judges it (a non-200 advised on).
 * Closed after the round (fix-wb19a, registered; each killed by `nice -n 19 node bin/mutants.mjs --shards 1 --mutant
 * NAME`; none depends on a draw):
 * - wb19-token-id-trailing-letters-accepted, wb19-token-in-quotes-accepted: the access table's malformed row (no
 *   <numeric_id>|<secret>) also sends the real token with letters after its id (`<id>ab|<secret>`) and inside double
 *   quotes, for every kind of login (helpers/arrange/invariants.ts malformedWritings). Caught by "answers the whole
 *   access table in every path shape (...)" of every protected route. No leading-zeros row (`01|<secret>`): the
 *   reference accepts it, as Sanctum on MySQL does; left open.
 * - wb19-login-email-like-wildcards: "answers 403 with { error } for the account's e-mail with a letter replaced by a
 *   LIKE wildcard (_ and %), with the account's password" (suites/authentication.test.ts; a fresh account, its own login
 *   first, then two failed logins; 422 keyed by email advised on). wb19-forgot-email-like-wildcards: "answers 422 keyed
 *   by email for a known e-mail with a letter replaced by a LIKE wildcard (_ and %)"; wb19-reset-email-like-wildcards:
 *   "answers 422 keyed by email or token for the account's token with its e-mail's letter replaced by a LIKE wildcard
 *   (_ and %), and the password stays unchanged" (suites/password.test.ts; helpers/arrange/password.ts
 *   likeWildcardEmails).
 * - wb19-jwt-platform-id-cut-to-uuid: "never authenticates a valid JWT sent to an unknown platform" also sends the real
 *   platform's id with a character appended (its account now fails 2 logins, the limit).
 * - wb19-reset-drops-2fa: "answers 200 for a 2FA account, and the new password logs in with a TOTP code while the old
 *   one is refused" then logs in with the new password and no code: refused (4xx), never a Session (the disposable
 *   account's second failed login).
 * - wb19-bank-delete-removes-user-cards: "answers 200 with { message } and the bank is no longer listed, ..." (DELETE
 *   bank) creates a card before the delete and reads it after it (listed, shown 200), and the bonus list before and after.
 * - wb19-bonuses-order-from-asset-of-to-symbol, wb19-bonuses-order-to-asset-of-from-symbol,
 *   wb19-bonuses-order-to-symbol-as-from-symbol: every bonus-response and bonus-list-response read (helpers/check/check.ts
 *   expectSchema, helpers/spec/orders.ts) asks fromAsset.symbol = fromSymbol and toAsset.symbol = toSymbol, letter case
 *   aside (allowed-r15-order-symbols-lower-case stays conformant). Caught by "answers 200 with the user's bonuses as full
 *   records" and "answers 200 with the bonus asked for as a full record", which cite 2.7.
 * Not deviations (the lead's judgement; NOT_DEVIATIONS below): the four "responses are JSON" survivors.
 */
/**
 * Closed by the lead (the session after the round): wb19-cards-holder-name-comma-refused. It had been moved to
 * NOT_DEVIATIONS on the premise that allowed-r18-holder-name-embossable-characters is an allowed reading; it is not
 * (round r18 ruled it a fair refusal: "max 191" is the whole rule), so it went back to OPEN. The backslash row
 * "answers 201 for a holderName and an alias with a backslash (and an alias with a comma and parentheses), stored as
 * sent" (suites/cards.test.ts) now sends the holderName `Doe, Jo \ Jr.` (family name first, a comma, a backslash) and
 * no longer advises on a 422 keyed by holderName: caught, registered.
 */
const OPEN = new Set<string>([]);

/**
 * Not deviations under every reading (the lead's judgement, fix-wb19a and fix-wb19b): moved out of OPEN, never registered.
 * - wb19-coin-show-unknown-symbol-404-html, wb19-nft-show-unknown-symbol-404-html,
 *   wb19-bonuses-summary-unknown-asset-404-text, wb19-lists-owner-query-400-html: where the text leaves the status open
 *   (a balance symbol the user does not hold: 4.7 and 4.9 name no 404; a summary {asset} without bonuses: 4.11 names
 *   200 only; a query parameter no table names: docs/judging.md "Precedence of errors", as review-r's
 *   allowed-review-r-unknown-query-400 refuses it 400), an error answer that is not JSON may come from something in
 *   front of the interface (a framework's router or strict query validator, a WAF, a gateway): principle 7 says nothing
 *   passes against an answer that is not the interface's, and it is no nonconformance either (section 1.2's "responses
 *   are JSON" is said of the interface's answers). The checks that meet such an answer report the test not verified,
 *   with the reason (helpers/check/errors.ts notInterfaceAnswer): "answers a coin (an NFT) symbol the user does not hold
 *   (the specification is silent)" (suites/balances.test.ts), "answers an asset the user has no bonus in with no other
 *   asset" (suites/bonuses.test.ts), and the lists' owner-query rows (helpers/arrange/invariants.ts
 *   expectOwnerNotFromQuery). As wb18-record-id-not-uuid-404-html (round-wb18.ts), whose check is now not verified too.
 */
const NOT_DEVIATIONS = new Set<string>([
  'wb19-bonuses-summary-unknown-asset-404-text',
  'wb19-coin-show-unknown-symbol-404-html',
  'wb19-lists-owner-query-400-html',
  'wb19-nft-show-unknown-symbol-404-html',
]);


/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb19Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name) && !NOT_DEVIATIONS.has(mutant.name));

/** The round's mutants that are no deviation under every reading (not registered; see NOT_DEVIATIONS). */
export const roundWb19NotDeviations: Mutant[] = written.filter((mutant) => NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb19OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));

/** Every mutant the round wrote. */
export const roundWb19Written: readonly Mutant[] = written;
