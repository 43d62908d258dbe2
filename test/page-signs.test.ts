import { describe, expect, test } from 'vitest';
import { ApiResponse } from '../helpers/net/http.js';
import { nextPageOf, unreadPageMembers } from '../helpers/check/pages.js';

// helpers/check/pages.ts unreadPageMembers: what pastAPageCheck takes for the sign of a page it cannot follow (review-v's
// probes of b6b0347, which took any name holding a page word for one, whatever its value). Each list below holds 20
// records and says it is whole, or says nothing of pages: no sign. Then conventions followed or not, and members that are signs.
const answer = (value: unknown) => new ApiResponse(200, { 'content-type': 'application/json' }, JSON.stringify(value), { ok: true, value });
const twenty = Array.from({ length: 20 }, (_, i) => ({ id: `id-${i}` }));

describe('members that are no sign of an unread page', () => {
  test.each([
    ['Stripe\u2019s has_more false (the last page)', { has_more: false }],
    ['a next link that is null (Laravel\u2019s last page)', { links: { next: null } }],
    ['a bare next that is null (DRF\u2019s last page)', { next: null, previous: null }],
    ['next_page_url null', { next_page_url: null }],
    ['an account member ("account" holds "count")', { meta: { account: 'acc-1' } }],
    ['a country member ("country" holds "count")', { meta: { country: 'DE' } }],
    ['a discount member', { meta: { discount: 0 } }],
    ['a preview flag ("preview" holds "prev")', { meta: { preview: false } }],
    ['a time zone offset', { meta: { utcOffset: '+01:00' } }],
    ['a count equal to the records shown', { meta: { count: 20 } }],
    ['a totalCount equal to the records shown', { totalCount: 20 }],
  ])('%s', (_what, members) => {
    expect(unreadPageMembers(answer({ data: twenty, ...members }))).toEqual([]);
  });
});

describe('conventions (fairness)', () => {
  test('JSON:API link object, HAL: followed', () => {
    expect(nextPageOf(answer({ data: twenty, links: { next: { href: '/x?page=2' } } }))).toBe('/x?page=2');
  });
  test('nextPageToken, meta.page.cursor, cursor.next: not followed, excused', () => {
    expect(unreadPageMembers(answer({ data: twenty, nextPageToken: 'abc' }))).toEqual(['nextPageToken']);
    expect(unreadPageMembers(answer({ data: twenty, meta: { page: { cursor: 'c' } } }))).toEqual(['meta.page']);
    expect(unreadPageMembers(answer({ data: twenty, cursor: { next: 'n2' } }))).toEqual(['cursor']);
  });
});

describe('members that are a sign', () => {
  test('a limit equal to the records shown, a cursor object, a hasNextPage true', () => {
    expect(unreadPageMembers(answer({ data: twenty, meta: { limit: 20 } }))).toEqual(['meta.limit']);
    expect(unreadPageMembers(answer({ data: twenty, meta: { page: { cursor: 'c', hasMore: false } } }))).toEqual(['meta.page']);
    expect(unreadPageMembers(answer({ data: twenty, pageInfo: { hasNextPage: true } }))).toEqual(['pageInfo']);
    expect(unreadPageMembers(answer({ data: twenty, meta: { count: 20, limit: 20 } }))).toEqual(['meta.limit']);
  });
});
