import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, digest, onAnswers, only, ordersOf, parse, queryOf, reading, recordsOf, routeOf, tokenShownAs } from './reading.js';
import { AUTH, FORGOT, BANKS, BANK, CARDS, CARD, BONUSES, BONUS, SUMMARY, BONUS_ROUTES, COINS, COIN, NFTS, NFT, BALANCE_ROUTES } from './routes.js';

/**
 * Reading round 17 (issue 28, "fair to the readings nobody listed"): implementation choices the specification leaves
 * open, each taken the other way from the reference, as a Laravel team whose login
 * checks the password before its throttle, a PHP team that coerces JSON scalars, a MySQL Galera (multi-primary) team, a
 * team on Aurora replicas or on a multi-region active-active store, a MongoDB/Mongoose team, a team that answers in
 * Stripe's style (an `object` member on each record, cursor pages with `has_more`), a GitHub-style API that pages with a
 * `Link` header, a wallet that gives every user a dedicated deposit address, a ledger team that writes fees as signed
 * debits, a SEPA bank team that refuses ISO 4217's X-codes, would take them, reading only the specification
 * (/work/shared/spec/interface.md), docs/provider-states.md, README.md, docs/implementers.md and reference/. Written
 * without reading the suite (suites/, helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a reading of
 * rounds 1 to 16, of review-o and review-r, of the white-box rounds or of the groups' own `allowed-*` mutants (their
 * names and descriptions were read for that). Each description quotes the text that leaves the point open.
 * Readings change requests or answers only (no edit to reference/modules/); a few answer what the reference answers to
 * the request the reading makes of the one sent (a re-asked request through fastify's inject, marked so that it is
 * never re-asked twice).
 * Run against the suite (main at bc1be1a, `nice -n 19 node bin/mutants.mjs --shards 1` in four batches): 19 of 25 stayed
 * conformant; the 6 refused are kept in `readingsR17Refused` below with their failing tests and the argument (see the
 * note above `REFUSED`). Two of them were false failures, fixed since (branch fix-r17) and registered: 21 registered,
 * 4 refused.
 */


/** The params of the request an answer is for. */
const paramsOf = (reply: FastifyReply): Record<string, string> => (reply.request.params ?? {}) as Record<string, string>;
/** The path of the request an answer is for (no query). */
const pathOf = (reply: FastifyReply): string => String(reply.request.url).split('?')[0]!;

/** Marks a request a reading re-asks, so that it is never re-asked again. */
const REASKED = 'x-r17-reasked';

/**
 * The reference's answer to another request made with the caller's headers (its bearer, its Accept), through fastify's
 * inject: what a reading answers where it reads the request otherwise than the reference does.
 */
async function reask(reply: FastifyReply, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; payload: string }> {
  const headers: Record<string, string> = { [REASKED]: '1' };
  for (const [name, value] of Object.entries(reply.request.headers)) {
    if (value === undefined || ['content-length', 'content-type', 'host', 'connection', 'transfer-encoding', 'accept-encoding'].includes(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await reply.server.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  return { status: answer.statusCode, payload: answer.payload };
}

/** Whether the request an answer is for was re-asked by a reading. */
const wasReasked = (reply: FastifyReply): boolean => reply.request.headers[REASKED] !== undefined;

/**
 * A wire rewrite that may answer later: `change` answers a new status and text, or nothing to leave the answer as it is.
 * (The reference's onSend hook awaits what a wire rewrite returns.)
 */
function later(change: (answer: WireAnswer, reply: FastifyReply) => Promise<{ status: number; payload: string } | undefined> | undefined) {
  return (answer: WireAnswer, reply: FastifyReply): string | undefined => {
    if (wasReasked(reply)) return undefined;
    const pending = change(answer, reply);
    if (pending === undefined) return undefined;
    return pending.then((changed) => {
      if (changed === undefined) return answer.payload;
      reply.code(changed.status);
      reply.removeHeader('content-length');
      return changed.payload;
    }) as unknown as string;
  };
}

/** Digests of `<e-mail>\n<password>` answered 403 (never the password itself), for the restriction reading. */
const refusedPasswords = new Set<string>();
const passwordKey = (email: unknown, password: unknown): string | undefined => (typeof email === 'string' && typeof password === 'string' ? digest(`${email.trim().toLowerCase()}\n${password}`) : undefined);

/** An icon written inline as an SVG data URI (a coin's first letter on a disc). */
function svgIcon(symbol: string): string {
  const letter = symbol.slice(0, 1).replace(/[^A-Za-z0-9]/g, '?');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="#${digest(symbol).slice(0, 6)}"/><text x="16" y="21" font-size="14" text-anchor="middle" fill="#fff">${letter}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/** The aliases of the reference's coin catalogue (reference/modules/balances.ts) and the symbols they name. */
const ALIASES: Record<string, string> = { 'USDT-ERC20': 'USDT', 'USDC-ERC20': 'USDC' };

/** ISO 4217's codes that name no currency a bank account holds: precious metals, SDRs and units of account, the test code, "no currency". */
const X_CODES = new Set(['XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'XSU', 'XUA', 'XBA', 'XBB', 'XBC', 'XBD', 'XTS', 'XXX']);

/** A card's `m/y` expiry as a month count (2029-07 is 2029 * 12 + 7), for ordering; unreadable ones last. */
function expiryMonths(text: unknown): number {
  const match = typeof text === 'string' ? /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(text) : null;
  if (!match) return Number.MAX_SAFE_INTEGER;
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return year * 12 + Number(match[1]);
}

/** A stable sort of a list by a key. */
function sortedBy<T>(list: T[], key: (item: T) => number | string): T[] {
  return list
    .map((item, index) => ({ item, index, key: key(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
    .map(({ item }) => item);
}

/** Whether a list answer's order changes under `sorted`. */
function reordered(list: any[], sorted: any[]): boolean {
  return list.some((item, index) => item !== sorted[index]);
}

/** Records the stores created (id, time) and last answered (id to record), for the replication readings. */
const createdAt = new Map<string, number>();
const deletedAt = new Map<string, number>();
const banksSeen = new Map<string, unknown>();
const idKey = (id: unknown): string => String(id).toLowerCase();

/** The shown numeric id of a token on a Galera cluster of three nodes, this one the second (auto_increment_increment 3, offset 2). */
const galera = tokenShownAs((id, secret) => `${BigInt(id) * 3n + 2n}|${secret}`);

const readingsR17Written: Mutant[] = [
  // ---- Authentication (4.2, 5.5, 2.1)
  reading(
    'allowed-r17-restricted-login-wrong-password-403',
    'authentication',
    '5',
    'while a login is restricted after brute force detection, a password already refused for that e-mail is still answered 403 (the credentials are checked before the throttle, as a login that verifies the password first and consults its limiter only for a right one answers); a password not refused before is answered 425 as by the reference, so the restriction still keeps out the account\u2019s owner and anyone who found the password (5.5: "Login is refused for inactive accounts (401), wrong credentials (403), locked accounts (423), and temporarily after brute force detection (425)"; 8: "Repeated failed logins lead to a temporary restriction (425); the threshold and duration are not shown": which status a request that is both a wrong credential and a restricted login gets is not given)',
    {
      wire(answer, reply) {
        if (answer.method !== 'POST' || answer.url !== AUTH) return undefined;
        const body = reply.request.body as Record<string, unknown> | undefined;
        const key = passwordKey(body?.email, body?.password);
        if (key === undefined) return undefined;
        if (answer.status === 403) {
          refusedPasswords.add(key);
          return undefined;
        }
        if (answer.status !== 425 || !refusedPasswords.has(key)) return undefined;
        reply.code(403);
        reply.removeHeader('retry-after');
        return JSON.stringify({ error: 'The provided credentials are incorrect.' });
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r17-login-numbers-read-as-text',
    'authentication',
    '4.2',
    'a login whose `2fa` or `password` is sent as a JSON number (`"2fa": 123456`) reads the number as its decimal text, as a PHP (Laravel `digits:6`) or a Pydantic-lax team coerces scalars, and answers as for that text (a right code logs in, a wrong one 403); a number that is not exactly 6 digits is still refused 422 (4.2: "2fa | string | no | exactly 6 digits"; 8: "authenticate.2fa | exactly 6 digits" is what is "enforced as validation errors, status 422": 123456 has exactly 6 digits; whether a number is refused for its JSON type or read as its digits is not given)',
    {
      wire: later((answer, reply) => {
        if (answer.method !== 'POST' || answer.url !== AUTH || answer.status !== 422) return undefined;
        const body = reply.request.body as Record<string, unknown> | undefined;
        const errors = parse(answer.payload)?.errors;
        if (!body || typeof body !== 'object' || !errors || typeof errors !== 'object') return undefined;
        const numbers = ['2fa', 'password'].filter((field) => typeof body[field] === 'number' && Number.isInteger(body[field]) && (body[field] as number) >= 0);
        if (numbers.length === 0 || !numbers.some((field) => field in errors)) return undefined;
        const asText = { ...body };
        for (const field of numbers) asText[field] = String(body[field]);
        return reask(reply, 'POST', AUTH, asText);
      }),
    },
    only('authentication'),
  ),
  reading(
    'allowed-r17-token-id-galera-offset',
    'authentication',
    '2.1',
    'the numeric part of each access token is the row id a MySQL Galera (multi-primary) cluster of three nodes gives it on its second node (`auto_increment_increment=3`, `auto_increment_offset=2`: 5, 8, 11, ...), so ids are neither consecutive nor counted from 1 (2.1: "id | string | Access token, form `<numeric_id>|<secret>`": how the numeric id is counted is not given)',
    { request: (request: FastifyRequest) => galera.request(request), wire: (answer: WireAnswer) => galera.wire(answer) },
    ALL,
  ),

  // ---- Password (4.3)
  reading(
    'allowed-r17-forgot-unknown-type-ignored',
    'password',
    '4.3',
    'a forgot-password whose `type` is a string other than `text` or `link` is read as no type (the default e-mail, with a link), as a lenient team that ignores an option it does not know; the answer is the one for the address (200, or 422 keyed by `email` for an unknown one) (4.3: "type | string | no | nullable; one of text, link (how the token is shown in the e-mail)" and "200: { data: { message: string } }. 422 when the e-mail is unknown (errors map keyed by email)": 422 is given for an unknown e-mail only; 7: "422 | forgot-password | e-mail not found"; 8 lists no limit of `type`)',
    {
      wire: later((answer, reply) => {
        if (answer.method !== 'POST' || answer.url !== FORGOT || answer.status !== 422) return undefined;
        const body = reply.request.body as Record<string, unknown> | undefined;
        const errors = parse(answer.payload)?.errors;
        if (!body || typeof body.type !== 'string' || /^(text|link)$/.test(body.type) || !errors || !('type' in errors)) return undefined;
        return reask(reply, 'POST', FORGOT, { ...body, type: null });
      }),
    },
    only('password'),
  ),

  // ---- Balances (2.2, 4.6 to 4.9)
  reading(
    'allowed-r17-memo-false-dedicated-addresses',
    'balances',
    '2.2',
    'every balance record\u2019s `memo` is false, XRP\u2019s too, as a platform that gives each user a dedicated deposit address on every chain (an XRP X-address of its own) asks for no memo or destination tag (2.2: "memo | boolean |" with no note: what it says, and of which coins it is true, is not given)',
    onAnswers(BALANCE_ROUTES, (body) => {
      const records = recordsOf(body).filter((record) => record?.memo === true);
      if (records.length === 0) return false;
      for (const record of records) record.memo = false;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r17-coins-native-first',
    'balances',
    '4.8',
    'the coin list shows the coins native to their chain first and the tokens on another chain after them (each group in the reference\u2019s order), as a wallet that lists networks before their tokens orders it (4.8: "200: { data: { coins: [<Balance record>, ...] } }"; 2.2: "chain ... (both null for a native coin)": no order of the list is given)',
    onAnswers([COINS], (body) => {
      const coins = body?.data?.coins;
      if (!Array.isArray(coins)) return false;
      const sorted = sortedBy(coins, (coin: any) => (coin?.chain?.name === null && coin?.chain?.symbol === null ? 0 : 1));
      if (!reordered(coins, sorted)) return false;
      body.data.coins = sorted;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r17-balance-show-routes-share-one-table',
    'balances',
    '4.7',
    'the coin show and the NFT show read one table of assets: the NFT show of a coin symbol answers the coin\u2019s record, and the coin show of an NFT symbol the NFT\u2019s (the path only picks a view), as a team with one `assets` table and two routes to it answers; a symbol the user holds in neither is answered as by the reference (4.7: "GET /api/v1/user/{user}/balances/nft/{asset} ... 200: { data: <Balance record> }. Errors: 401, 403, 409"; 4.9 likewise; 1.6: "{asset} is an asset symbol string": what a symbol of the other kind answers is not given, and 404 is not among the statuses of either)',
    {
      wire: later((answer, reply) => {
        if (answer.method !== 'GET' || answer.status !== 404 || (answer.url !== NFT && answer.url !== COIN)) return undefined;
        const { user, asset } = paramsOf(reply);
        if (!user || !asset) return undefined;
        const other = answer.url === NFT ? `/api/v1/user/${encodeURIComponent(user)}/balances/${encodeURIComponent(asset)}` : `/api/v1/user/${encodeURIComponent(user)}/balances/nft/${encodeURIComponent(asset)}`;
        return reask(reply, 'GET', other).then((found) => (found.status === 200 ? found : undefined));
      }),
    },
    only('balances'),
  ),
  reading(
    'allowed-r17-coin-show-by-alias',
    'balances',
    '4.9',
    'the coin show reads `{asset}` as the asset\u2019s symbol or its alias (`/balances/USDT-ERC20` answers the USDT record), as a team that resolves a path segment against both columns answers; a symbol is read as by the reference (4.9: "GET /api/v1/user/{user}/balances/{asset}"; 1.6: "{asset} is an asset symbol string"; 2.2: "alias | string or null": whether an alias also names the asset in a path is not given)',
    {
      wire: later((answer, reply) => {
        if (answer.method !== 'GET' || answer.status !== 404 || answer.url !== COIN) return undefined;
        const { user, asset } = paramsOf(reply);
        const symbol = asset ? ALIASES[asset.toUpperCase()] : undefined;
        if (!user || !symbol) return undefined;
        return reask(reply, 'GET', `/api/v1/user/${encodeURIComponent(user)}/balances/${symbol}`).then((found) => (found.status === 200 ? found : undefined));
      }),
    },
    only('balances'),
  ),
  reading(
    'allowed-r17-nft-list-largest-holding-first',
    'balances',
    '4.6',
    'the NFT list is ordered by the count held, the largest holding first (then as the reference orders them), as a collector\u2019s gallery shows its biggest sets first (4.6: "200: { data: [<Balance record>, ...] }"; 2.2: "quantity | integer | ... NFT records carry a positive count": no order of the list is given)',
    onAnswers([NFTS], (body) => {
      if (!Array.isArray(body?.data)) return false;
      const sorted = sortedBy(body.data, (nft: any) => -(typeof nft?.quantity === 'number' ? nft.quantity : 0));
      if (!reordered(body.data, sorted)) return false;
      body.data = sorted;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r17-coin-image-data-uri',
    'balances',
    '2.2',
    'a coin\u2019s `meta.image` is its icon inline, an SVG `data:` URI (RFC 2397), as a team that ships its small coin icons in the answer instead of from a CDN writes it; NFT images stay URLs (2.2: "meta | object | May be empty. Keys seen: image, url, ...": `image` is given neither a type nor a form)',
    onAnswers([COINS, COIN], (body) => {
      const records = recordsOf(body).filter((record) => record?.type === 'coin' && typeof record?.meta?.image === 'string' && !record.meta.image.startsWith('data:'));
      if (records.length === 0) return false;
      for (const record of records) record.meta.image = svgIcon(String(record.symbol));
    }),
    only('balances'),
  ),
  reading(
    'allowed-r17-balance-lists-link-header-pages',
    'balances',
    '8',
    'the coin and NFT lists are paged, two records a page, as GitHub\u2019s REST API pages: `?page=N` gives page N, and a `Link` header names the next and last pages (`<...?page=2>; rel="next", <...?page=3>; rel="last"`, RFC 8288); the body of each page is the list\u2019s own shape (8: "Rate limits and pagination of list endpoints: not shown"; 4.8: "200: { data: { coins: [<Balance record>, ...] } }"; 4.6: "200: { data: [<Balance record>, ...] }")',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== COINS && answer.url !== NFTS)) return undefined;
        const body = parse(answer.payload);
        const list: any[] | undefined = answer.url === COINS ? body?.data?.coins : body?.data;
        if (!Array.isArray(list)) return undefined;
        const perPage = 2;
        const lastPage = Math.max(1, Math.ceil(list.length / perPage));
        const asked = Number(queryOf(reply).page);
        const page = Number.isInteger(asked) && asked >= 1 ? asked : 1;
        const slice = list.slice((page - 1) * perPage, page * perPage);
        if (answer.url === COINS) body.data.coins = slice;
        else body.data = slice;
        const at = (n: number) => {
          const url = new URL(String(reply.request.url), 'http://reference.test');
          url.searchParams.set('page', String(n));
          return `${url.pathname}${url.search}`;
        };
        const links = [...(page < lastPage ? [`<${at(page + 1)}>; rel="next"`] : []), ...(page > 1 ? [`<${at(page - 1)}>; rel="prev"`, `<${at(1)}>; rel="first"`] : []), `<${at(lastPage)}>; rel="last"`];
        reply.header('link', links.join(', '));
        return JSON.stringify(body);
      },
    },
    only('balances'),
  ),

  // ---- Banks and cards (2.4, 2.5, 4.10, 4.6a)
  reading(
    'allowed-r17-records-stripe-object-member',
    'banks',
    '2.4',
    'each bank, card and bonus record carries Stripe\u2019s `object` member naming its kind (`"object": "bank_account"`, `"card"`, `"bonus"`), as a team that writes its API in Stripe\u2019s style does (2.4, 2.5 and 2.5a list each record\u2019s fields; 1.3: "Successful single-record responses are wrapped as { data: <record> }": nothing says a record carries only the listed fields)',
    onAnswers([BANKS, BANK, CARDS, CARD, BONUSES, BONUS], (body, answer) => {
      const kind = answer.url === BANKS || answer.url === BANK ? 'bank_account' : answer.url === CARDS || answer.url === CARD ? 'card' : 'bonus';
      const records = recordsOf(body).filter((record) => record && typeof record === 'object' && typeof record.id === 'string');
      if (records.length === 0) return false;
      for (const record of records) record.object = kind;
    }),
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r17-mongoose-id-and-version-keys',
    'banks',
    '2.4',
    'each bank and card record also carries what a Mongoose document serialises with: `_id`, its 24-hex-digit ObjectId, and `__v`, its version key (0), beside the UUID `id` the interface names, as a team on MongoDB that keeps the UUID as its public id answers (2.4: "id | string (UUID)"; 2.5 likewise; nothing says a record carries only the listed fields, or which of its keys is its id beyond `id`)',
    onAnswers([BANKS, BANK, CARDS, CARD], (body) => {
      const records = recordsOf(body).filter((record) => record && typeof record === 'object' && typeof record.id === 'string');
      if (records.length === 0) return false;
      for (const record of records) {
        record._id = digest(`objectid ${record.id.toLowerCase()}`).slice(0, 24);
        record.__v = 0;
      }
    }),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r17-bank-list-by-currency',
    'banks',
    '4.10',
    'the bank list is ordered by currency code, then by creation (a user\u2019s EUR accounts together, then the USD ones), as a treasury view groups accounts (4.10: "List | GET /api/v1/user/{user}/bank | ... | 200 { data: [<Bank>] }": no order is given)',
    onAnswers([BANKS], (body, answer) => {
      if (answer.method !== 'GET' || !Array.isArray(body?.data)) return false;
      const sorted = sortedBy(body.data, (bank: any) => `${String(bank?.currency ?? '')}\u0000${String(bank?.createdAt ?? '').padStart(12, '0')}`);
      if (!reordered(body.data, sorted)) return false;
      body.data = sorted;
    }),
    only('banks'),
  ),
  reading(
    'allowed-r17-show-after-create-lag',
    'banks',
    '4.10',
    'the bank and card shows are read, like the lists, from a replica in another region that lags the writes by up to two seconds: a show within two seconds of the record\u2019s create answers 404 `{ message: "No query results for model [Bank] <id>" }`, and then the record, as a multi-region active-active team whose reads are served locally and writes replicate asynchronously answers (4.10: "Show | GET /api/v1/user/{user}/bank/{bank} | none | 200 { data: <Bank> }"; 7: "404 | bank show, bonus show, card show | no record found": nothing promises that a read sees a write at once)',
    {
      wire(answer, reply) {
        const key = (id: unknown) => idKey(id);
        if (answer.method === 'POST' && answer.status === 201 && (answer.url === BANKS || answer.url === CARDS)) {
          const id = parse(answer.payload)?.data?.id;
          if (typeof id === 'string') createdAt.set(key(id), Date.now());
          return undefined;
        }
        if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== BANK && answer.url !== CARD)) return undefined;
        const id = answer.url === BANK ? paramsOf(reply).bank : paramsOf(reply).card;
        const at = createdAt.get(key(id));
        if (at === undefined || Date.now() - at > 2000) return undefined;
        reply.code(404);
        return JSON.stringify({ message: `No query results for model [${answer.url === BANK ? 'Bank' : 'Card'}] ${id}` });
      },
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r17-show-after-delete-lag',
    'banks',
    '4.10',
    'a bank\u2019s show within a second and a half of its delete still answers the bank as it was, read from a replica the delete has not reached yet, and 404 after (the list and the delete itself as by the reference), as a multi-region active-active team serves reads locally (4.10: "Delete | DELETE /api/v1/user/{user}/bank/{bank} | none | 200 { message: string }" and "Show | ... | 200 { data: <Bank> }": how soon a delete is seen by a read is not given)',
    {
      wire(answer, reply) {
        if (answer.url !== BANK && answer.url !== BANKS) return undefined;
        if (answer.status === 200 || answer.status === 201) {
          for (const record of recordsOf(parse(answer.payload))) if (typeof record?.id === 'string') banksSeen.set(idKey(record.id), record);
        }
        if (answer.url !== BANK) return undefined;
        const id = idKey(paramsOf(reply).bank);
        if (answer.method === 'DELETE' && answer.status === 200) {
          deletedAt.set(id, Date.now());
          return undefined;
        }
        const at = deletedAt.get(id);
        const record = banksSeen.get(id);
        if (answer.method !== 'GET' || answer.status !== 404 || at === undefined || record === undefined || Date.now() - at > 1500) return undefined;
        reply.code(200);
        return JSON.stringify({ data: record });
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r17-lists-stripe-cursor-pages',
    'banks',
    '8',
    'the bank, card and bonus lists are paged as Stripe pages them, two records a page: the answer carries `"object": "list"`, `"has_more"` and `"url"` beside `data`, and the next page is asked with `?starting_after=<id of the last record>` (`limit` sets the size, up to 100); no link names the next page (8: "Rate limits and pagination of list endpoints: not shown"; 1.3: list responses are `{ data: [<record>, ...] }`, which each page is)',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || ![BANKS, CARDS, BONUSES].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        const query = queryOf(reply);
        const asked = Number(query.limit);
        const limit = Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : 2;
        const after = typeof query.starting_after === 'string' ? idKey(query.starting_after) : undefined;
        const start = after === undefined ? 0 : body.data.findIndex((record: any) => idKey(record?.id) === after) + 1;
        const page = body.data.slice(start, start + limit);
        return JSON.stringify({ object: 'list', data: page, has_more: start + limit < body.data.length, url: pathOf(reply) });
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r17-currency-x-codes-refused',
    'banks',
    '4.10',
    'a bank create whose currency is one of ISO 4217\u2019s X-codes that name no currency an account is held in (XAU, XAG, XPT, XPD gold and metals, XDR, XSU, XUA, XBA to XBD units of account, XTS the testing code, XXX "no currency") is refused 422 keyed by `currency`, as a SEPA bank team that holds only money accounts refuses them (4.10: "currency | string | yes | alphanumeric, a valid ISO currency code"; 7: "422 | bank create | invalid field, for example an unknown currency": whether the codes of ISO 4217 that are not currencies are "valid ISO currency codes" of a bank account is not given)',
    {
      wire: later((answer, reply) => {
        if (answer.method !== 'POST' || answer.url !== BANKS || answer.status !== 201) return undefined;
        const record = parse(answer.payload)?.data;
        if (typeof record?.currency !== 'string' || !X_CODES.has(record.currency.toUpperCase()) || typeof record.id !== 'string') return undefined;
        const message = 'The selected currency is invalid.';
        return reask(reply, 'DELETE', `${pathOf(reply)}/${encodeURIComponent(record.id)}`).then(() => ({ status: 422, payload: JSON.stringify({ message, errors: { currency: [message] } }) }));
      }),
    },
    only('banks'),
  ),
  reading(
    'allowed-r17-currency-filter-any-case',
    'banks',
    '4.10',
    'the bank list\u2019s `currency` filter matches the code in any letter case (`currency=eur` lists the EUR accounts), as a team whose column is PostgreSQL `citext` filters (4.10: "query: status, currency, company, platform (all optional filters, strings)": how a filter value is matched is not given)',
    {
      request(request) {
        if (request.method !== 'GET' || routeOf(request) !== BANKS) return;
        const query = (request.query ?? {}) as Record<string, unknown>;
        if (typeof query.currency === 'string') query.currency = query.currency.toUpperCase();
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r17-card-list-soonest-expiry-first',
    'cards',
    '4.6a',
    'the card list is ordered by expiry, the card that expires soonest first (then as the reference orders them), as a wallet that reminds its user of the next card to renew orders it (4.6a: "List | GET /api/v1/user/{user}/card | ... | 200 { data: [<Card>] }": no order is given)',
    onAnswers([CARDS], (body, answer) => {
      if (answer.method !== 'GET' || !Array.isArray(body?.data)) return false;
      const sorted = sortedBy(body.data, (card: any) => expiryMonths(card?.expirationDate));
      if (!reordered(body.data, sorted)) return false;
      body.data = sorted;
    }),
    only('cards'),
  ),

  // ---- Bonuses (2.5a, 2.5b, 2.6, 2.7, 4.11)
  reading(
    'allowed-r17-bonus-list-by-asset',
    'bonuses',
    '4.11',
    'the bonus list is grouped by asset, ordered by the asset\u2019s symbol (then as the reference orders them, latest first), as a rewards page with one section per coin orders it (4.11: "List | GET /api/v1/user/{user}/bonus | ... | 200 { data: [<Bonus>] }": no order is given)',
    onAnswers([BONUSES], (body) => {
      if (!Array.isArray(body?.data)) return false;
      const sorted = sortedBy(body.data, (bonus: any) => String(bonus?.asset?.symbol ?? ''));
      if (!reordered(body.data, sorted)) return false;
      body.data = sorted;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r17-summary-orders-distributed-only',
    'bonuses',
    '2.5b',
    'a bonus asset summary\u2019s `orders` counts the distinct orders that paid out a bonus of the asset (those of its distributed bonuses), not the orders of its pending or canceled ones, as a rewards report that counts the orders that earned something counts them (2.5b: "{ asset: <asset summary>, orders: integer, distributed: S, pending: S, canceled: S }": which orders `orders` counts is not given)',
    {
      wire: later((answer, reply) => {
        if (answer.method !== 'GET' || answer.url !== SUMMARY || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        const user = paramsOf(reply).user;
        if (!Array.isArray(body?.data) || body.data.length === 0 || !user) return undefined;
        return reask(reply, 'GET', `/api/v1/user/${encodeURIComponent(user)}/bonus?status=distributed`).then((listed) => {
          const bonuses = parse(listed.payload)?.data;
          if (listed.status !== 200 || !Array.isArray(bonuses)) return undefined;
          const orders = new Map<string, Set<string>>();
          for (const bonus of bonuses) {
            const symbol = String(bonus?.asset?.symbol ?? '').toUpperCase();
            if (!orders.has(symbol)) orders.set(symbol, new Set());
            orders.get(symbol)!.add(idKey(bonus?.order?.id));
          }
          for (const entry of body.data) if (entry && typeof entry === 'object') entry.orders = orders.get(String(entry?.asset?.symbol ?? '').toUpperCase())?.size ?? 0;
          return { status: 200, payload: JSON.stringify(body) };
        });
      }),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r17-user-meta-source-referral',
    'bonuses',
    '2.6',
    'the user object\u2019s `meta.source` names how the user came to the platform, `referral` for a user whose bonuses a referral programme pays, as a growth team records the acquisition channel (2.6: "meta | object: source (string)": what `source` holds is not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      const metas = recordsOf(body).map((record) => record?.user?.meta).filter((meta) => meta && typeof meta === 'object' && meta.source !== 'referral');
      if (metas.length === 0) return false;
      for (const meta of metas) meta.source = 'referral';
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r17-order-fees-signed-debits',
    'bonuses',
    '2.7',
    'an order\u2019s `commissions.amount` and `payment.feeAmount` are written as signed debits (`"-1.25"`), as a double-entry ledger team writes what is taken from the user; zero stays `"0"` and the percentages are unchanged (2.7: "commissions | { percent: decimal string, amount: decimal string }", "feeAmount (decimal string)"; 1.5: "Monetary and crypto amounts are decimal strings (up to 25 fractional digits, or the bare string 0)": a decimal string may carry a sign; the sign convention of a fee is not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      const debit = (value: unknown) => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) && Number(value) !== 0 ? `-${value}` : value);
      for (const order of ordersOf(body)) {
        if (order.commissions && typeof order.commissions === 'object') {
          const before = order.commissions.amount;
          order.commissions.amount = debit(before);
          changed ||= before !== order.commissions.amount;
        }
        if (order.payment && typeof order.payment === 'object') {
          const before = order.payment.feeAmount;
          order.payment.feeAmount = debit(before);
          changed ||= before !== order.payment.feeAmount;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r17-color-code-upper-case-hex',
    'bonuses',
    '2.7',
    'an order platform\u2019s `color_code` is written in upper-case hexadecimal (`#D9480F`), as a design team whose tokens are exported from Figma writes it (2.7: "externalPlatform | object: id, code, name, color_code (string), urls": the form of the colour is not given; CSS reads hex digits in any case)',
    onAnswers(BONUS_ROUTES, (body) => {
      const platforms = ordersOf(body).map((order) => order.externalPlatform).filter((platform) => platform && typeof platform.color_code === 'string' && /[a-f]/.test(platform.color_code) && /^#[0-9a-fA-F]{3,8}$/.test(platform.color_code));
      if (platforms.length === 0) return false;
      for (const platform of platforms) platform.color_code = platform.color_code.toUpperCase();
    }),
    only('bonuses'),
  ),
];

/**
 * Run against the suite (branch readings-r17 off main at bc1be1a): `nice -n 19 node bin/mutants.mjs --shards 1 --mutant ...`
 * in batches of 10, 8, 7 and 2, then `node bin/conformance.mjs run --group G --mutant NAME` for each refused reading (the
 * failure lines below are from those runs), and a traced run (a temporary log of the re-asked and rewritten requests,
 * not committed) of the readings that act only on some requests. 19 of 25 stayed conformant; the 6 refused are kept in
 * `readingsR17Refused`, not registered, for the lead to judge:
 * Fixed since (branch fix-r17) and registered, conformant: allowed-r17-restricted-login-wrong-password-403 (the
 * brute-force tests judge the restriction by a login with the account's own credentials, 425 under every reading; the
 * opt-in search advises on wrong passwords answered 403 as a security note) and allowed-r17-forgot-unknown-type-ignored
 * (a type outside text and link is refused with 422 keyed by type or ignored with 200, advised on; rule S352 not
 * observable; the deviation forgot-type-unchecked, which it cannot be told from, became allowed-forgot-type-unchecked).
 * The round's report as written:
 * - allowed-r17-restricted-login-wrong-password-403 (2 tests, 3 with the opt-in brute-force one): "POST /api/v1/authenticate
 *   answers 425 with { error } to a failed login once one account has failed as many as the threshold the target gives
 *   (state user.brute-force)" and "(... with twoFactor: an account with 2FA)": "expected 425, got 403"; "sections 5.5 and
 *   8: after 5 failed logins of one account (the threshold state user.brute-force gives) login must be restricted
 *   (425), got 403"; the mutation runner also names "... 425 with error after repeated failed logins of one account at
 *   most 50". Text: 5.5 "Login is refused for ... wrong credentials (403) ... and temporarily after brute force detection
 *   (425)"; 8 "Repeated failed logins lead to a temporary restriction (425); the threshold and duration are not shown".
 *   Judgement: a false failure (contestable). The login is restricted under this reading (the right password is
 *   answered 425 and opens no session), and a request that is both a wrong credential and a restricted login has two
 *   statuses the text gives, with no precedence. The suite probes the restriction with a wrong password; it could probe
 *   it with the account's right password (the state gives it), 425 under both readings, and advise on a 403 for a wrong
 *   one. (Against it: a 403/425 split tells a guesser when the password is right, a weakness a security advisory could
 *   name.)
 * - allowed-r17-forgot-unknown-type-ignored (1 test): "POST /api/v1/user/forgot-password answers 422 keyed by type for
 *   type sms (neither text nor link)": "expected 422, got 200". Text: 4.3 "type | string | no | nullable; one of text,
 *   link" and "422 when the e-mail is unknown (errors map keyed by email)"; 7 "422 | forgot-password | e-mail not
 *   found"; 8's list of limits "enforced as validation errors, status 422" has the forgot e-mail, not `type`. Judgement:
 *   a false failure (contestable). The text gives forgot-password's 422 for an unknown e-mail only; every 422 of
 *   another field it gives is named in 7 or 8, and `type` is in neither. "one of text, link" says what a client sends,
 *   not what a server answers to anything else; an implementation that ignores an unknown option is liberal in what it
 *   accepts. A fair suite advises on the 200.
 * - allowed-r17-balance-lists-link-header-pages (4 tests): "GET .../balances answers 200 with { data: { coins: [records] } }
 *   holding every coin the user holds": "the coin list must include the held coin SOL; it lists BTC, DOGE"; "GET
 *   .../balances answers each of two users who hold one asset that user's own entry of it, filtered by assets[] and
 *   not ...": "the list of a user who holds SOL (provider state balances) does not hold it"; "GET .../balances writes
 *   meta.genesis_date as a calendar date for each coin the state names, in the list and shown": "the coin list's USDC is
 *   missing"; "GET .../balances/{asset} answers each held coin with the fields the coin list gives it": "the coin list
 *   must include the held coin DOGE". Text: 8 "Rate limits and pagination of list endpoints: not shown". Judgement: a
 *   false failure. The same run reads the NFT list, paged the same way, whole ("answered its list in 2 pages (section 8
 *   shows no pagination: a reading); the suite read them all", 8 advisories); the coin list keeps its records in
 *   `data.coins`, and the suite follows `Link: rel="next"` only for a `data` array.
 * - allowed-r17-lists-stripe-cursor-pages (7 bank tests; the mutation runner names bank tests too): "GET .../bank lists
 *   every bank of one platform and none of another under the platform filter": "precondition failed: provider state
 *   bank.two-platforms reports 2 record(s) on platform REF, but the user's unfiltered list shows ef308a91-... not
 *   listed"; "... with the currency given ..." and "... with the status given ...": "the user's unfiltered list must
 *   hold the records of provider state bank.two-platforms; it lacks ..."; "... under the company filter ..."; "... for
 *   two filters together ...": "filters together list other records than those every filter alone lists"; "GET
 *   .../bank/{bank} answers 200 with each listed bank ...": "the list must hold the bank ... of provider state
 *   bank.two-platforms"; "POST .../bank stores nothing for a refused create ...": "a refused create changed the
 *   caller's records". Text: 8 "Rate limits and pagination of list endpoints: not shown"; 1.3 "list responses as
 *   { data: [<record>, ...] }". Judgement: a false failure. The same run's test of a user with 16 records sees the
 *   page and advises ("holds 2 of them and says it is a page (member object, member has_more, member url): section 8
 *   does not show pagination"), while the other tests judge the first page as the whole list. The lead's r16 rule
 *   ("where an answer carries pagination members it cannot follow, advise instead of failing on a missing record") is
 *   met for that one test only; Stripe's `has_more` with `starting_after=<last id>` is also common enough to follow.
 * - allowed-r17-show-after-create-lag (20 bank tests, e.g. "GET .../bank/{bank} answers 200 with the Bank as created and
 *   as listed (create, list, show round trip)": "expected 200, got 404"; "DELETE ... deletes that record only: the
 *   user's other record is still shown ...": "show of the user's other bank ... must still answer 200, got 404"; the
 *   access tables: "precondition failed: ... must answer its owner 200, got 404"; "POST .../bank answers 201 for a
 *   bankName of 191 characters": "expected 201, got 404"). Text: 4.10 "Show ... 200 { data: <Bank> }", 7 "404 ... no
 *   record found": nothing on read-your-writes. Judgement: a fair refusal, by the lead's judgement of
 *   allowed-r15-lists-read-replica-lag (row "A list holds each record once, only the caller's, and shows a create or a
 *   delete at once": a client cannot tell a lag from a loss); a show that cannot find a record just created is the
 *   same. Noticed: the create tests' headline says "expected 201, got 404" where the create was answered 201 and the
 *   show after it 404 (the headline names the show's status under the create's expectation).
 * - allowed-r17-show-after-delete-lag (2 tests): "GET .../bank/{bank} answers 404 with { message } for a bank deleted
 *   before": "expected 404, got 200"; "DELETE .../bank/{bank} answers 200 with { message } to a delete of the user's
 *   bank on either of two platforms, which is then neither listed nor shown": "expected status 404, got 200". Text:
 *   4.10 and 7 as above. Judgement: a fair refusal, by the lead's judgement of allowed-r15-deleted-bank-shown-deleted
 *   and of the read-replica lag (7 gives 404 for no record found; a delete is shown at once).
 * Conformant but changing nothing today's suite sees (the traced runs of their groups saw no request they act on):
 * allowed-r17-login-numbers-read-as-text (the suite sends no `2fa` or `password` as a JSON number),
 * allowed-r17-coin-show-by-alias, allowed-r17-balance-show-routes-share-one-table (no show of an alias or of a symbol of
 * the other kind), allowed-r17-currency-x-codes-refused (no X-code currency), allowed-r17-currency-filter-any-case (no
 * lower-case currency filter). The others rewrite answers the suite reads (checked on the reference: each acted).
 * Dropped while writing: a repeated list filter read by its first value (the reference already does so, banks.ts) and
 * the bonus list by `bonusedAt`, latest first (the reference's own order); replaced by the NFT list by holding and the
 * bonus list by asset.
 */
/*
 * Judged by the lead (issue 28):
 * - balance-lists-link-header-pages, lists-stripe-cursor-pages: false failures, fixed. helpers/check/pages.ts reads the
 *   coin list's data.coins in pages too, and Stripe's has_more (continued after the last record's id) and a page number
 *   below the last; a list that says it holds more than could be read makes its test not verified. Registered.
 * - restricted-login-wrong-password-403, forgot-unknown-type-ignored: false failures, fixed on branch fix-r17 (the
 *   restriction judged by the right credentials; an unknown forgot type may be ignored, advised on).
 * - show-after-create-lag, show-after-delete-lag: judged deviations, as the reader judged them (rows "A list holds each
 *   record once ... and shows a create or a delete at once" and "The 404 of a record says no query results": a client
 *   cannot tell a lag from a loss).
 */
const REFUSED = new Set<string>([
  'allowed-r17-show-after-create-lag',
  'allowed-r17-show-after-delete-lag',
]);

export const readingsR17Refused: Mutant[] = readingsR17Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 17 (registered in index.ts): each must stay conformant. */
export const readingsR17Mutants: Mutant[] = readingsR17Written.filter((mutant) => !REFUSED.has(mutant.name));
