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
const LIST_PATTERNS: readonly RegExp[] = ENDPOINTS.filter((endpoint) => endpoint.id.startsWith('GET ') && isList(endpoint)).map((endpoint) => {
  const template = endpoint.id.slice(4);
  const source = template
    .split('/')
    .map((segment) => (/^\{\w+\?\}$/.test(segment) ? '(?:/[^/]+)?' : /^\{\w+\}$/.test(segment) ? '/[^/]+' : segment === '' ? '' : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    .join('');
  return new RegExp(`^${source}/?$`);
});

/** True when `path` (a request path relative to the base URL, a query allowed) is one of the catalogue's lists. */
export function isListPath(path: string): boolean {
  const bare = path.split('?')[0]!;
  return LIST_PATTERNS.some((pattern) => pattern.test(bare));
}

/**
 * The next page an answer names, as its writer gave it, or undefined: `links.next` (Laravel's API resources, JSON:API),
 * `next_page_url` (a bare paginator), `next` (a URL), or the `Link` header's `rel="next"` (RFC 8288, GitHub's lists).
 */
export function nextPageOf(response: ApiResponse): string | undefined {
  const body = response.isJson ? (response.json as Record<string, unknown> | null) : null;
  const candidates: unknown[] = [];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const links = body.links;
    if (links && typeof links === 'object' && !Array.isArray(links)) candidates.push((links as Record<string, unknown>).next);
    candidates.push(body.next_page_url, body.next);
  }
  const header = response.headers.link;
  if (typeof header === 'string') {
    for (const part of header.split(',')) {
      const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
      if (match && /(?:^|;)\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]!)) candidates.push(match[1]);
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

/** A record's key across pages: its id as ids are compared, else the record itself. */
const recordKey = (record: unknown): string => {
  const id = record && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? `id:${idKey(id) as string}` : `json:${JSON.stringify(record)}`;
};

/**
 * The whole list behind a first page: when `first` (a 200 of a list with `data` an array) names a next page, each page
 * is asked with `fetch` and the records of every page are joined into one answer (the first page's other members
 * kept). `advise` is told what was followed or not. Any other answer is returned as it is.
 */
export async function wholeList(
  first: ApiResponse,
  request: { path: string; query?: Record<string, string | string[] | undefined> },
  baseUrl: string,
  fetch: (path: string, query: Record<string, string | string[]>) => Promise<ApiResponse>,
  advise: (message: string) => void,
): Promise<ApiResponse> {
  if (first.status !== 200 || !first.isJson || !isListPath(request.path)) return first;
  const body = first.json as { data?: unknown } | null;
  if (!body || typeof body !== 'object' || !Array.isArray(body.data)) return first;
  let next = nextPageOf(first);
  if (next === undefined) return first;
  const where = `GET ${request.path.split('?')[0]}`;
  const records: unknown[] = [...body.data];
  const seen = new Set(records.map(recordKey));
  const asked = new Set<string>();
  let pages = 1;
  while (next !== undefined) {
    const target = nextRequest(next, baseUrl, request.path, request.query);
    if ('refused' in target) {
      advise(`${where} answered its list in pages (section 8 shows no pagination), and ${target.refused}: read as the ${pages} page(s) before it`);
      break;
    }
    const key = `${target.path} ${JSON.stringify(target.query)}`;
    if (asked.has(key)) break;
    if (pages >= MAX_PAGES) {
      advise(`${where} answered its list in more than ${MAX_PAGES} pages: read as its first ${MAX_PAGES}`);
      break;
    }
    asked.add(key);
    const page = await fetch(target.path, target.query);
    const data = page.status === 200 && page.isJson ? (page.json as { data?: unknown } | null)?.data : undefined;
    if (!Array.isArray(data)) {
      advise(`${where}: its next page answered ${page.status}${page.status === 200 ? ' without a data list' : ''}: read as the ${pages} page(s) before it`);
      break;
    }
    if (data.some((record) => seen.has(recordKey(record)))) {
      advise(`${where}: page ${pages + 1} repeats records of the pages before it (a page parameter not read?): read as the ${pages} page(s) before it`);
      break;
    }
    for (const record of data) seen.add(recordKey(record));
    records.push(...data);
    pages++;
    next = nextPageOf(page);
  }
  if (pages === 1) return first;
  advise(`${where} answered its list in ${pages} pages (section 8 shows no pagination: a reading); the suite read them all and judged the ${records.length} records together`);
  const whole = { ...(body as Record<string, unknown>), data: records };
  return new ApiResponse(first.status, first.headers, JSON.stringify(whole), { ok: true, value: whole });
}
