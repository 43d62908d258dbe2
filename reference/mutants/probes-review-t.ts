import type { FastifyReply } from 'fastify';
import type { Mutant } from './types.js';
import { parse, queryOf } from './reading.js';

/**
 * review-t probes (not for main): a deviation that a 401/403 test catches today, with pagination members added to its
 * wrong 200 answer. A list that "says it holds more than could be read" makes request() skip the test before the test's
 * own status assertion runs, so the deviation is reported not verified instead of failed.
 */
const LIST = 'GET /api/v1/user/{user}/bank';

const written: readonly Mutant[] = [
  {
    name: 'review-t-banks-list-unauthenticated-total',
    clause: '5',
    group: 'banks',
    description: 'the bank list answers a request without valid authentication 200 { data: [], meta: { total: 3 } } instead of 401',
    mutation: { transform: { route: LIST, status: 401, apply: () => ({ status: 200, body: { data: [], meta: { total: 3 } } }) } },
  },
  {
    name: 'review-t-banks-list-unauthenticated-next-elsewhere',
    clause: '5',
    group: 'banks',
    description: 'the bank list answers a request without valid authentication 200 with an empty page whose links.next names APP_URL (http://localhost) instead of 401',
    mutation: { transform: { route: LIST, status: 401, apply: () => ({ status: 200, body: { data: [], links: { next: 'http://localhost/api/v1/user/x/bank?page=2' } } }) } },
  },

  {
    name: 'review-t-banks-list-paged-drops-oldest',
    clause: '4.10',
    group: 'banks',
    description: 'the bank list leaves out the user\u2019s first bank when it has two or more (a deviation), and answers in pages of one with links.next (a reading)',
    mutation: {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || answer.url !== '/api/v1/user/:user/bank') return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        const all = body.data.length >= 2 ? body.data.slice(1) : body.data;
        const asked = Number(queryOf(reply).page);
        const page = Number.isInteger(asked) && asked >= 1 ? asked : 1;
        const path = String(reply.request.url).split('?')[0];
        body.data = all.slice(page - 1, page);
        body.links = { next: page < all.length ? `${path}?page=${page + 1}` : null };
        return JSON.stringify(body);
      },
    },
  },

  {
    name: 'review-t-banks-list-drops-oldest',
    clause: '4.10',
    group: 'banks',
    description: 'the bank list leaves out the user\u2019s first bank when it has two or more (a deviation), unpaged: the control of review-t-banks-list-paged-drops-oldest',
    mutation: {
      wire(answer) {
        if (answer.method !== 'GET' || answer.status !== 200 || answer.url !== '/api/v1/user/:user/bank') return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data) || body.data.length < 2) return undefined;
        body.data = body.data.slice(1);
        return JSON.stringify(body);
      },
    },
  },

  {
    name: 'review-t-banks-list-next-with-controls',
    clause: '4.10',
    group: 'banks',
    description: 'the bank list names an unparsable next page holding a C1 CSI and a bidi override (a hostile target)',
    mutation: { transform: { route: LIST, status: 200, apply: (body) => ({ body: { ...body, links: { next: 'http://[\u009b31m\u202egnp.exe' } } }) } },
  },
];

/*
 * The lead (issue 28/27, after review-t): the first four are deviations the suite must catch (registered): a list
 * answered where 401 is due stays a failure however it says it is paged, and a paged list that drops a record is caught
 * once read whole. The fifth is a hostile target's answer, not a deviation of one clause (its control characters are
 * escaped in every output: review-t checked it end to end); kept for `conformance run --mutant`, not registered.
 */
export const probesReviewTMutants: readonly Mutant[] = written.filter((mutant) => mutant.name !== 'review-t-banks-list-next-with-controls');
export const probesReviewTHostile: readonly Mutant[] = written.filter((mutant) => mutant.name === 'review-t-banks-list-next-with-controls');
