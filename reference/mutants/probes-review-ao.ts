import type { FastifyReply, FastifyRequest } from 'fastify';
import type Database from 'better-sqlite3';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import type { Mutant } from './types.js';
import { isSessionAnswer, judgedDeviations, onBankCreate, only, parse, perServer, reading, recordsOf } from './reading.js';
import { BANK_ROUTES, BANKS, BONUS, LOGOUT } from './routes.js';

/**
 * review-ao (issue 28, "fair to the readings nobody listed"): a read-only fairness review of the newest changes (round
 * wb23's balances assets and company.none, fix-wb24, explore's judging), suites/banks, cards, bonuses and the helpers
 * they use, and authentication. Each probe takes one choice the text leaves open, the other way from the reference; each
 * description quotes the text that leaves the point open. Verdicts (bin/mutants.mjs --shards 1 --mutant NAME, 2026-11-28):
 * - P1 allowed-review-ao-login-renews-users-one-token: REFUSED by the three expired-token write rows
 *   (helpers/arrange/access.ts expiredWriteKept: it logs the account in before the write, which renews the one token);
 *   authentication group conformant (127 passed).
 * - P2 (currency=ALL read as every currency) and P3 (a bonus's user isActive false for an account that logs in) were
 *   written, REFUSED, and withdrawn: each is the behaviour of a deviation already ruled and registered
 *   (wb21-banks-currency-filter-all-lists-every-bank, wb9-bonuses-user-is-active-false), not a point left open.
 * - P4 allowed-review-ao-bank-currency-kept-lower-filtered-as-kept: REFUSED (suites/banks.test.ts, the currency filter
 *   test sends EUR only, not the code as the record shows it, as the status tests do with filterWritings).
 * - P5 allowed-review-ao-bank-client-generated-id: REFUSED (helpers/arrange/invariants.ts, extra id taken).
 * - P6 allowed-review-ao-login-shows-own-anti-phishing-code: REFUSED (27 bonuses tests, security finding: the anti-phishing
 *   code is learnt as a secret that never travels, helpers/arrange/bonuses.ts, and found in the owner's own login answer).
 * - P7 allowed-review-ao-bonus-show-masks-email-otherwise: REFUSED (helpers/arrange/invariants.ts, bonus show vs list).
 * - pin allowed-review-ao-login-renews-users-live-token: conformant (authentication, banks, cards).
 * The REFUSED ones fail `npm test`'s mutation run until the suite is fixed (or the lead rules them deviations).
 * The lead's fixes (2026-11-28): P1, P4, P6 and P7 are conformant now (F1: the expired-token write row not verified
 * where the login renews the expired token; F3: the currency filter asked as the record writes it; F2: the anti-phishing
 * code a finding only in an answer to another user, pinned by the deviation review-ao-login-shows-previous-users-anti-
 * phishing; F5: masks of the user's own value advised on). P5 was ruled a deviation (RULED_DEVIATIONS below), killed.
 */

const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();

/**
 * One access token per user, renewed by every login: the expiring-token recipe of Django REST framework
 * (`token, created = Token.objects.get_or_create(user=user)`, and when not created `token.created = now(); token.save()`,
 * the expiry counted from `created`). A login answers the user's one token, its lifetime started again, whether it was
 * still live or had run out; logout deletes it and the next login makes a new one. The tokens a provider state gives
 * (`user.expired-token`, `user.inactive`) are the user's one token too.
 */
function oneTokenPerUserRenewedAtLogin(reviveExpired = true): Mutation {
  const tokenOf = new Map<string, string>();
  let db: Database.Database | undefined;
  let now: () => number = Date.now;
  const remember = (ctx: ReferenceContext | undefined) => {
    if (!ctx) return;
    db = ctx.db;
    now = () => ctx.now();
  };
  return {
    request(_request, ctx) {
      remember(ctx);
    },
    state(name, data, ctx) {
      remember(ctx);
      const given = data as { id?: unknown; token?: unknown } | undefined;
      if ((name === 'user.expired-token' || name === 'user.inactive') && typeof given?.id === 'string' && typeof given.token === 'string') tokenOf.set(given.id, given.token);
      return data;
    },
    wire(answer: WireAnswer, reply) {
      if (answer.url === LOGOUT && answer.status === 200) {
        const token = bearerOf(reply.request);
        for (const [user, held] of tokenOf) if (held === token) tokenOf.delete(user);
        return undefined;
      }
      if (!isSessionAnswer(answer) || !db) return undefined;
      const body = parse(answer.payload);
      const session = body?.data;
      if (typeof session?.userId !== 'string' || typeof session.id !== 'string' || typeof session.ttl !== 'number') return undefined;
      const earlier = tokenOf.get(session.userId);
      const earlierId = earlier === undefined ? undefined : Number(/^(\d+)\|/.exec(earlier)?.[1]);
      const issuedId = Number(/^(\d+)\|/.exec(session.id)?.[1]);
      if (earlier === undefined || earlierId === undefined || !Number.isFinite(earlierId)) {
        tokenOf.set(session.userId, session.id);
        return undefined;
      }
      const at = now();
      // Without revival (the pin): a token whose lifetime is over is left as it is, and the login's new token becomes the user's one.
      const over = db.prepare('SELECT 1 FROM access_tokens WHERE id = ? AND expires_ms <= ?').get(earlierId, at);
      const renewed = over && !reviveExpired ? 0 : db.prepare('UPDATE access_tokens SET created_ms = ?, expires_ms = ? WHERE id = ?').run(at, at + session.ttl * 1000, earlierId).changes;
      if (renewed === 0) {
        tokenOf.set(session.userId, session.id);
        return undefined;
      }
      // The token this login issued is never shown: the user keeps one.
      if (Number.isFinite(issuedId)) db.prepare('DELETE FROM access_tokens WHERE id = ?').run(issuedId);
      session.id = earlier;
      return JSON.stringify(body);
    },
  };
}

/**
 * A bank's currency kept lower-case ("eur", as Stripe writes currencies), shown so, and the `currency` filter compared
 * with what is kept, letter for letter (a case-sensitive column: PostgreSQL's text, SQLite's BINARY): `currency=eur`
 * lists the EUR banks, `currency=EUR` none. A numeric code is left as it is.
 */
function currencyKeptLowerFilteredAsKept(): Mutation {
  return {
    request(request) {
      if (request.method !== 'GET' || !/^\/api\/v1\/user\/[^/?]+\/bank(?:\?|$)/.test(request.url)) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const value = query.currency;
      if (typeof value !== 'string' || !/[A-Za-z]/.test(value)) return;
      // The reference keeps the code upper-case: a value written in lower case is the kept one; any other matches nothing kept.
      query.currency = value === value.toLowerCase() ? value.toUpperCase() : `${value}\u0000not-as-kept`;
    },
    wire(answer: WireAnswer) {
      if ((answer.status !== 200 && answer.status !== 201) || !BANK_ROUTES.includes(answer.url)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      let changed = false;
      for (const record of recordsOf(body)) {
        if (typeof record?.currency === 'string' && record.currency !== record.currency.toLowerCase()) {
          record.currency = record.currency.toLowerCase();
          changed = true;
        }
      }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

const ONE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVERY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A client-generated id taken (JSON:API 1.1, "Client-Generated IDs": "A server MAY accept a client-generated ID along
 * with a request to create a resource"; an offline-first client minting UUIDs): a bank create whose body carries an `id`
 * that is a UUID no bank has makes the bank under that id (the reference's own id mapped to it in every answer, and back
 * in paths); any other `id` is ignored as before.
 */
function bankClientGeneratedIdTaken(): Mutation {
  const wanted = new WeakMap<object, string>();
  const shownIds = new Map<string, string>();
  const referenceIds = new Map<string, string>();
  return {
    request(request, ctx) {
      const params = request.params as Record<string, string> | undefined;
      for (const [name, value] of Object.entries(params ?? {})) {
        const id = typeof value === 'string' ? referenceIds.get(value.toLowerCase()) : undefined;
        if (id !== undefined) params![name] = id;
      }
      onBankCreate(request, (body) => {
        const id = body.id;
        if (typeof id !== 'string' || !ONE_UUID.test(id) || referenceIds.has(id.toLowerCase())) return;
        if (ctx && ctx.db.prepare('SELECT 1 FROM banks WHERE id = ? COLLATE NOCASE').get(id)) return;
        wanted.set(request, id.toLowerCase());
      });
    },
    wire(answer: WireAnswer, reply) {
      const chosen = wanted.get(reply.request);
      if (chosen !== undefined && answer.method === 'POST' && answer.status === 201 && answer.url === BANKS) {
        const id = parse(answer.payload)?.data?.id;
        if (typeof id === 'string' && ONE_UUID.test(id) && !shownIds.has(id.toLowerCase())) {
          shownIds.set(id.toLowerCase(), chosen);
          referenceIds.set(chosen, id);
        }
      }
      if (shownIds.size === 0) return undefined;
      const rewritten = answer.payload.replace(EVERY_UUID, (id) => shownIds.get(id.toLowerCase()) ?? id);
      return rewritten === answer.payload ? undefined : rewritten;
    },
  };
}

/**
 * The answer to a login carries the caller's own profile beside the Session (an extra member, `data.user`), its
 * anti-phishing code in clear, so that the client can show it to its owner (the code's purpose: the user recognises it in
 * the platform's e-mails and screens). Only the caller's own code, only in the answer to its own login.
 */
function loginShowsOwnAntiPhishingCode(): Mutation {
  let db: Database.Database | undefined;
  return {
    request(_request, ctx) {
      if (ctx) db = ctx.db;
    },
    wire(answer: WireAnswer) {
      if (!isSessionAnswer(answer) || !db) return undefined;
      const body = parse(answer.payload);
      const userId = body?.data?.userId;
      if (typeof userId !== 'string') return undefined;
      const row = db.prepare('SELECT anti_phishing FROM users WHERE id = ?').get(userId) as { anti_phishing: string } | undefined;
      if (!row) return undefined;
      body.data.user = { id: userId, options: { guard: { antiPhishing: row.anti_phishing } } };
      return JSON.stringify(body);
    },
  };
}

/**
 * The pin of F2's boundary, a deviation: every login answers, beside the Session, a profile read from a cache that one
 * login fills for the next (keyed by nothing), so it carries the anti-phishing code of the user who logged in before.
 * `place` writes it into the answer's data (here its user's options.guard.antiPhishing; review-av D1: a profile's secretWord).
 */
export function loginShowsPreviousUsersAntiPhishingCode(place: (data: Record<string, any>, userId: string, code: string) => void = (data, userId, code) => (data.user = { id: userId, options: { guard: { antiPhishing: code } } })): Mutation {
  let db: Database.Database | undefined;
  const memory = perServer((): { previous?: string } => ({}));
  return {
    request(_request, ctx) {
      if (ctx) db = ctx.db;
    },
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (!isSessionAnswer(answer) || !db) return undefined;
      const body = parse(answer.payload);
      const userId = body?.data?.userId;
      if (typeof userId !== 'string') return undefined;
      const row = db.prepare('SELECT anti_phishing FROM users WHERE id = ?').get(userId) as { anti_phishing: string } | undefined;
      const seen = memory(reply.server);
      const shown = seen.previous;
      seen.previous = row?.anti_phishing ?? seen.previous;
      if (shown === undefined || shown === row?.anti_phishing) return undefined;
      place(body.data, userId, shown);
      return JSON.stringify(body);
    },
  };
}

/**
 * The bonus show writes its user's e-mail through another mask than the list (the show's full resource and the list's
 * light one each with its own helper): the first letter of the local part and the whole domain (`j*****@example.com`),
 * where the list keeps the reference's mask. Both are the user's e-mail "partially replaced with asterisks".
 */
function bonusShowMasksEmailOtherwise(): Mutation {
  let db: Database.Database | undefined;
  return {
    request(_request, ctx) {
      if (ctx) db = ctx.db;
    },
    wire(answer: WireAnswer) {
      if (answer.status !== 200 || answer.url !== BONUS || !db) return undefined;
      const body = parse(answer.payload);
      const user = body?.data?.user;
      if (!user || typeof user.id !== 'string') return undefined;
      const row = db.prepare('SELECT email FROM users WHERE id = ?').get(user.id) as { email: string } | undefined;
      if (!row) return undefined;
      const at = row.email.lastIndexOf('@');
      if (at < 1) return undefined;
      const local = row.email.slice(0, at);
      user.email = `${local[0]}${'*'.repeat(Math.max(3, local.length - 1))}${row.email.slice(at)}`;
      return JSON.stringify(body);
    },
  };
}

const written: Mutant[] = [
  // P1 (helpers/arrange/access.ts expiredWriteKept, fix-wb24 item 6): the account of state user.expired-token logs in
  // before its expired token is sent to a write.
  reading(
    'allowed-review-ao-login-renews-users-one-token',
    'authentication',
    '5',
    'one access token per user, renewed by every login (Django REST framework\u2019s expiring-token recipe: Token.objects.get_or_create(user=user), and when not created token.created = now(), the expiry counted from created): a login answers the user\u2019s one token with its lifetime started again, live or run out, and logout deletes it (5.2: "Both return a Session (2.1). Its id is the bearer token, valid for ttl seconds, until until"; 4.5: "Destroys the token"; nothing says that each login issues a token of its own, allowed-r12-login-reuses-live-token, nor that a token once over is never valid again)',
    oneTokenPerUserRenewedAtLogin(),
    only('banks', 'cards'),
  ),
  // P4 (suites/banks.test.ts 'returns only the banks of the currency given in the currency filter': currency=EUR, the
  // code as created, required to list the EUR bank whose record shows "eur").
  reading(
    'allowed-review-ao-bank-currency-kept-lower-filtered-as-kept',
    'banks',
    '4.10',
    'a bank\u2019s currency kept and shown lower-case ("eur", as Stripe writes currencies; allowed-r8-currency-shown-lower-case), and the currency filter compared letter for letter with what is kept (a case-sensitive column): currency=eur lists the EUR banks and currency=EUR none (4.10: query "currency" among "all optional filters, strings", no comparison given; docs/judging.md "Filters match by equality": a record may show a code in another letter case than the filter takes, so the value is sent as the records show it)',
    currencyKeptLowerFilteredAsKept(),
    only('banks'),
  ),
  // P5 (helpers/arrange/invariants.ts createInvariantChecks, the extra `id` of S351: "the record took the id sent").
  reading(
    'allowed-review-ao-bank-client-generated-id',
    'banks',
    '4.10',
    'a bank create whose body carries an id that is a UUID no record has makes the bank under that id, as JSON:API 1.1 lets a server do ("A server MAY accept a client-generated ID along with a request to create a resource"; an offline-first client minting UUIDs); any other id is ignored (1.6: "{bank}, {bonus} and {card} are record IDs (UUID strings)"; 2.4: "id | string (UUID)": neither says who mints them)',
    bankClientGeneratedIdTaken(),
    only('banks'),
  ),
  // P6 (helpers/net/secrets.ts and helpers/check/security.ts: "an unmasked anti-phishing code" is a secret that never travels).
  reading(
    'allowed-review-ao-login-shows-own-anti-phishing-code',
    'bonuses',
    '2.6',
    'the answer to a login carries, beside the Session, the caller\u2019s own profile (an extra member data.user) with its anti-phishing code in clear, for the client to show its owner, the code\u2019s purpose being that its owner recognises it in the platform\u2019s e-mails and screens (2.6 masks it inside a bonus\u2019s user object: "antiPhishing (string, masked)"; 4.1 and 4.2 give the login answer { data: <Session> }, and extra members are allowed; no sentence says the code is kept from its owner)',
    loginShowsOwnAntiPhishingCode(),
    only('bonuses'),
  ),
  // Pin (stays conformant): P1 without the revival, the user's one token renewed by each login while it is live, a new
  // one issued once it is over (DRF's recipe with the expiry checked first).
  reading(
    'allowed-review-ao-login-renews-users-live-token',
    'authentication',
    '5',
    'one access token per user, renewed by every login while it is live (Django REST framework\u2019s expiring-token recipe with the expiry checked first): a login answers the user\u2019s one live token with its lifetime started again; once it is over, or after logout deletes it, the next login issues a new one (5.2: "Both return a Session (2.1). Its id is the bearer token, valid for ttl seconds, until until"; nothing says that each login issues a token of its own, allowed-r12-login-reuses-live-token)',
    oneTokenPerUserRenewedAtLogin(false),
    only('authentication', 'banks', 'cards'),
  ),
  // P7 (helpers/arrange/invariants.ts, the bonus show compared with the list member by member: user.email).
  reading(
    'allowed-review-ao-bonus-show-masks-email-otherwise',
    'bonuses',
    '2.6',
    'the bonus show masks its user\u2019s e-mail with another mask than the list (the first letter of the local part and the whole domain, j*****@example.com, where the list keeps two letters of each part): each the user\u2019s e-mail "partially replaced with asterisks" (2.6: "email | string, masked by the service (partially replaced with asterisks)": which characters a mask keeps is not given, nor that every read keeps the same ones)',
    bonusShowMasksEmailOtherwise(),
    only('bonuses'),
  ),
];

/**
 * The probes the lead ruled deviations (registered as such; the suite kills each). P5: issue 27 judges extra body fields
 * beyond the letter ("Extra body fields may be refused with 422 or ignored. They never change the owner, the status or
 * the ids"), written in docs/judging.md with its reason: the interface documents no `id` input (4.10 lists the create's
 * fields), so a client choosing a record's id is an input the interface does not have, and a store that takes it lets a
 * client squat or predict ids other clients meet.
 */
const RULED_DEVIATIONS = new Set(['allowed-review-ao-bank-client-generated-id']);

/** The probes of review-ao that stay readings (registered in index.ts): each must stay conformant. */
export const probesReviewAoMutants: Mutant[] = written.filter((mutant) => !RULED_DEVIATIONS.has(mutant.name));

/** The probes ruled deviations (registered in index.ts): the suite must kill each. */
export const probesReviewAoJudgedDeviations: Mutant[] = [
  {
    name: 'review-ao-login-shows-previous-users-anti-phishing',
    clause: '2.6',
    group: 'bonuses',
    description: 'sections 2.6 and 4.2 (security: a user\u2019s anti-phishing code, "masked" even in its own bonus, shown to another user): every login answer carries, beside the Session, a profile from a cache one login fills for the next, with the anti-phishing code of the user who logged in before (the pin of review-ao F2: its owner may be shown it, no one else)',
    mutation: loginShowsPreviousUsersAntiPhishingCode(),
  },
  ...judgedDeviations(
  written.filter((mutant) => RULED_DEVIATIONS.has(mutant.name)),
  ': an extra body field never changes the ids (issue 27; docs/judging.md "Extra body fields"; the lead\u2019s ruling on review-ao P5)',
  ),
];
