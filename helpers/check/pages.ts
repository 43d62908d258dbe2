import { ApiResponse } from '../net/http.js';
import { ENDPOINTS } from '../spec/catalogue.js';
import { isList } from '../spec/instances.js';
import { idKey } from '../spec/normalisation.js';

/**
 * Lists answered in pages (issue 28, reading round r16: `allowed-r16-lists-pages-of-three`). Section 8 says "Rate
 * limits and pagination of list endpoints: not shown": whether a list is paged, and how, is left open, and a page is a
 * list response of 1.3 (`{ data: [...] }`). So a list whose answer names its next page is read whole, as a client
 * would read it, before any check judges what the list holds: each next page is asked (with the same credentials, and
 * the query of the first request where the next link leaves it out, as a Laravel paginator without `withQueryString`
 * does), and the records of every page are the list. A next page is followed only on the target itself (the same
 * origin and base path: the target is untrusted, and the suite sends its credentials nowhere else), at most MAX_PAGES
 * pages, and never into a page that repeats a record of an earlier one (a paginator that ignores its page parameter).
 * What was not followed is said in an advisory; a list that says it is a page and names no next page is the concern
 * of the checks that count on its whole (docs/judging.md, "A list holds every record past a common page").
 */

/** The most pages a list is read in (the suite's lists hold at most a few dozen records). */
export const MAX_PAGES = 20;

/** The path templates of the catalogue's GET lists, as patterns over a request path (no query). */
const LIST_PATTERNS: readonly { template: string; pattern: RegExp }[] = ENDPOINTS.filter((endpoint) => endpoint.id.startsWith('GET ') && isList(endpoint)).map((endpoint) => {
  const template = endpoint.id.slice(4);
  const source = template
    .split('/')
    .map((segment) => (/^\{\w+\?\}$/.test(segment) ? '(?:/[^/]+)?' : /^\{\w+\}$/.test(segment) ? '/[^/]+' : segment === '' ? '' : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    .join('');
  return { template, pattern: new RegExp(`^${source}/?$`) };
});

/** The catalogue's template of a list path (`/api/v1/user/{user}/bank`), or undefined. */
const templateOf = (path: string): string | undefined => LIST_PATTERNS.find(({ pattern }) => pattern.test(path.split('?')[0]!))?.template;

/** True when `path` (a request path relative to the base URL, a query allowed) is one of the catalogue's lists. */
export function isListPath(path: string): boolean {
  const bare = path.split('?')[0]!;
  return LIST_PATTERNS.some(({ pattern }) => pattern.test(bare));
}

/** The object at `path` in `value` (members by name), or undefined. */
function objectAt(value: unknown, ...path: string[]): Record<string, unknown> | undefined {
  let at = value;
  for (const name of path) at = at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[name] : undefined;
  return at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>) : undefined;
}

/** A link as an address: a string, or a link object's `href` (JSON:API's link objects, HAL). */
const hrefOf = (link: unknown): unknown => (link && typeof link === 'object' && !Array.isArray(link) ? (link as { href?: unknown }).href : link);

/**
 * The members where the answers of common paginators name the next page, each read as an address (a string or a link
 * object's `href`): `links.next` (Laravel's API resources, JSON:API), `meta.pagination.links.next` (league/fractal,
 * review-u), `paging.next` (the Graph API, review-u), `_links.next` (HAL), `@odata.nextLink` (OData), `pagination.next`,
 * `meta.next`, `next_page_url` (a bare paginator) and `next`. pastAPageCheck (helpers/arrange/invariants.ts) excuses a
 * page sign the suite cannot follow; these it follows.
 */
export const NEXT_PAGE_MEMBERS: readonly { path: readonly string[]; always: boolean }[] = [
  ...[['links', 'next'], ['meta', 'pagination', 'links', 'next'], ['paging', 'next'], ['_links', 'next'], ['@odata.nextLink'], ['next_page_url']].map((path) => ({ path, always: true })),
  // A bare `next` (or `meta.next`, `pagination.next`) may be a cursor token rather than an address (review-t): only an
  // address is followed.
  ...[['pagination', 'next'], ['meta', 'next'], ['next']].map((path) => ({ path, always: false })),
];

/**
 * The next page an answer names, as its writer gave it, or undefined: one of NEXT_PAGE_MEMBERS, or the `Link` header's
 * `rel="next"` (RFC 8288, GitHub's lists).
 */
export function nextPageOf(response: ApiResponse): string | undefined {
  const body = response.isJson ? (response.json as Record<string, unknown> | null) : null;
  const candidates: unknown[] = [];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const { path, always } of NEXT_PAGE_MEMBERS) {
      const link = hrefOf(objectAt(body, ...path.slice(0, -1))?.[path[path.length - 1]!]);
      if (typeof link === 'string' && (always || /^(?:https?:\/\/|\/|\?)/i.test(link))) candidates.push(link);
    }
  }
  const header = response.headers.link;
  if (typeof header === 'string') {
    // RFC 8288: `<uri>; param; param, <uri>; ...` — the address may hold commas, so each link is its <...> and the
    // parameters up to the next `<` (review-t).
    for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,<]+(?:"[^"]*")?)*)/g)) {
      if (/;\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]!)) candidates.push(match[1]);
    }
  }
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && candidate.trim() !== '');
}

/**
 * Where a next link leads, as a request path relative to the base URL with its query, or why it is not followed. The
 * query of the first request is kept for each of its parameters the link leaves out.
 */
export function nextRequest(next: string, baseUrl: string, firstPath: string, firstQuery: Record<string, string | string[] | undefined> | undefined): { path: string; query: Record<string, string | string[]> } | { refused: string } {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  let url: URL;
  try {
    url = new URL(next, new URL(firstPath.replace(/^\//, ''), base));
  } catch {
    return { refused: `its next page ${JSON.stringify(next.slice(0, 120))} is no URL` };
  }
  const prefix = base.pathname.replace(/\/$/, '');
  if (url.origin !== base.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) return { refused: `its next page is on another host or path (${JSON.stringify(`${url.origin}${url.pathname}`.slice(0, 120))}), where the suite sends no credentials` };
  const path = url.pathname.slice(prefix.length) || '/';
  if (!isListPath(path) || path.split('?')[0] !== firstPath.split('?')[0]) return { refused: `its next page ${JSON.stringify(path.slice(0, 120))} is not the same list` };
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 && !name.endsWith('[]') ? values[0]! : values;
  }
  // The first request's own query, as a string in its path or as `query`, for each parameter the link leaves out.
  const own = new URLSearchParams(firstPath.includes('?') ? firstPath.slice(firstPath.indexOf('?') + 1) : '');
  for (const name of new Set(own.keys())) if (!(name in query)) query[name] = own.getAll(name).length === 1 && !name.endsWith('[]') ? own.get(name)! : own.getAll(name);
  for (const [name, value] of Object.entries(firstQuery ?? {})) if (value !== undefined && !(name in query)) query[name] = value;
  return { path, query };
}

/** A record's key across pages: its id as ids are compared, a balance by its symbol, else the record itself. */
const recordKey = (record: unknown): string => {
  const id = record && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
  if (typeof id === 'string' || typeof id === 'number') return `id:${idKey(String(id)) as string}`;
  const symbol = record && typeof record === 'object' ? (record as { symbol?: unknown }).symbol : undefined;
  return typeof symbol === 'string' ? `symbol:${symbol}` : `json:${JSON.stringify(record)}`;
};

/** The records of a list answer: `data` (1.3), or `data.coins` (the coin list, 4.8); undefined for any other body. */
export function pageRecords(body: unknown): unknown[] | undefined {
  const data = body && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  if (Array.isArray(data)) return data;
  const coins = data && typeof data === 'object' ? (data as { coins?: unknown }).coins : undefined;
  return Array.isArray(coins) ? coins : undefined;
}

/** A body with `records` in the place `pageRecords` found them. */
function withRecords(body: Record<string, unknown>, records: unknown[]): Record<string, unknown> {
  if (Array.isArray(body.data)) return { ...body, data: records };
  return { ...body, data: { ...(body.data as Record<string, unknown>), coins: records } };
}

/** A page's `meta` member (Laravel's, JSON:API's), or an empty one. */
const metaOf = (body: Record<string, unknown>): Record<string, unknown> => (body.meta && typeof body.meta === 'object' && !Array.isArray(body.meta) ? (body.meta as Record<string, unknown>) : {});

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined);

/**
 * How an answer says that more records exist than it holds, when it names no next page to follow: a cursor page
 * (Stripe's `has_more`, continued by `starting_after` the last record's id), a page number below the last
 * (`meta.current_page` < `meta.last_page`, continued by `page`), or only a count (`total`, `meta.total`,
 * `X-Total-Count`). Gives the query of the next page where the convention names one.
 */
function morePages(response: ApiResponse, records: unknown[]): { query?: Record<string, string>; says: string } | undefined {
  const body = response.json as Record<string, unknown>;
  const meta = metaOf(body);
  if (body.has_more === true) {
    const last = records[records.length - 1] as { id?: unknown } | undefined;
    return typeof last?.id === 'string' || typeof last?.id === 'number' ? { query: { starting_after: String(last.id) }, says: 'has_more' } : { says: 'has_more without a record id to continue after' };
  }
  const pagination = objectAt(meta, 'pagination') ?? {};
  const current = numberOf(meta.current_page ?? body.current_page ?? pagination.current_page);
  const lastPage = numberOf(meta.last_page ?? body.last_page ?? pagination.total_pages);
  if (current !== undefined && lastPage !== undefined && current < lastPage) return { query: { page: String(current + 1) }, says: `page ${current} of ${lastPage}` };
  return undefined;
}

/** The number of records an answer says the whole list holds, and where it says it, when it says one. */
function totalOf(response: ApiResponse): { total: number; member: string } | undefined {
  const body = response.json as Record<string, unknown>;
  const meta = metaOf(body);
  for (const [member, value] of [['meta.total', meta.total], ['meta.pagination.total', objectAt(meta, 'pagination')?.total], ['total', body.total], ['X-Total-Count', response.headers['x-total-count']]] as const) {
    const total = numberOf(value);
    if (total !== undefined) return { total, member };
  }
  return undefined;
}

/** The words of a member name a paginator writes (its name split at case changes, `_`, `-`, `.` and `@`). */
const PAGE_WORDS = new Set(['page', 'pages', 'paging', 'pagination', 'paginator', 'next', 'prev', 'previous', 'cursor', 'cursors', 'offset', 'limit', 'total', 'count', 'more', 'after', 'before', 'skip', 'continuation', 'nextlink']);
const wordsOf = (name: string): string[] => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/** Page words whose member is a number (a count, a position): under another value (a time zone's `utcOffset`) no page's. */
const NUMBER_WORDS = new Set(['offset', 'limit', 'total', 'count', 'skip']);
const isNumber = (value: unknown): boolean => (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^\d+$/.test(value));

/**
 * A value that says nothing is left (null, false, empty), a count or total no greater than the records shown (a limit
 * or offset is a page's whatever its number: a limit of 20 beside 20 records is a full page), or a member named only by
 * number words that holds no number (review-v).
 */
const saysWhole = (name: string, value: unknown, shown: number): boolean =>
  value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'number' && value <= shown && wordsOf(name).some((word) => word === 'count' || word === 'total')) ||
  (!isNumber(value) && (typeof value !== 'object' || value === null) && wordsOf(name).filter((word) => PAGE_WORDS.has(word)).every((word) => NUMBER_WORDS.has(word))) ||
  (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.entries(value).every(([member, item]) => saysWhole(member, item, shown)));

/**
 * Members of a list answer beside its records that look like a paginator's (by the words of their name, up to three
 * levels deep) and say that more may exist, when the answer has no page sign this module reads (a next page, a cursor or
 * page number, a count): signs of a page of a convention the suite does not know, which it cannot follow (review-u).
 * A member that says the list is whole (a next that is null, has_more false, a count no greater than the records
 * shown) is no such sign (review-v). A check that counts on the whole list does not judge what it lacks then: the
 * test is not verified, with the reason (a skip is not a pass), never failed.
 */
export function unreadPageMembers(response: ApiResponse): string[] {
  const body = response.isJson ? (response.json as Record<string, unknown> | null) : null;
  const records = pageRecords(body);
  if (!body || typeof body !== 'object' || Array.isArray(body) || records === undefined) return [];
  if (nextPageOf(response) !== undefined || morePages(response, records) !== undefined || totalOf(response) !== undefined) return [];
  const found: string[] = [];
  const walk = (value: unknown, at: string, depth: number) => {
    if (!value || typeof value !== 'object' || Array.isArray(value) || depth > 3) return;
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      if (at === '' && name === 'data') continue;
      const path = at === '' ? name : `${at}.${name}`;
      if (wordsOf(name).some((word) => PAGE_WORDS.has(word))) {
        if (!saysWhole(name, member, records.length)) found.push(path);
      } else walk(member, path, depth + 1);
    }
  };
  walk(body, '', 1);
  return found;
}

/**
 * The whole list behind a first page: when `first` (a 200 of a list) names a next page, or says it is a page of a
 * cursor or page-number convention, each page is asked with `fetch` and the records of every page are joined into one
 * answer (the first page's other members kept). `advise` is told what was read. `incomplete` is told when the list
 * says it holds more than the suite could read (a next page elsewhere, refused, repeating a record, past MAX_PAGES, or
 * a count above the records read): the test cannot judge the list whole, so it is not verified (never failed: section
 * 8 leaves pagination open). Any other answer is returned as it is.
 */
export async function wholeList(
  first: ApiResponse,
  request: { path: string; query?: Record<string, string | string[] | undefined> },
  baseUrl: string,
  fetch: (path: string, query: Record<string, string | string[]>) => Promise<ApiResponse>,
  advise: (message: string) => void,
  incomplete: (reason: string) => void = advise,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<ApiResponse> {
  if (first.status !== 200 || !first.isJson || !isListPath(request.path)) return first;
  const body = first.json as Record<string, unknown> | null;
  const firstRecords = pageRecords(body);
  if (!body || typeof body !== 'object' || firstRecords === undefined) return first;
  const where = `GET ${templateOf(request.path) ?? request.path.split('?')[0]}`;
  let bytes = first.length;
  const records: unknown[] = [...firstRecords];
  const seen = new Set(records.map(recordKey));
  const asked = new Set<string>();
  let pages = 1;
  let page = first;
  let pageRecordsRead = firstRecords;
  let unread: string | undefined;
  for (;;) {
    const link = nextPageOf(page);
    const more = link === undefined ? morePages(page, pageRecordsRead) : undefined;
    if (link === undefined && more === undefined) break;
    let target: { path: string; query: Record<string, string | string[]> } | { refused: string };
    if (link !== undefined) target = nextRequest(link, baseUrl, request.path, request.query);
    else if (more!.query) target = nextRequest(`?${new URLSearchParams(more!.query).toString()}`, baseUrl, request.path, request.query);
    else target = { refused: `it says it is a page (${more!.says}) and names no next page` };
    if ('refused' in target) {
      unread = target.refused;
      break;
    }
    const key = `${target.path} ${JSON.stringify(target.query)}`;
    if (asked.has(key)) {
      unread = 'its next page names a page already read';
      break;
    }
    if (pages >= MAX_PAGES) {
      unread = `it answered more than ${MAX_PAGES} pages`;
      break;
    }
    asked.add(key);
    if (bytes >= maxBytes) {
      // Issue 29's bound holds for a list as for one answer: pages kept together stay under the answer size limit.
      unread = `its pages together reach the answer size limit (${maxBytes} bytes)`;
      break;
    }
    page = await fetch(target.path, target.query);
    bytes += page.length;
    const data = page.status === 200 && page.isJson ? pageRecords(page.json) : undefined;
    if (data === undefined) {
      unread = `its next page answered ${page.status}${page.status === 200 ? ' without a list' : ''}`;
      break;
    }
    if (data.some((record) => seen.has(recordKey(record)))) {
      unread = `page ${pages + 1} repeats records of the pages before it (a page parameter not read?)`;
      break;
    }
    for (const record of data) seen.add(recordKey(record));
    records.push(...data);
    pageRecordsRead = data;
    pages++;
  }
  const counted = totalOf(first);
  if (unread === undefined && counted !== undefined && counted.total > records.length) unread = `it says (${counted.member}) the list holds ${counted.total} records, and ${records.length} were read`;
  if (unread !== undefined) incomplete(`${where} answered its list in pages (section 8 shows no pagination: a reading), and ${unread}: the list could not be read whole`);
  if (pages === 1) return first;
  advise(`${where} answered its list in ${pages} pages (section 8 shows no pagination: a reading); the suite read them all and judged the ${records.length} records together`);
  const whole = withRecords(body, records);
  return new ApiResponse(first.status, first.headers, JSON.stringify(whole), { ok: true, value: whole });
}
