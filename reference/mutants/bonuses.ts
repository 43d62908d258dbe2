import { fastifyPath, type Mutation } from '../mutation.js';
import type { Mutant } from './types.js';
import { parse } from './reading.js';
import { authenticationSkipped } from './make.js';

const LIST = 'GET /api/v1/user/{user}/bonus';
const SHOW = 'GET /api/v1/user/{user}/bonus/{bonus}';
/** Registered with the optional-segment syntax, so this one route serves both `/bonus/assets` and `/bonus/assets/{asset}`. */
const SUMMARY = 'GET /api/v1/user/{user}/bonus/assets/{asset?}';

/**
 * A pending bonus settled lazily by its first show (a ledger that settles on read): the show answers it distributed,
 * and so does every later answer that holds it; a list filtered by status lists it as what it now is.
 */
function settledWhenShown(): Mutation {
  const settled = new Set<string>();
  const show = fastifyPath(SHOW.split(' ')[1]!);
  const list = fastifyPath(LIST.split(' ')[1]!);
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== show && answer.url !== list)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      if (answer.url === show) {
        if (body?.data?.status === 'pending' && typeof body.data.id === 'string') settled.add(body.data.id.toLowerCase());
      } else if (!Array.isArray(body?.data)) return undefined;
      const records: any[] = answer.url === show ? [body.data] : body.data;
      for (const record of records) if (record?.status === 'pending' && typeof record.id === 'string' && settled.has(record.id.toLowerCase())) record.status = 'distributed';
      const filter = (reply.request.query as Record<string, unknown> | undefined)?.status;
      if (answer.url === list && typeof filter === 'string') body.data = body.data.filter((record: any) => !(settled.has(String(record?.id).toLowerCase()) && record.status !== filter));
      return JSON.stringify(body);
    },
  };
}

/** A decimal string as DecimalFormat("#.0000000000") writes it: no integer digit below one, ten fraction digits (more kept). */
function decimalFormatted(amount: unknown): unknown {
  const match = typeof amount === 'string' ? /^(\d+)(?:\.(\d+))?$/.exec(amount) : null;
  if (!match) return amount;
  const whole = match[1]!.replace(/^0+/, '');
  return `${whole}.${(match[2] ?? '').padEnd(10, '0')}`;
}

/** A decimal string rounded to two decimal places, as a money formatter writes it ("0.01" for "0.00597778"). */
function roundedToCents(amount: unknown): unknown {
  return typeof amount === 'string' && /^\d+(\.\d+)?$/.test(amount) ? Number(amount).toFixed(2) : amount;
}

/** The bonus show and the bonus lists asked with a query (a filter) write each bonus's amount and value through `write`. */
function amountsWrittenOtherwise(write: (amount: unknown) => unknown = decimalFormatted): Mutation {
  const show = fastifyPath(SHOW.split(' ')[1]!);
  const list = fastifyPath(LIST.split(' ')[1]!);
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200) return undefined;
      const filtered = answer.url === list && Object.keys((reply.request.query as Record<string, unknown> | undefined) ?? {}).length > 0;
      if (answer.url !== show && !filtered) return undefined;
      const body = parse(answer.payload);
      const records: any[] = answer.url === show ? [body?.data] : Array.isArray(body?.data) ? body.data : [];
      let changed = false;
      for (const record of records) {
        for (const field of ['amount', 'value']) {
          if (record && typeof record === 'object' && record[field] !== write(record[field])) {
            record[field] = write(record[field]);
            changed = true;
          }
        }
      }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/**
 * A user's pending bonuses settled (distributed, `bonusedAt` the time of settlement) by a ledger job that a read starts
 * once it has answered: `trigger` 'summary', the summary of all assets; 'list', any list of the user's bonuses. The
 * triggering answer shows them pending, every later answer (a summary of one asset or of all, a list, a show)
 * distributed, and a list filtered by status lists them as what they now are.
 */
function settledAfter(trigger: 'summary' | 'list'): Mutation {
  const settled = new Map<string, number>();
  const summary = fastifyPath(SUMMARY.split(' ')[1]!);
  const show = fastifyPath(SHOW.split(' ')[1]!);
  const list = fastifyPath(LIST.split(' ')[1]!);
  const FILTER = Symbol('settled status filter');
  return {
    request(request) {
      const user = /^\/api\/v1\/user\/([^/?]+)\/bonus(?:\?|$)/.exec(request.url)?.[1];
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (user === undefined || !settled.has(decodeURIComponent(user).toLowerCase()) || (query.status !== 'pending' && query.status !== 'distributed')) return;
      (request as any)[FILTER] = query.status;
      delete query.status;
    },
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || ![summary, show, list].includes(answer.url)) return undefined;
      const user = String((reply.request.params as Record<string, unknown> | undefined)?.user ?? '').toLowerCase();
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      const at = settled.get(user);
      if (at === undefined) {
        const asset = (reply.request.params as Record<string, unknown> | undefined)?.asset;
        if (trigger === 'summary' ? answer.url === summary && (asset === undefined || asset === '') : answer.url === list) settled.set(user, Math.floor(Date.now() / 1000));
        return undefined;
      }
      if (answer.url === summary) {
        for (const entry of Array.isArray(body?.data) ? body.data : []) {
          if (!entry?.pending || !entry?.distributed) continue;
          entry.distributed = { bonuses: entry.distributed.bonuses + entry.pending.bonuses, amount: entry.distributed.amount + entry.pending.amount };
          entry.pending = { bonuses: 0, amount: 0 };
        }
        return JSON.stringify(body);
      }
      const records: any[] = answer.url === show ? [body?.data] : Array.isArray(body?.data) ? body.data : [];
      for (const record of records) if (record?.status === 'pending') Object.assign(record, { status: 'distributed', bonusedAt: at });
      const filter = (reply.request as any)[FILTER];
      if (answer.url === list && typeof filter === 'string') body.data = body.data.filter((record: any) => record?.status === filter);
      return JSON.stringify(body);
    },
  };
}

type Entry = { distributed: { bonuses: number; amount: unknown }; pending: unknown; canceled: unknown };

/** Mutants of the bonuses group (section 4.11 and the records of 2.3, 2.5a, 2.5b, 2.6, 2.7). */
export const bonusesMutants: Mutant[] = [
  {
    name: 'bonuses-status-filter-ignored',
    clause: '4.11',
    group: 'bonuses',
    description: 'the list ignores the status query and answers bonuses of every status',
    mutation: { deviation: 'bonuses.status-filter-ignored' },
  },
  {
    name: 'bonuses-other-users-listed',
    clause: '4.11',
    group: 'bonuses',
    description: 'the list answers the bonuses of every user, not only the path user\u2019s',
    mutation: { deviation: 'bonuses.other-users-listed' },
  },
  {
    name: 'bonuses-inactive-allowed',
    clause: '5',
    group: 'bonuses',
    description: 'an inactive account is served instead of refused with 403',
    mutation: { deviation: 'bonuses.inactive-allowed' },
  },
  {
    // Section 5.6 gives the inactive 403 "a message that the account is inactive", its text not given: a blank one says nothing.
    name: 'bonuses-inactive-blank-message',
    clause: '5',
    group: 'bonuses',
    description: 'the bonus list refuses an inactive account with 403 and a blank message',
    mutation: { transform: { route: LIST, status: 403, apply: (body: { message?: unknown }) => (body.message === 'This action is unauthorized.' ? undefined : { body: { message: '' } }) } },
  },
  {
    name: 'bonuses-foreign-user-allowed',
    clause: '5',
    group: 'bonuses',
    description: 'another user\u2019s id in the path is served instead of refused with "This action is unauthorized."',
    mutation: { deviation: 'bonuses.foreign-user-allowed' },
  },
  {
    name: 'bonuses-email-unmasked',
    clause: '2.6',
    group: 'bonuses',
    description: 'the user object shows the e-mail in clear',
    mutation: { deviation: 'bonuses.email-unmasked' },
  },
  {
    name: 'bonuses-anti-phishing-unmasked',
    clause: '2.6',
    group: 'bonuses',
    description: 'the user object shows the anti-phishing code in clear',
    mutation: { deviation: 'bonuses.anti-phishing-unmasked' },
  },
  {
    // Section 2.5b gives the count's type (integer), not how it is computed, so the deviation is its type.
    name: 'bonuses-summary-count-as-string',
    clause: '2.5b',
    group: 'bonuses',
    description: 'the asset summary answers the per-status bonuses count as a string, not an integer',
    mutation: {
      transform: {
        route: SUMMARY,
        status: 200,
        apply(body: { data: Entry[] }) {
          for (const entry of body.data) entry.distributed.bonuses = String(entry.distributed.bonuses) as unknown as number;
        },
      },
    },
  },
  {
    name: 'bonuses-summary-amount-as-string',
    clause: '2.5b',
    group: 'bonuses',
    description: 'the asset summary answers the per-status amount as a string, not a JSON number',
    mutation: {
      transform: {
        route: SUMMARY,
        status: 200,
        apply(body: { data: Entry[] }) {
          for (const entry of body.data) entry.distributed.amount = String(entry.distributed.amount);
        },
      },
    },
  },
  {
    name: 'bonuses-summary-asset-filter-ignored',
    clause: '4.11',
    group: 'bonuses',
    description: 'the asset summary ignores the asset segment and answers every asset',
    mutation: { deviation: 'bonuses.summary-asset-filter-ignored' },
  },
  {
    name: 'bonuses-bonused-at-iso-string',
    clause: '2.5a',
    group: 'bonuses',
    description: 'the list answers bonusedAt as an ISO 8601 string instead of Unix seconds',
    mutation: {
      transform: {
        route: LIST,
        status: 200,
        apply(body: { data: { bonusedAt: unknown }[] }) {
          for (const bonus of body.data) bonus.bonusedAt = new Date(Number(bonus.bonusedAt) * 1000).toISOString();
        },
      },
    },
  },
  {
    name: 'bonuses-order-missing-payment',
    clause: '2.7',
    group: 'bonuses',
    description: 'the order inside a shown bonus lacks its payment object',
    mutation: {
      transform: {
        route: SHOW,
        status: 200,
        apply(body: { data: { order: Record<string, unknown> } }) {
          delete body.data.order.payment;
        },
      },
    },
  },
  {
    name: 'bonuses-asset-precision-as-number',
    clause: '2.3',
    group: 'bonuses',
    description: 'the asset summary inside a shown bonus answers precision as a number, not a numeric string',
    mutation: {
      transform: {
        route: SHOW,
        status: 200,
        apply(body: { data: { asset: { precision: unknown } } }) {
          body.data.asset.precision = Number(body.data.asset.precision);
        },
      },
    },
  },
  {
    name: 'bonuses-show-ignores-owner',
    clause: '4.11',
    group: 'bonuses',
    description: 'show answers any user\u2019s bonus under the caller\u2019s own user id',
    mutation: { deviation: 'bonuses.show-ignores-owner' },
  },
  {
    name: 'bonuses-not-found-as-200',
    clause: '7',
    group: 'bonuses',
    description: 'show answers 200 with { data: null } where no bonus is found',
    mutation: {
      transform: {
        route: SHOW,
        status: 404,
        apply() {
          return { status: 200, body: { data: null } };
        },
      },
    },
  },
  {
    name: 'bonuses-list-envelope-missing',
    clause: '1',
    group: 'bonuses',
    description: 'the list answers a bare array instead of { data: [...] }',
    mutation: {
      transform: {
        route: LIST,
        status: 200,
        apply(body: { data: unknown[] }) {
          return { body: body.data };
        },
      },
    },
  },
  // Issue 11: a credential in an answer is a security finding.
  {
    name: 'bonuses-user-carries-password-hash',
    clause: '2.6',
    group: 'bonuses',
    description: 'the user object of every listed bonus carries the account\u2019s password hash (password field): a security finding',
    mutation: {
      transform: {
        route: LIST,
        status: 200,
        apply(body: { data: { user: Record<string, unknown> }[] }) {
          for (const bonus of body.data) bonus.user.password = '$2y$10$Q9kz1sP0mW7vX3nB5cR8te9fG2hJ4kL6mN8pQ0rS2tU4vW6xY8zA';
        },
      },
    },
  },
  // Issue 28: a password hash is found by its named format too, whatever field carries it.
  {
    name: 'bonuses-user-carries-argon2-hash',
    clause: '2.6',
    group: 'bonuses',
    description: 'the user object of every listed bonus carries the account\u2019s password hash as `pass` (a name no list knows) in the $argon2id$ format: a security finding',
    mutation: {
      transform: {
        route: LIST,
        status: 200,
        apply(body: { data: { user: Record<string, unknown> }[] }) {
          for (const bonus of body.data) bonus.user.pass = '$argon2id$v=19$m=65536,t=4,p=1$c29tZXNhbHRzb21lc2FsdA$RdescudvJCsgt3ub+b+dWRWJTmaaJObGbU8Z0cKzL9w';
        },
      },
    },
  },
  // Section 3 names a bonus's statuses and shows no transition: a bonus may move between two reads of it.
  {
    name: 'allowed-bonus-pending-settled-when-shown',
    clause: '3',
    group: 'bonuses',
    description: 'a pending bonus is settled (distributed) the first time it is shown, so a list read before the show gives it pending and every read after it distributed (section 3: "Transitions: not shown")',
    mutation: settledWhenShown(),
    allowed: true,
    judgedBy: { groups: ['bonuses'], clauses: 'all' },
  },
  // The same, a ledger settling a user's pending bonuses once the summary of all assets has answered.
  {
    name: 'allowed-bonus-pending-settled-when-summarised',
    clause: '3',
    group: 'bonuses',
    description: 'a user\u2019s pending bonuses are settled (distributed) once the summary of all assets has answered, so that summary gives them pending and every later read (the summary of one asset, the list, a show) distributed (section 3: "Transitions: not shown")',
    mutation: settledAfter('summary'),
    allowed: true,
    judgedBy: { groups: ['bonuses'], clauses: 'all' },
  },
  // The same, a ledger settling a user's pending bonuses once a list has held them.
  {
    name: 'allowed-bonus-pending-settled-when-listed',
    clause: '3',
    group: 'bonuses',
    description: 'a user\u2019s pending bonuses are settled (distributed, bonusedAt the time of settlement) once a list has held them, so that list gives them pending and every later read (a filtered list, a show, a summary) distributed (section 3: "Transitions: not shown")',
    mutation: settledAfter('list'),
    allowed: true,
    judgedBy: { groups: ['bonuses'], clauses: 'all' },
  },
  // Section 1.5 gives amounts as decimal strings and no one writing of a value: a bonus's show and its filtered lists may
  // be written by another serializer than the unfiltered list (review of 0e833b8: the bonus's own amount and value were
  // compared letter for letter, where its order's amounts and a balance's are compared as numbers).
  {
    name: 'allowed-bonus-show-and-filtered-amounts-written-otherwise',
    clause: '1',
    group: 'bonuses',
    description: 'a bonus\u2019s show and its filtered lists write its `amount` and `value` through another serializer than the unfiltered list, Java\u2019s DecimalFormat("#.0000000000"): a value below one without its leading zero, the fraction padded to ten digits (".0059777800" where the list gives "0.00597778"); the same values (1.5: "decimal strings (up to 25 fractional digits, or the bare string 0)": no one writing of a value is given)',
    mutation: amountsWrittenOtherwise(),
    allowed: true,
    judgedBy: { groups: ['bonuses'], clauses: 'all' },
  },
  // Its deviation: another value, not another writing (the comparisons above take numbers, never a rounding).
  {
    name: 'bonuses-show-and-filtered-amounts-rounded-to-cents',
    clause: '4.11',
    group: 'bonuses',
    description: 'sections 4.11/2.5a/1.5 (show and list answer the same bonus): a bonus\u2019s show and its filtered lists write its `amount` and `value` rounded to two decimal places ("0.01" where the list gives "0.00597778"), a money formatter applied to a crypto amount',
    mutation: amountsWrittenOtherwise(roundedToCents),
  },
  // Section 4.11 lists the status values (distributed, pending, canceled) without saying what another value gets.
  {
    name: 'allowed-bonus-list-unknown-status-422',
    clause: '4.11',
    group: 'bonuses',
    description: 'the list refuses a status other than distributed, pending and canceled with 422 keyed by status',
    mutation: { deviation: 'bonuses.unknown-status-422' },
    allowed: true,
  },
  // Section 4.11 does not say what platform is compared with; section 4.1 calls a platform's `{platform}` its ID.
  {
    name: 'allowed-bonus-list-platform-filter-by-id',
    clause: '4.11',
    group: 'bonuses',
    description: 'the platform filter takes a platform ID, so a platform code is a value the service does not know: 422 keyed by platform',
    mutation: { deviation: 'bonuses.platform-filter-by-id' },
    allowed: true,
  },
  // Nor that it is compared with a code or an ID: an order's externalPlatform shows the platform's name too.
  {
    name: 'allowed-bonus-list-platform-filter-by-name',
    clause: '4.11',
    group: 'bonuses',
    description: 'the platform filter takes a platform\u2019s name (order.externalPlatform.name), so a platform code or ID lists no bonus',
    mutation: { deviation: 'bonuses.platform-filter-by-name' },
    allowed: true,
  },
  // Issue 19: the platform filter keeps the bonuses of that platform.
  {
    name: 'bonuses-platform-filter-ignored',
    clause: '4.11',
    group: 'bonuses',
    description: 'the list ignores the platform filter: a user\u2019s bonuses on every platform are listed',
    mutation: { deviation: 'bonuses.platform-filter-ignored' },
  },
  {
    name: 'bonuses-platform-filter-lists-nothing',
    clause: '4.11',
    group: 'bonuses',
    description: 'the platform filter lists no bonus whatever its value: neither the code, the ID nor the name of a platform the user has bonuses on lists them',
    mutation: { deviation: 'bonuses.platform-filter-lists-nothing' },
  },
  {
    name: 'bonuses-platform-filter-by-account-platform',
    clause: '4.11',
    group: 'bonuses',
    description: 'the platform filter compares the value with the caller\u2019s own platform, not the bonus order\u2019s: its own platform\u2019s code lists every bonus of the user, any other code none',
    mutation: { deviation: 'bonuses.platform-filter-by-account-platform' },
  },
  authenticationSkipped('bonuses-summary-unauthenticated', 'bonuses', SUMMARY, 200, { data: [] }, 'the bonus asset summary'),
  authenticationSkipped('bonuses-list-unauthenticated', 'bonuses', LIST, 200, { data: [] }, 'the bonus list'),
  authenticationSkipped('bonuses-show-unauthenticated', 'bonuses', SHOW, 404, { message: 'No query results.' }, 'the bonus show'),
  // Issue 19: section 5.3 on every protected endpoint.
  {
    name: 'auth-token-header-accepted',
    clause: '5',
    group: 'bonuses',
    description: 'a valid access token sent in a Token header (as the JWT login takes its JWT) authenticates protected endpoints',
    mutation: { deviation: 'auth.token-header-accepted' },
  },
  {
    name: 'auth-unknown-token-as-path-user-on-bonuses',
    clause: '5',
    group: 'bonuses',
    description: 'the bonus endpoints take a bearer token they cannot resolve for the path\u2019s user instead of answering 401',
    mutation: { deviation: 'auth.unknown-token-as-path-user-on-bonuses' },
  },
  {
    name: 'bonuses-anti-phishing-behind-asterisks',
    clause: '2.6',
    group: 'bonuses',
    description: 'antiPhishing is shown as asterisks followed by the whole code in clear',
    mutation: { deviation: 'bonuses.anti-phishing-behind-asterisks' },
  },
  {
    name: 'bonuses-filtered-list-unscoped',
    clause: '5',
    group: 'bonuses',
    description: 'a list with a status or platform filter holds every user\u2019s matching bonuses',
    mutation: { deviation: 'bonuses.filter-unscoped' },
  },
  {
    name: 'bonuses-platform-filtered-list-unscoped',
    clause: '5',
    group: 'bonuses',
    description: 'a list with a platform filter (its code, ID or name) holds every user\u2019s bonuses of that platform',
    mutation: { deviation: 'bonuses.platform-filter-unscoped' },
  },
  // Issue 27: the access table on every path shape, and the list-show round trip (helpers/arrange/invariants.ts).
  {
    name: 'bonuses-summary-asset-foreign-user-allowed',
    clause: '5',
    group: 'bonuses',
    description: 'the asset summary with its {asset} segment answers another user\u2019s summary (200) instead of 403 or 409',
    mutation: { deviation: 'bonuses.summary-asset-foreign-user-allowed' },
  },
  {
    name: 'bonuses-secret-case-folded',
    clause: '5',
    group: 'bonuses',
    description: 'the bonus endpoints accept an access token whose secret is sent in another letter case',
    mutation: { deviation: 'auth.secret-case-folded-on-bonuses' },
  },
  {
    name: 'bonuses-show-status-stale',
    clause: '4.11',
    group: 'bonuses',
    description: 'show answers every bonus as pending, whatever status the list gives it',
    mutation: { deviation: 'bonuses.show-status-stale' },
  },
  {
    name: 'bonuses-filters-combined-or',
    clause: '4.11',
    group: 'bonuses',
    description: 'the status and platform filters of the bonus list together are joined with OR, not AND',
    mutation: { deviation: 'bonuses.filters-combined-or' },
  },
];
