import { describe, expect, test } from 'vitest';
import { ApiResponse } from '../helpers/net/http.js';
import { MAX_PAGES, isListPath, nextPageOf, nextRequest, unreadPageMembers, wholeList } from '../helpers/check/pages.js';

/** A JSON answer as the HTTP client gives it. */
const answer = (value: unknown, status = 200, headers: Record<string, string> = {}) => new ApiResponse(status, { 'content-type': 'application/json', ...headers }, JSON.stringify(value), { ok: true, value });
const BASE = 'http://127.0.0.1:9/prefix';
const LIST = '/api/v1/user/u-1/bank';

describe('lists answered in pages (section 8 leaves pagination open; reading round r16)', () => {
  test('knows the catalogue\u2019s lists, in each path shape, and nothing else', () => {
    for (const path of [LIST, `${LIST}?status=ACTIVE`, '/api/v1/user/u-1/card', '/api/v1/user/u-1/bonus', '/api/v1/user/u-1/bonus/assets', '/api/v1/user/u-1/bonus/assets/BTC', '/api/v1/user/u-1/balances', '/api/v1/user/u-1/balances/nft']) expect(isListPath(path), path).toBe(true);
    for (const path of [`${LIST}/b-1`, '/api/v1/user/u-1/card/c-1', '/api/v1/user/u-1/bonus/b-1', '/api/v1/user/u-1/balances/BTC', '/api/v1/authenticate']) expect(isListPath(path), path).toBe(false);
  });

  test('finds the next page in links.next, next_page_url, next and a Link header, and none where there is none', () => {
    expect(nextPageOf(answer({ data: [], links: { next: '/x?page=2' } }))).toBe('/x?page=2');
    expect(nextPageOf(answer({ data: [], next_page_url: 'http://h/x?page=2' }))).toBe('http://h/x?page=2');
    expect(nextPageOf(answer({ data: [], next: '/x?cursor=abc' }))).toBe('/x?cursor=abc');
    expect(nextPageOf(answer({ data: [], next: 'http://h/x?cursor=abc' }))).toBe('http://h/x?cursor=abc');
    expect(nextPageOf(answer({ data: [] }, 200, { link: '</x?page=1>; rel="prev", </x?page=3>; rel="next"' }))).toBe('/x?page=3');
    // review-u: league/fractal's meta.pagination, the Graph API's paging, HAL's and JSON:API's link objects, OData's nextLink.
    expect(nextPageOf(answer({ data: [], meta: { pagination: { total: 31, links: { next: 'http://h/x?page=2' } } } }))).toBe('http://h/x?page=2');
    expect(nextPageOf(answer({ data: [], paging: { cursors: { after: '25' }, next: 'http://h/x?after=25' } }))).toBe('http://h/x?after=25');
    expect(nextPageOf(answer({ data: [], _links: { next: { href: '/x?page=2' } } }))).toBe('/x?page=2');
    expect(nextPageOf(answer({ data: [], links: { next: { href: '/x?page=2' } } }))).toBe('/x?page=2');
    expect(nextPageOf(answer({ data: [], '@odata.nextLink': 'http://h/x?$skip=20' }))).toBe('http://h/x?$skip=20');
    // A cursor token where a bare next, meta.next or pagination.next would be an address: not followed.
    expect(nextPageOf(answer({ data: [], meta: { next: 'eyJpZCI6MjB9' }, pagination: { next: 'eyJpZCI6MjB9' } }))).toBeUndefined();
    expect(nextPageOf(answer({ data: [], links: { next: null }, meta: { current_page: 1, last_page: 1 } }))).toBeUndefined();
    expect(nextPageOf(answer({ data: [] }, 200, { link: '</x?page=1>; rel="first"' }))).toBeUndefined();
  });

  test('names the members of a paginator it cannot follow, and none when it reads a page sign or there is no member beside the records', () => {
    expect(unreadPageMembers(answer({ data: [{ id: 'A' }], meta: { pageInfo: { endCursor: 'x', hasNextPage: true } } }))).toEqual(['meta.pageInfo']);
    expect(unreadPageMembers(answer({ data: [{ id: 'A' }], continuationToken: 'abc', request_id: 'r-1' }))).toEqual(['continuationToken']);
    expect(unreadPageMembers(answer({ data: [{ id: 'A' }], meta: { request_id: 'r-1' } }))).toEqual([]);
    expect(unreadPageMembers(answer({ data: [{ id: 'A', total: 3 }] }))).toEqual([]);
    // Read by wholeList (followed, or the test made not verified): no excuse for what the list lacks.
    expect(unreadPageMembers(answer({ data: [{ id: 'A' }], links: { next: '/x?page=2' }, meta: { per_page: 1 } }))).toEqual([]);
    expect(unreadPageMembers(answer({ data: [{ id: 'A' }], meta: { total: 2, per_page: 1 } }))).toEqual([]);
  });

  test('follows a next page only on the target itself, keeping the first request\u2019s query where the link leaves it out', () => {
    expect(nextRequest('/prefix/api/v1/user/u-1/bank?page=2', BASE, LIST, { status: 'ACTIVE' })).toEqual({ path: LIST, query: { page: '2', status: 'ACTIVE' } });
    expect(nextRequest('http://127.0.0.1:9/prefix/api/v1/user/u-1/bank?page=2&status=X', BASE, LIST, { status: 'ACTIVE' })).toEqual({ path: LIST, query: { page: '2', status: 'X' } });
    expect(nextRequest('?page=2', BASE, `${LIST}?assets[]=A&assets[]=B`, undefined)).toEqual({ path: LIST, query: { page: '2', 'assets[]': ['A', 'B'] } });
    expect(nextRequest('http://localhost/prefix/api/v1/user/u-1/bank?page=2', BASE, LIST, undefined)).toHaveProperty('refused', expect.stringMatching(/another host/));
    expect(nextRequest('/other/api/v1/user/u-1/bank?page=2', BASE, LIST, undefined)).toHaveProperty('refused', expect.stringMatching(/another host or path/));
    expect(nextRequest('/prefix/api/v1/user/u-2/bank?page=2', BASE, LIST, undefined)).toHaveProperty('refused', expect.stringMatching(/not the same list/));
  });

  test('joins the records of every page, says so, and stops at a page that repeats one, at another host and after MAX_PAGES', async () => {
    const pages = [answer({ data: [{ id: 'A' }], links: { next: '/prefix/api/v1/user/u-1/bank?page=2' } }), answer({ data: [{ id: 'B' }], links: { next: '/prefix/api/v1/user/u-1/bank?page=3' } }), answer({ data: [{ id: 'C' }], links: { next: null } })];
    const asked: unknown[] = [];
    const advisories: string[] = [];
    const whole = await wholeList(pages[0]!, { path: LIST }, BASE, async (path, query) => (asked.push([path, query]), pages[Number(query.page) - 1]!), (m) => advisories.push(m));
    expect(whole.json.data).toEqual([{ id: 'A' }, { id: 'B' }, { id: 'C' }]);
    expect(whole.json.links).toEqual({ next: '/prefix/api/v1/user/u-1/bank?page=2' });
    expect(asked).toEqual([[LIST, { page: '2' }], [LIST, { page: '3' }]]);
    expect(advisories).toEqual([expect.stringMatching(/in 3 pages .* the 3 records together/)]);

    // A paginator that ignores its page parameter: the same records again are no continuation.
    const same = answer({ data: [{ id: 'A' }], links: { next: '?page=2' } });
    const repeated: string[] = [];
    expect((await wholeList(same, { path: LIST }, BASE, async () => same, (m) => repeated.push(m))).json.data).toEqual([{ id: 'A' }]);
    expect(repeated).toEqual([expect.stringMatching(/repeats records/)]);

    const elsewhere: string[] = [];
    const away = answer({ data: [{ id: 'A' }], links: { next: 'http://localhost/api/v1/user/u-1/bank?page=2' } });
    expect(await wholeList(away, { path: LIST }, BASE, async () => { throw new Error('never asked'); }, (m) => elsewhere.push(m))).toBe(away);
    expect(elsewhere).toEqual([expect.stringMatching(/another host/)]);

    let n = 0;
    const endless = async () => { n++; return answer({ data: [{ id: `R${n}` }], links: { next: `?page=${n + 2}` } }); };
    const capped: string[] = [];
    const long = await wholeList(answer({ data: [{ id: 'R0' }], links: { next: '?page=2' } }), { path: LIST }, BASE, endless, (m) => capped.push(m));
    expect(long.json.data).toHaveLength(MAX_PAGES);
    expect(capped[0]).toMatch(new RegExp(`more than ${MAX_PAGES} pages`));
  });

  test('reads the coin list\u2019s data.coins, Stripe\u2019s has_more cursor and a page number below the last; a count above what was read is incomplete', async () => {
    const COINS = '/api/v1/user/u-1/balances';
    const coins = [answer({ data: { coins: [{ symbol: 'BTC' }] } }, 200, { link: '<http://127.0.0.1:9/prefix/api/v1/user/u-1/balances?page=2>; rel="next"' }), answer({ data: { coins: [{ symbol: 'ETH' }] } })];
    const read = await wholeList(coins[0]!, { path: COINS }, BASE, async () => coins[1]!, () => {});
    expect(read.json.data.coins).toEqual([{ symbol: 'BTC' }, { symbol: 'ETH' }]);

    const asked: unknown[] = [];
    const stripe = [answer({ object: 'list', has_more: true, data: [{ id: 'A' }, { id: 'B' }] }), answer({ object: 'list', has_more: false, data: [{ id: 'C' }] })];
    const cursor = await wholeList(stripe[0]!, { path: LIST, query: { status: 'ACTIVE' } }, BASE, async (path, query) => (asked.push([path, query]), stripe[1]!), () => {});
    expect(cursor.json.data.map((r: { id: string }) => r.id)).toEqual(['A', 'B', 'C']);
    expect(asked).toEqual([[LIST, { starting_after: 'B', status: 'ACTIVE' }]]);

    const numbered = [answer({ data: [{ id: 'A' }], meta: { current_page: 1, last_page: 2, total: 2 } }), answer({ data: [{ id: 'B' }], meta: { current_page: 2, last_page: 2, total: 2 } })];
    expect((await wholeList(numbered[0]!, { path: LIST }, BASE, async (_path, query) => numbered[Number(query.page) - 1]!, () => {})).json.data).toHaveLength(2);

    const lacking: string[] = [];
    const counted = answer({ data: [{ id: 'A' }], meta: { current_page: 1, per_page: 15, total: 16 } });
    expect(await wholeList(counted, { path: LIST }, BASE, async () => { throw new Error('never asked'); }, () => {}, (m) => lacking.push(m))).toBe(counted);
    expect(lacking).toEqual([expect.stringMatching(/holds 16 records, and 1 were read: the list could not be read whole/)]);
  });

  test('review-t: a Link address with a comma, a bare next that is a cursor token, a next page already read, and the size bound', async () => {
    expect(nextPageOf(answer({ data: [] }, 200, { link: '</x?tags=a,b&page=2>; rel="next", </x?page=9>; rel="last"' }))).toBe('/x?tags=a,b&page=2');
    expect(nextPageOf(answer({ data: [], next: 'eyJpZCI6M30' }))).toBeUndefined();
    const circular: string[] = [];
    const page = answer({ data: [{ id: 'A' }], links: { next: '?page=2' } });
    const second = answer({ data: [{ id: 'B' }], links: { next: '?page=2' } });
    await wholeList(page, { path: LIST }, BASE, async () => second, () => {}, (m) => circular.push(m));
    expect(circular).toEqual([expect.stringMatching(/names a page already read/)]);
    const big: string[] = [];
    await wholeList(page, { path: LIST }, BASE, async () => second, () => {}, (m) => big.push(m), 10);
    expect(big).toEqual([expect.stringMatching(/answer size limit \(10 bytes\)/)]);
    // The reason names the endpoint's template, not the user's id.
    expect(big[0]).toMatch(/^GET \/api\/v1\/user\/\{user\}\/bank /);
  });

  test('leaves every other answer as it is: no next page, not a list, not 200', async () => {
    const never = async (): Promise<ApiResponse> => { throw new Error('never asked'); };
    const plain = answer({ data: [{ id: 'A' }] });
    expect(await wholeList(plain, { path: LIST }, BASE, never, () => {})).toBe(plain);
    const show = answer({ data: { id: 'A' }, links: { next: '?page=2' } });
    expect(await wholeList(show, { path: `${LIST}/A` }, BASE, never, () => {})).toBe(show);
    const refused = answer({ message: 'no', links: { next: '?page=2' } }, 422);
    expect(await wholeList(refused, { path: LIST }, BASE, never, () => {})).toBe(refused);
  });
});
