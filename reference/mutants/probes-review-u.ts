import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Mutant } from './types.js';
import { onAnswers, only, parse, queryOf, reading, recordsOf } from './reading.js';

/**
 * review-u probes (issue 28's done-when: "a review by someone who did not write the change finds no `expect` that decides
 * an open point"). Each is an allowed reading the text leaves open, written as the reference answering that way; each
 * makes a test of the suite fail, which is the finding. Registered on branch review-u only so that `node bin/mutants.mjs
 * --mutant NAME` and `node bin/conformance.mjs run --mutant NAME` can run them; they are NOT conformant today (the lead
 * decides whether each is a reading to pin or a deviation to judge).
 */
const BANKS = '/api/v1/user/:user/bank';
const CARDS = '/api/v1/user/:user/card';
const CARD = '/api/v1/user/:user/card/:card';
const BONUSES = '/api/v1/user/:user/bonus';
const COINS = '/api/v1/user/:user/balances';
const NFTS = '/api/v1/user/:user/balances/nft';

/** The page a list request asks for (`?page=N`, from 1). */
function pageAsked(reply: FastifyReply): number {
  const asked = Number(queryOf(reply).page);
  return Number.isInteger(asked) && asked >= 1 ? asked : 1;
}

/** The address of page `n` of the request's own list, absolute on the request's host (as APP_URL writes it), its query kept. */
function pageAddress(reply: FastifyReply, n: number, name = 'page'): string {
  const url = new URL(String(reply.request.url), `http://${reply.request.headers.host ?? 'localhost'}`);
  url.searchParams.set(name, String(n));
  return url.toString();
}

/** PostgreSQL jsonb's order of an object's keys: shorter keys first, then by their bytes (jsonb keeps no key order of its own). */
function jsonbOrder<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))) as T;
}


/**
 * Finding 3: a cap on the records one user may hold, refused as "an unauthorized action" (5.6: 403 or 409 "This action is
 * unauthorized."), as a Laravel policy `create(User $user) { return $user->cards()->count() < 20; }` answers. The
 * reference counts each user's created cards (its 201s); a create past the cap is routed as another user's path, so the
 * reference's own guard refuses it (409 "This action is unauthorized.") and stores nothing. Conformant since fix-wb15b:
 * pastAPageCheck (helpers/arrange/invariants.ts) makes the 31-record check not verified, with the reason, when creates
 * are refused with 403 or 409 after at least one succeeded.
 */
export function cardsCappedPerUser(cap: number): Mutant['mutation'] {
  const made = new Map<string, number>();
  return {
    request(request) {
      if (request.method !== 'POST' || !/^\/api\/v1\/user\/[^/?]+\/card(?:\?|$)/.test(request.url)) return;
      const params = request.params as { user?: string };
      if (typeof params.user === 'string' && (made.get(params.user) ?? 0) >= cap) params.user = randomUUID();
    },
    wire(answer, reply) {
      if (answer.method !== 'POST' || answer.status !== 201 || answer.url !== CARDS) return undefined;
      const user = (reply.request.params as { user?: string }).user;
      if (typeof user === 'string') made.set(user, (made.get(user) ?? 0) + 1);
      return undefined;
    },
  };
}

export const probesReviewUMutants: Mutant[] = [
  // Finding 1 (a): pages said in a member pages.ts does not read. league/fractal's DataArraySerializer with the
  // IlluminatePaginatorAdapter, the common Laravel/Dingo API transformer layer, writes a page as `{ data: [...], meta: {
  // pagination: { total, count, per_page, current_page, total_pages, links: { previous?, next? } } } }`: `data` exactly
  // as 1.3 wraps a list, and the next page named inside meta.pagination.links.
  reading(
    'allowed-review-u-lists-fractal-pagination',
    'banks',
    '8',
    'the bank, card and bonus lists are paged 15 records a page, as league/fractal\u2019s DataArraySerializer with its Laravel paginator adapter writes a page: `data` beside `meta.pagination` (`total`, `count`, `per_page`, `current_page`, `total_pages`, `links.next` naming the next page, `links.previous` the one before); `?page=N` gives page N (8: "Rate limits and pagination of list endpoints: not shown"; 1.3: list responses are `{ data: [<record>, ...] }`, which each page is)',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || ![BANKS, CARDS, BONUSES].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        const perPage = 15;
        const total = body.data.length;
        const totalPages = Math.max(1, Math.ceil(total / perPage));
        const page = pageAsked(reply);
        body.data = body.data.slice((page - 1) * perPage, page * perPage);
        const links: Record<string, string> = {};
        if (page > 1) links.previous = pageAddress(reply, page - 1);
        if (page < totalPages) links.next = pageAddress(reply, page + 1);
        body.meta = { pagination: { total, count: body.data.length, per_page: perPage, current_page: page, total_pages: totalPages, links } };
        return JSON.stringify(body);
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  // Finding 1 (b): the Graph API's paging object (Facebook, Instagram): `{ data: [...], paging: { cursors: { before,
  // after }, next } }`, `data` exactly as 1.3 wraps a list; the next page is the URL in `paging.next`, continued by the
  // cursor `after`.
  reading(
    'allowed-review-u-lists-graph-api-paging',
    'banks',
    '8',
    'the bank and card lists are paged 25 records a page as the Graph API pages a list: `data` beside `paging` (`cursors.before`, `cursors.after`, and `next`, the URL of the next page, continued by `after`=<cursor>), `next` left out on the last page (8: "Rate limits and pagination of list endpoints: not shown"; 1.3: list responses are `{ data: [<record>, ...] }`, which each page is)',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || ![BANKS, CARDS].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        const perPage = 25;
        const after = Number(queryOf(reply).after);
        const start = Number.isInteger(after) && after >= 0 ? after : 0;
        const all = body.data;
        body.data = all.slice(start, start + perPage);
        const end = start + body.data.length;
        body.paging = { cursors: { before: String(start), after: String(end) }, ...(end < all.length ? { next: pageAddress(reply, end, 'after') } : {}) };
        return JSON.stringify(body);
      },
    },
    only('banks', 'cards'),
  ),
  // Finding 2: JSON objects are unordered (RFC 8259 section 4; docs/judging.md "Order of list items and keys": "no check
  // reads the order of keys"). A balance list filtered by assets[] read from a PostgreSQL jsonb column (a denormalised
  // balance row) gives each amount set's keys in jsonb's order (shorter keys first); the unfiltered list and the show
  // build them in the table's order. The same values.
  reading(
    'allowed-review-u-balances-filtered-amount-keys-jsonb-order',
    'balances',
    '2.2',
    'the coin and NFT lists filtered by `assets[]` write each record\u2019s amount sets (`amounts.crypto`, `amounts.fiat`) with their keys in PostgreSQL jsonb\u2019s order (`payment`, `pending`, `reserve`, `staking`, `vesting`, `available`: shorter keys first), the unfiltered lists and the shows in the table\u2019s order; the same members and values (2.2: "Amount set: the six decimal-string fields available, vesting, staking, pending, payment, reserve"; RFC 8259 4: "An object is an unordered collection")',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== COINS && answer.url !== NFTS)) return undefined;
        const query = queryOf(reply);
        if (query['assets[]'] === undefined && query.assets === undefined) return undefined;
        const body = parse(answer.payload);
        const list: any[] | undefined = answer.url === COINS ? body?.data?.coins : body?.data;
        if (!Array.isArray(list)) return undefined;
        for (const record of list) {
          const amounts = record?.amounts;
          if (!amounts || typeof amounts !== 'object') continue;
          for (const set of ['crypto', 'fiat']) if (amounts[set] && typeof amounts[set] === 'object') amounts[set] = jsonbOrder(amounts[set]);
        }
        return JSON.stringify(body);
      },
    },
    only('balances'),
  ),
  reading(
    'allowed-review-u-cards-capped-20-per-user',
    'cards',
    '5',
    'a user may hold at most 20 cards: a card create past them is refused as an unauthorized action (409 "This action is unauthorized.", nothing stored), as a policy that caps a user\u2019s cards answers (5.6: "an unauthorized action yields 403 or 409 with the message This action is unauthorized."; 8 gives field limits only, and no count of records a user may hold, in either direction)',
    cardsCappedPerUser(20),
    only('cards'),
  ),
  // Finding 4: review-o's pattern (the 201 is the model built from the request, every read the stored value) on the
  // expiry. The card's expiry is stored as a date and read back formatted `m/Y` (a four-digit year), which the suite
  // accepts in any one answer (schemas/card.json; assertEchoes advises on it); the create answer echoes `12/45` as sent.
  reading(
    'allowed-review-u-card-reads-four-digit-year-create-echoes',
    'cards',
    '2.5',
    'a card’s expiry is stored as a date and every list and show writes it with a four-digit year (`12/2045`), while the 201 answers the model built from the request and shows the `12/45` sent (2.5: expirationDate "Format m/y", whose `y` may be a year of two or four digits, docs/judging.md "The expiry m/y"; no clause says a read repeats the characters the create answered)',
    onAnswers([CARDS, CARD], (body, answer) => {
      if (answer.method !== 'GET') return false;
      const records = recordsOf(body).filter((r) => typeof r?.expirationDate === 'string' && /^\d{1,2}\/\d{2}$/.test(r.expirationDate));
      if (records.length === 0) return false;
      for (const r of records) r.expirationDate = r.expirationDate.replace(/\/(\d{2})$/, '/20$1');
    }),
    only('cards'),
  ),
];
