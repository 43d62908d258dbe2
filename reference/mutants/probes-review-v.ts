import type { FastifyReply } from 'fastify';
import type { Mutant } from './types.js';
import { onAnswers, only, parse, queryOf, reading, recordsOf } from './reading.js';

/**
 * review-v probes (review of b6b0347, pages.ts's unreadPageMembers; 3abde03's expiry equivalent form). Registered: the
 * deviations were survivors of b6b0347 and are killed since review-v's fix (a member that says the list is whole, or
 * whose name holds a page word only inside another word, is no sign of a page).
 *
 * The deviations (review-v-*): a silent page of 20, exactly wb14-*-silent-page-of-20, with one more member beside `data`
 * that does not say the list is a page, or says it is the last one. Each must be killed by the past-a-page check.
 * The readings (allowed-review-v-*): paginators pages.ts follows or cannot follow; each must stay conformant.
 */
const BANKS = '/api/v1/user/:user/bank';
const CARDS = '/api/v1/user/:user/card';
const CARD = '/api/v1/user/:user/card/:card';

/** Every list and show of cards writes the expiry’s two-digit year through `year` (the 201 answers as sent). */
const cardReadsYear = (year: (yy: string) => string) =>
  onAnswers([CARDS, CARD], (body, answer) => {
    if (answer.method !== 'GET') return false;
    const records = recordsOf(body).filter((r) => typeof r?.expirationDate === 'string' && /^\d{1,2}\/\d{2}$/.test(r.expirationDate));
    if (records.length === 0) return false;
    for (const r of records) r.expirationDate = r.expirationDate.replace(/\/(\d{2})$/, (_m: string, yy: string) => `/${year(yy)}`);
  });


/** At most 20 records and `extra` beside them (a deviation: nothing says more exist). */
function silentPageWith(url: string, extra: (reply: FastifyReply, shown: number) => Record<string, unknown>): Mutant['mutation'] {
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== url || answer.status !== 200) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data) || body.data.length <= 20) return undefined;
      body.data = body.data.slice(0, 20);
      return JSON.stringify({ ...body, ...extra(reply, body.data.length) });
    },
  };
}

function pageAsked(reply: FastifyReply, name = 'page'): number {
  const asked = Number(queryOf(reply)[name]);
  return Number.isInteger(asked) && asked >= 1 ? asked : 1;
}

function pageAddress(reply: FastifyReply, n: number, name = 'page'): string {
  const url = new URL(String(reply.request.url), `http://${reply.request.headers.host ?? 'localhost'}`);
  url.searchParams.set(name, String(n));
  return url.toString();
}

/** Pages of `perPage` of the bank and card lists, the page asked by `?page=N`, `decorate` writing the page's members. */
function paged(perPage: number, decorate: (body: any, reply: FastifyReply, page: number, last: number) => void): Mutant['mutation'] {
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || ![BANKS, CARDS].includes(answer.url)) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data)) return undefined;
      const last = Math.max(1, Math.ceil(body.data.length / perPage));
      const page = pageAsked(reply);
      body.data = body.data.slice((page - 1) * perPage, page * perPage);
      decorate(body, reply, page, last);
      return JSON.stringify(body);
    },
  };
}

export const probesReviewVMutants: Mutant[] = [
  {
    name: 'review-v-banks-list-silent-page-of-20-has-more-false',
    clause: '4.10',
    group: 'banks',
    description: 'the bank list answers at most 20 banks with `has_more: false` (Stripe\u2019s "this is the last page") beside them',
    mutation: silentPageWith(BANKS, () => ({ has_more: false })),
  },
  {
    name: 'review-v-banks-list-silent-page-of-20-links-next-null',
    clause: '4.10',
    group: 'banks',
    description: 'the bank list answers at most 20 banks with `links: { next: null }` (Laravel\u2019s "no next page") beside them',
    mutation: silentPageWith(BANKS, () => ({ links: { self: null, next: null } })),
  },
  {
    name: 'review-v-banks-list-silent-page-of-20-meta-account',
    clause: '4.10',
    group: 'banks',
    description: 'the bank list answers at most 20 banks with `meta: { account: <the user id> }` beside them (no page member: "account" holds "count")',
    mutation: silentPageWith(BANKS, (reply) => ({ meta: { account: (reply.request.params as { user?: string }).user } })),
  },
  {
    name: 'review-v-cards-list-silent-page-of-20-meta-count',
    clause: '4.6a',
    group: 'cards',
    description: 'the card list answers at most 20 cards with `meta: { count: 20 }` (the records shown, all it says there are) beside them',
    mutation: silentPageWith(CARDS, (_reply, shown) => ({ meta: { count: shown } })),
  },
  {
    name: 'review-v-card-reads-year-of-last-century',
    clause: '2.5',
    group: 'cards',
    description: 'every list and show of a card writes its expiry in the last century (`12/1945` for the `12/45` created and echoed): another date',
    mutation: cardReadsYear((yy) => `19${yy}`),
  },
  {
    name: 'review-v-card-reads-year-plus-one',
    clause: '2.5',
    group: 'cards',
    description: 'every list and show of a card writes its expiry a year later, with four digits (`12/2046` for the `12/45` created and echoed): another date',
    mutation: cardReadsYear((yy) => String(2001 + Number(yy))),
  },
  reading(
    'allowed-review-v-lists-jsonapi-link-objects',
    'banks',
    '8',
    'the bank and card lists are paged 3 records a page, the next page named as a JSON:API 1.1 link object (`links: { next: { href } }`), `?page=N` page N',
    paged(3, (body, reply, page, last) => {
      body.links = { self: { href: pageAddress(reply, page) }, ...(page < last ? { next: { href: pageAddress(reply, page + 1) } } : {}) };
    }),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-review-v-lists-next-page-token',
    'banks',
    '8',
    'the bank and card lists are paged 20 records a page as Google\u2019s APIs page (AIP-158): `nextPageToken` beside `data`, left out on the last page (the token is opaque; a client sends it back as `pageToken`)',
    paged(20, (body, _reply, page, last) => {
      if (page < last) body.nextPageToken = Buffer.from(`p${page + 1}`).toString('base64url');
    }),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-review-v-lists-meta-page-cursor',
    'banks',
    '8',
    'the bank and card lists are paged 20 records a page with the JSON:API cursor pagination profile\u2019s meta only: `meta: { page: { cursor, hasMore } }` (no link)',
    paged(20, (body, _reply, page, last) => {
      body.meta = { page: { cursor: `c${page}`, hasMore: page < last } };
    }),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-review-v-lists-cursor-next',
    'banks',
    '8',
    'the bank and card lists are paged 20 records a page with `cursor: { next }`, an opaque token, left null on the last page',
    paged(20, (body, _reply, page, last) => {
      body.cursor = { next: page < last ? `n${page + 1}` : null };
    }),
    only('banks', 'cards'),
  ),
];
