import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, digest, isSessionAnswer, onAnswers, onParsedBody, only, ordersOf, parse, queryOf, reading, recordsOf, routeOf } from './reading.js';
import { AUTH, BANKS, BANK, CARDS, CARD, BONUSES, BONUS, SUMMARY, BONUS_ROUTES, COINS, NFTS, NFT } from './routes.js';

/**
 * Reading round 15 (issue 28): implementation choices the specification leaves open, each taken the other way from
 * the reference, as a Laravel Sanctum team, a Spring Security team, a team on Aurora read replicas, a Python team, an
 * exchange that quotes its rates the other way, a team that keeps GitHub's API habits (default list filters), a
 * Binance-like wallet screen would take them, reading only the specification (/work/shared/spec/interface.md) and
 * docs/provider-states.md. Written without reading the suite (suites/, helpers/, test/, explore/, schemas/,
 * docs/judging.md). None repeats a reading of rounds 1 to 14, of the white-box rounds or of the groups' own `allowed-*`
 * mutants (their names and headers were read for that). Each description quotes the text that leaves the point open.
 * Readings change requests or answers only (two change a request's parsed JSON body, through an accessor on
 * `request.body` set before fastify parses it).
 * Run against the suite (main at 047af8f, `node bin/mutants.mjs --mutant ... --shards 1` in four batches): 21 of 26
 * stayed conformant; the 5 refused are kept in `readingsR15Refused` below with their failing tests and the argument.
 */


/** A query naming `assets[]` (any of the forms fastify parses it to). */
const filtersAssets = (query: Record<string, unknown>): boolean => Object.keys(query).some((key) => key.startsWith('assets'));

/** The ASCII digit of a Unicode decimal digit (general category Nd: ten code points in a row from its zero). */
function asciiDigit(char: string): string | undefined {
  if (/^[0-9]$/.test(char)) return char;
  if (!/^\p{Nd}$/u.test(char)) return undefined;
  const point = char.codePointAt(0)!;
  let zero = point;
  while (zero > point - 9 && /^\p{Nd}$/u.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((point - zero) % 10);
}

/** An amount set whose six amounts are all zero. */
const emptyAmounts = (set: any): boolean => set && typeof set === 'object' && Object.values(set).every((value) => typeof value === 'string' && Number(value) === 0);

/** Access tokens by their secret part: Sanctum's findToken looks a token without `|` up by the hash of the whole text. */
const tokensBySecret = new Map<string, string>();

/** Bank records as last answered, by id, and the ids answered deleted (a soft delete keeps the row). */
const banksSeen = new Map<string, any>();
const banksDeleted = new Set<string>();

/** Marks an empty bankName on its way to the reference's `required` rule (which refuses the empty string). */
const EMPTY_BANK_NAME = 'r15 empty bank name \u2022';

const readingsR15Written: Mutant[] = [
  // ---- Authentication (5, 2.1): how a bearer token is looked up
  reading(
    'allowed-r15-token-secret-alone-accepted',
    'authentication',
    '5',
    'a bearer token sent without its `<numeric_id>|` prefix is looked up by its secret alone, as Laravel Sanctum\u2019s `PersonalAccessToken::findToken` does (a token without `|` is found by the SHA-256 of the whole text; with `|` by its id, then compared), so the secret of a live session authenticates as the full token does; an unknown, logged-out or expired one is still 401 (2.1: "id | string | Access token, form <numeric_id>|<secret>; sent later as the bearer token"; 5.3: "Without valid authentication the response is 401": which other forms of the same credential a service also recognises is not given; the secret is the credential, the id only an index)',
    {
      request(request) {
        const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
        if (!sent || sent.includes('|')) return;
        const token = tokensBySecret.get(sent);
        if (token) request.headers.authorization = `Bearer ${token}`;
      },
      wire(answer: WireAnswer) {
        if (!isSessionAnswer(answer)) return undefined;
        const token = parse(answer.payload)?.data?.id;
        const split = typeof token === 'string' ? /^(\d+)\|(.+)$/.exec(token) : null;
        if (split) tokensBySecret.set(split[2]!, token);
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r15-2fa-unicode-digits',
    'authentication',
    '4.2',
    'a `2fa` code written in other decimal digits (fullwidth \uff11\uff12\uff13..., Arabic-Indic \u0661\u0662\u0663..., any Unicode Nd digit) is read as the code those digits write and checked as the TOTP code, as a Python team\u2019s `str.isdigit()` check and `int()` read it (Django\u2019s RegexValidator with `\\d`, which is Unicode-aware in Python 3, likewise): a wrong code so written is a wrong credential (403), not a malformed field (4.2: "2fa | string | no | exactly 6 digits"; 8: "authenticate.2fa | exactly 6 digits": which digits, ASCII or any script\u2019s, is not given)',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== AUTH) return;
        onParsedBody(request, (body) => {
          const code = body['2fa'];
          if (typeof code !== 'string' || /^[0-9]*$/.test(code)) return;
          const chars = [...code];
          const digits = chars.map(asciiDigit);
          if (chars.length === 6 && digits.every((digit) => digit !== undefined)) body['2fa'] = digits.join('');
        });
      },
    },
    only('authentication'),
  ),

  // ---- The road: what a security filter answers before routing (5.3, 7)
  reading(
    'allowed-r15-unknown-path-401-before-routing',
    'authentication',
    '7',
    'a request without an Authorization header to a path the service does not route (or a method it does not route there) is answered 401 `{"error":"Unauthenticated."}`, as Spring Security\u2019s filter chain with `anyRequest().authenticated()` answers before the dispatcher looks for a handler (only the login, JWT login, forgot and reset paths are public); with a token the same request gets its 404 or 405 (5.3: "Protected endpoints require the header Authorization ... Without valid authentication the response is 401"; 7: "401 | protected endpoints, logout | unauthenticated": what a path that is no endpoint answers, and which check comes first, is not given)',
    {
      wire(answer, reply) {
        if (answer.url !== '' || (answer.status !== 404 && answer.status !== 405)) return undefined;
        if (reply.request.headers.authorization !== undefined) return undefined;
        reply.code(401);
        return JSON.stringify({ error: 'Unauthenticated.' });
      },
    },
    ALL,
  ),

  // ---- Framing (1.2): chunk extensions
  reading(
    'allowed-r15-http-chunk-extensions',
    'authentication',
    '1',
    'every answer with a body is sent chunked in two chunks whose size lines carry a chunk extension (`1a4;name="r15"`), then the connection is closed, as a service behind a proxy that annotates its chunks writes it (RFC 9112 7.1.1: "chunk-ext = *( BWS \";\" BWS chunk-ext-name [ BWS \"=\" BWS chunk-ext-val ] )"; "A recipient MUST ignore unrecognized chunk extensions"; 1.2: "Requests and responses are JSON": the HTTP framing is not given)',
    {
      wire(answer, reply) {
        const socket = reply.request.raw.socket;
        if (answer.payload.length === 0 || !socket || socket.destroyed) return undefined;
        let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Unknown'}\r\nDate: ${new Date().toUTCString()}\r\n`;
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value === undefined || ['content-length', 'transfer-encoding', 'connection', 'date'].includes(name.toLowerCase())) continue;
          for (const one of Array.isArray(value) ? value : [value]) head += `${name}: ${String(one)}\r\n`;
        }
        head += 'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n';
        const bytes = Buffer.from(answer.payload, 'utf8');
        const half = Math.ceil(bytes.length / 2);
        socket.write(head);
        socket.write(`${half.toString(16)};name="r15"\r\n`);
        socket.write(bytes.subarray(0, half));
        if (bytes.length > half) {
          socket.write(`\r\n${(bytes.length - half).toString(16)};part=2;last\r\n`);
          socket.write(bytes.subarray(half));
        }
        socket.end('\r\n0\r\n\r\n');
        reply.hijack();
        return '';
      },
    },
    ALL,
  ),

  // ---- Banks (4.10, 2.4, 3)
  reading(
    'allowed-r15-bank-name-empty-accepted',
    'banks',
    '4.10',
    'an empty `bankName` ("") is a present string and is accepted and stored as sent, as a team whose validation is JSON Schema\u2019s `required` (a member present) with `maxLength: 191` and no `minLength`, or Spring\u2019s `@NotNull @Size(max = 191)`, reads the column; an absent or null bankName is still refused (4.10: "bankName | string | yes | max 191": "required" says the member is sent, and no minimum length is given, unlike password\u2019s "min 8")',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== BANKS) return;
        onParsedBody(request, (body) => {
          if (body.bankName === '') body.bankName = EMPTY_BANK_NAME;
        });
      },
      wire(answer) {
        if (![BANKS, BANK].includes(answer.url) || !answer.payload.includes(EMPTY_BANK_NAME)) return undefined;
        return answer.payload.split(JSON.stringify(EMPTY_BANK_NAME)).join('""');
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r15-iban-masked-after-create',
    'banks',
    '2.4',
    'a bank record shows its IBAN in full in the answer to its create only; the list and the show give it masked but for its last four characters (`************************1234`), as a team that treats an IBAN as personal data (PSD2, GDPR data minimisation) and shows it once, as Stripe shows a bank account\u2019s `last4`, writes it (2.4: "iban | string |" with no note; 2.6 says only that the user\u2019s e-mail "is masked by the service": whether a record\u2019s other values are shown in full is not given)',
    onAnswers([BANKS, BANK], (body, answer) => {
      if (answer.method !== 'GET') return false;
      const records = recordsOf(body).filter((record) => record && typeof record.iban === 'string' && record.iban.length > 4);
      if (records.length === 0) return false;
      for (const record of records) record.iban = `${'*'.repeat(record.iban.length - 4)}${record.iban.slice(-4)}`;
    }),
    only('banks'),
  ),
  reading(
    'allowed-r15-lists-read-replica-lag',
    'banks',
    '4.10',
    'the bank and card lists are read from a replica that lags the primary by up to two seconds: a record created within the last two seconds is not yet listed (its show, read from the primary, finds it at once), as a team on Aurora or PostgreSQL read replicas (or DynamoDB\u2019s eventually consistent reads) serves lists (4.10: "List | GET /api/v1/user/{user}/bank | ... | 200 { data: [<Bank>] }"; 4.6a likewise: nothing says a list reflects a write at once; consistency between endpoints is not given)',
    {
      wire(answer) {
        if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== BANKS && answer.url !== CARDS)) return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        const now = Math.floor(Date.now() / 1000);
        const settled = body.data.filter((record: any) => !(typeof record?.createdAt === 'number' && record.createdAt >= now - 1));
        if (settled.length === body.data.length) return undefined;
        body.data = settled;
        return JSON.stringify(body);
      },
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r15-deleted-bank-shown-deleted',
    'banks',
    '3',
    'a bank delete is a soft delete: the bank leaves the list, and its show still answers it, with `status` "DELETED", as a team whose bank accounts keep their history for audit (a payout made to it must stay traceable) shows it (3: "Bank | status | CONFIRMED (the state shown for a newly created bank)"; "Transitions: not shown"; 2: "Full set of allowed values of the status fields of banks ...: not shown"; 4.10: "Delete | ... | 200 { message: string }": what a deleted bank\u2019s show answers is not given)',
    {
      wire(answer, reply) {
        const id = String((reply.request.params as { bank?: string } | undefined)?.bank ?? '').toLowerCase();
        if (answer.url === BANK && answer.method === 'GET' && answer.status === 200) {
          const record = parse(answer.payload)?.data;
          if (record && typeof record.id === 'string') banksSeen.set(record.id.toLowerCase(), record);
          return undefined;
        }
        if (answer.url === BANKS && answer.status === 201) {
          const record = parse(answer.payload)?.data;
          if (record && typeof record.id === 'string') banksSeen.set(record.id.toLowerCase(), record);
          return undefined;
        }
        if (answer.url === BANK && answer.method === 'DELETE' && answer.status === 200) {
          banksDeleted.add(id);
          return undefined;
        }
        if (answer.url === BANK && answer.method === 'GET' && answer.status === 404 && banksDeleted.has(id) && banksSeen.has(id)) {
          reply.code(200);
          return JSON.stringify({ data: { ...banksSeen.get(id), status: 'DELETED' } });
        }
        return undefined;
      },
    },
    only('banks'),
  ),

  // ---- Balances (4.6, 4.8, 2.2): what a list of a user's balances holds
  reading(
    'allowed-r15-coin-list-hides-empty-balances',
    'balances',
    '4.8',
    'the unfiltered coin list leaves out the coins with nothing available (a crypto `available` of zero, whatever is staked or pending), as Binance\u2019s and Coinbase\u2019s wallet screens hide empty balances; a coin asked for by `assets[]`, and its show, still answer it (4.8: "Query: assets[] (optional, repeatable). 200: { data: { coins: [<Balance record>, ...] } }": which coins an unfiltered list holds, every coin the user has a row for or those with a balance, is not given)',
    onAnswers([COINS], (body, answer, reply) => {
      if (answer.method !== 'GET' || filtersAssets(queryOf(reply)) || !Array.isArray(body?.data?.coins)) return false;
      const kept = body.data.coins.filter((record: any) => !emptyAmounts(record?.amounts?.crypto) && Number(record?.amounts?.crypto?.available ?? 1) !== 0);
      if (kept.length === body.data.coins.length) return false;
      body.data.coins = kept;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r15-coin-list-holds-fiat-wallet',
    'balances',
    '4.8',
    'the unfiltered coin list also holds the user\u2019s fiat wallet (EUR, `type` "fiat", precision 2, its chain both null, no properties), as an exchange that keeps fiat and crypto in one wallet list shows it; a list filtered by `assets[]` holds only what it names (4.8: "200: { data: { coins: [<Balance record>, ...] } }"; 2.2: "type | string | Values seen: coin, nft"; 2.3: "type: string (values seen: coin, fiat)": values seen, not a closed list, and an asset of type fiat is named by the text itself)',
    onAnswers([COINS], (body, answer, reply) => {
      if (answer.method !== 'GET' || filtersAssets(queryOf(reply)) || !Array.isArray(body?.data?.coins)) return false;
      if (body.data.coins.some((record: any) => record?.symbol === 'EUR')) return false;
      const zero = { available: '0', vesting: '0', staking: '0', pending: '0', payment: '0', reserve: '0' };
      body.data.coins.push({
        name: 'Euro',
        symbol: 'EUR',
        alias: null,
        type: 'fiat',
        precision: 2,
        quantity: -1,
        memo: false,
        chain: { name: null, symbol: null },
        description: { en: 'Euro, the currency of the euro area.' },
        properties: [],
        meta: {},
        favorite: false,
        amounts: { crypto: { ...zero, available: '125.40' }, fiat: { ...zero, available: '125.40' } },
      });
    }),
    only('balances'),
  ),

  // ---- Bonuses (4.11): what an unfiltered list holds
  reading(
    'allowed-r15-bonus-list-default-hides-canceled',
    'bonuses',
    '4.11',
    'the bonus list without a `status` filter answers the live bonuses, distributed and pending; canceled ones are listed when asked for (`status=canceled`) and shown by id, as GitHub\u2019s list endpoints default `state` to `open` (4.11: "List | GET /api/v1/user/{user}/bonus | query status (optional; distributed, pending, canceled) ...": what the list answers when `status` is absent, every status or a default set, is not given)',
    onAnswers([BONUSES], (body, answer, reply) => {
      const status = queryOf(reply).status;
      if (answer.method !== 'GET' || (status !== undefined && status !== '') || !Array.isArray(body?.data)) return false;
      const live = body.data.filter((record: any) => record?.status !== 'canceled');
      if (live.length === body.data.length) return false;
      body.data = live;
    }),
    only('bonuses'),
  ),

  // ---- Orders (2.7): values whose form the text does not give
  reading(
    'allowed-r15-order-rate-inverse-quote',
    'bonuses',
    '2.7',
    'an order\u2019s `rate` is quoted the other way round: units of the asset bought per unit of the asset paid (`toAmount` / `fromAmount`, "0.000016129032" for a coin at 62000 EUR), as an exchange that quotes its conversion rates from the side of what is paid (a currency converter\u2019s "1 EUR = 0.0000161 BTC") writes it (2.7: "fromAmount, toAmount, rate | decimal string": which way round the rate is quoted is not given)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const orders = ordersOf(body).filter((order) => typeof order.rate === 'string' && Number(order.rate) > 0);
      if (orders.length === 0) return false;
      for (const order of orders) order.rate = (1 / Number(order.rate)).toFixed(12);
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r15-order-symbols-lower-case',
    'bonuses',
    '2.7',
    'an order\u2019s `fromSymbol` and `toSymbol` are the market\u2019s ticker codes in lower case ("eur", "btc"), as a team whose order table keeps the pair\u2019s codes as its matching engine writes them (CoinGecko and Kraken\u2019s REST pairs use lower-case ids) writes them; the order\u2019s `fromAsset` and `toAsset` summaries keep the asset\u2019s symbol (2.7: "fromSymbol, toSymbol | string"; "fromAsset, toAsset | asset summary": that the two writings are the same text is not given)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const orders = ordersOf(body).filter((order) => typeof order.fromSymbol === 'string' || typeof order.toSymbol === 'string');
      if (orders.length === 0) return false;
      for (const order of orders) {
        if (typeof order.fromSymbol === 'string') order.fromSymbol = order.fromSymbol.toLowerCase();
        if (typeof order.toSymbol === 'string') order.toSymbol = order.toSymbol.toLowerCase();
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r15-order-settlement-members-filled',
    'bonuses',
    '2.7',
    'the order of a distributed bonus carries its settlement: `txId` the payout transaction\u2019s hash, `wallet` "spot", `walletAddress` the address paid, and `updates.wallet` `{ status: "confirmed", address, url }` (the explorer\u2019s page of the transaction), as an exchange that pays its bonuses on chain writes them (2.7: "txId, wallet, walletAddress | string or null"; "updates | { wallet: { status, address, url } } all nullable": when they have values is not given)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const records = recordsOf(body).filter((record) => record?.status === 'distributed' && record?.order && typeof record.order === 'object' && typeof record.order.id === 'string');
      if (records.length === 0) return false;
      for (const record of records) {
        const order = record.order;
        const txId = `0x${digest(`tx:${order.id.toLowerCase()}`)}`;
        const address = `0x${digest(`wallet:${order.id.toLowerCase()}`).slice(0, 40)}`;
        order.txId = txId;
        order.wallet = 'spot';
        order.walletAddress = address;
        order.updates = { wallet: { status: 'confirmed', address, url: `https://etherscan.io/tx/${txId}` } };
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r15-order-payment-amount-filled',
    'bonuses',
    '2.7',
    'an order\u2019s `payment.amount` is the amount paid (its `fromAmount`, a decimal string) and `payment.proofUploaded` false when no proof of payment was sent, as a team whose payment row always knows what was charged writes them (2.7: "payment | object: ... amount (nullable) ... proofUploaded (nullable)": nullable, so a value is as allowed as null, and when each has one is not given)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const orders = ordersOf(body).filter((order) => order.payment && typeof order.payment === 'object' && typeof order.fromAmount === 'string');
      if (orders.length === 0) return false;
      for (const order of orders) {
        if (order.payment.amount === null) order.payment.amount = order.fromAmount;
        if (order.payment.proofUploaded === null) order.payment.proofUploaded = false;
      }
    }),
    only('bonuses'),
  ),

  // ---- The user object of a bonus (2.6)
  reading(
    'allowed-r15-user-deleted-at-zero',
    'bonuses',
    '2.6',
    'the user object\u2019s `deletedAt` is 0 for an account that was never deleted, as a team on MySQL with an `INT UNSIGNED NOT NULL DEFAULT 0` column (the PHP habit of a zero timestamp for "never") writes it (2.6: "deletedAt | integer or null": 0 is an integer, and which value says "never" is not given)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const users = recordsOf(body).map((record) => record?.user).filter((user) => user && typeof user === 'object' && user.deletedAt === null);
      if (users.length === 0) return false;
      for (const user of users) user.deletedAt = 0;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r15-user-preferences-other-values',
    'bonuses',
    '2.6',
    'the user object\u2019s preferences are those of a mobile-first product: `options.theme` "system" (follow the device), `options.layout` "compact", `meta.source` "ios" (where the account was opened) (2.6: "options | object: language, theme, layout (strings)"; "meta | object: source (string)": their values are not given)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const users = recordsOf(body).map((record) => record?.user).filter((user) => user && typeof user === 'object' && user.options && typeof user.options === 'object');
      if (users.length === 0) return false;
      for (const user of users) {
        if (typeof user.options.theme === 'string') user.options.theme = 'system';
        if (typeof user.options.layout === 'string') user.options.layout = 'compact';
        if (user.meta && typeof user.meta.source === 'string') user.meta.source = 'ios';
      }
    }),
    only('bonuses'),
  ),
  // ---- Bonuses (2.5a, 2.5b, 2.6): values whose meaning the text does not give
  reading(
    'allowed-r15-canceled-bonus-amount-zero',
    'bonuses',
    '2.5a',
    'a canceled bonus shows `amount` "0", what it paid, and the asset summary\u2019s `canceled.amount` is 0 likewise (its `bonuses` count unchanged), as a ledger that records what was credited, not what was once promised, writes them; `value` keeps what the bonus was worth (2.5a: "amount | string |" and "value | string |" with no note; 2.5b: "canceled: S where S = { bonuses: integer, amount: number }": whether a canceled bonus\u2019s amount is what it would have paid or what it paid is not given)',
    {
      wire(answer) {
        if ((answer.status !== 200 && answer.status !== 201) || ![...BONUS_ROUTES, SUMMARY].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        let changed = false;
        if (answer.url === SUMMARY) {
          for (const entry of Array.isArray(body?.data) ? body.data : []) {
            if (entry?.canceled && typeof entry.canceled.amount === 'number' && entry.canceled.amount !== 0) {
              entry.canceled.amount = 0;
              changed = true;
            }
          }
        } else {
          for (const record of recordsOf(body)) {
            if (record?.status === 'canceled' && typeof record.amount === 'string' && record.amount !== '0') {
              record.amount = '0';
              changed = true;
            }
          }
        }
        return changed ? JSON.stringify(body) : undefined;
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r15-pending-bonused-at-scheduled',
    'bonuses',
    '2.5a',
    'a pending bonus\u2019s `bonusedAt` is the time it is scheduled to be paid, seven days after it was earned (a bonus held through the order\u2019s withdrawal period), a time still to come, as a platform that releases bonuses after a holding period writes it (2.5a: "bonusedAt | integer | Unix seconds": the time of what, the payment made or planned, is not given, and a pending bonus has not been paid)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const records = recordsOf(body).filter((record) => record?.status === 'pending' && typeof record.createdAt === 'number');
      if (records.length === 0) return false;
      for (const record of records) record.bonusedAt = record.createdAt + 7 * 24 * 3600;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r15-bonus-user-is-referred-friend',
    'bonuses',
    '2.6',
    'the user object inside a bonus is the user whose order earned it, a friend the bonus\u2019s owner referred (another account: its own id, its own masked e-mail), as a referral programme shows who brought the bonus; the bonus is still listed and shown under its owner\u2019s `{user}` (2.5a: "user | object | User object (2.6)"; 2.6: "User object (inside a bonus)": which user, the owner of the bonus or the user of its order, is not given, and 2.6 masks the e-mail because it may be someone else\u2019s)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const users = recordsOf(body).map((record) => record?.user).filter((user) => user && typeof user === 'object' && typeof user.id === 'string');
      if (users.length === 0) return false;
      for (const user of users) {
        const hex = digest(`friend:${user.id.toLowerCase()}`);
        user.id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
        if (typeof user.email === 'string') user.email = `fr****${hex.slice(0, 2)}@e*****e.com`;
      }
    }),
    only('bonuses'),
  ),

  // ---- Balances (2.2): the form of a language code
  reading(
    'allowed-r15-description-iso-639-3-codes',
    'balances',
    '2.2',
    'a balance record\u2019s `description` is keyed by three-letter ISO 639-3 codes (`eng`, `deu`, `fra`, `spa`), as a team whose texts come from a catalogue keyed by ISO 639-3 (the codes that cover every language; MARC and many library and terminology systems use them) writes it (2.2: "description | object | Map from language code (for example en) to text": "for example", and which standard\u2019s language codes is not given)',
    onAnswers([COINS, '/api/v1/user/:user/balances/:asset', NFTS, NFT], (body) => {
      const three: Record<string, string> = { en: 'eng', de: 'deu', fr: 'fra', es: 'spa', it: 'ita', pt: 'por', ru: 'rus', zh: 'zho', ja: 'jpn', ko: 'kor', nl: 'nld', pl: 'pol', tr: 'tur', ar: 'ara' };
      const maps = recordsOf(body).map((record) => record?.description).filter((map) => map && typeof map === 'object' && !Array.isArray(map) && Object.keys(map).length > 0);
      if (maps.length === 0) return false;
      for (const map of maps) {
        for (const key of Object.keys(map)) {
          const longer = three[key.toLowerCase()];
          if (longer === undefined || longer in map) continue;
          map[longer] = map[key];
          delete map[key];
        }
      }
    }),
    only('balances'),
  ),

  // ---- Timing (4.10, 4.6a): a create that waits on a screening service
  reading(
    'allowed-r15-creates-answered-after-screening',
    'cards',
    '4.6a',
    'a bank or card create is answered after a synchronous screening call (sanctions list for the IBAN\u2019s holder, fraud score for the card) that takes 1.2 s: the status line and headers go out at once, the body 1.2 s later, as a service that streams its answer while it waits on a partner writes it (4.10 and 4.6a give what a create answers, 201 { data: <record> }, and nothing of how long it takes; 8: "Rate limits ...: not shown", and no latency is given anywhere)',
    {
      wire(answer, reply) {
        if (answer.method !== 'POST' || answer.status !== 201 || (answer.url !== BANKS && answer.url !== CARDS)) return undefined;
        reply.removeHeader('content-length');
        const body = new Readable({ read() {} });
        setTimeout(() => {
          body.push(answer.payload);
          body.push(null);
        }, 1200);
        return body;
      },
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r15-held-assets-favorite-by-default',
    'balances',
    '2.2',
    'every asset a user holds is one of the user\u2019s favourites until the user unmarks it (the app pins what you own to the top of its watch list), so a held coin or NFT shows `favorite` true, as a wallet app that seeds the watch list from the holdings writes it (2.2: "favorite | boolean |" with no note: what makes an asset a favourite, and its default, is not given)',
    onAnswers([COINS, '/api/v1/user/:user/balances/:asset', NFTS, NFT], (body) => {
      const records = recordsOf(body).filter((record) => record && record.favorite === false);
      if (records.length === 0) return false;
      for (const record of records) record.favorite = true;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r15-order-mode-type-instant',
    'bonuses',
    '2.7',
    'an order\u2019s `mode.type` names how it was executed, "instant" for an order filled at the quoted price at once (beside "limit" and "recurring"), as a broker app that offers instant buys writes it (2.7: "mode | object: type (value seen: normal), and nullable status, amount, ...": the other values of the type are not given, as 2 says of the order\u2019s enumerations)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const modes = ordersOf(body).map((order) => order.mode).filter((mode) => mode && typeof mode.type === 'string');
      if (modes.length === 0) return false;
      for (const mode of modes) mode.type = 'instant';
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r15-user-trade-status-after-kyc',
    'bonuses',
    '2.6',
    'the user object\u2019s `tradeStatus` says whether the account has passed the identity check that trading needs, false for an active account that has not (`isActive` true, `status` active), as a regulated broker gates trading apart from login (2.6: "tradeStatus | boolean" with no note: what it tells, and how it relates to isActive, is not given)',
    onAnswers([...BONUS_ROUTES], (body) => {
      const users = recordsOf(body).map((record) => record?.user).filter((user) => user && user.tradeStatus === true);
      if (users.length === 0) return false;
      for (const user of users) user.tradeStatus = false;
    }),
    only('bonuses'),
  ),

  // ---- Errors (7): a body that is not JSON
  reading(
    'allowed-r15-malformed-json-422',
    'authentication',
    '7',
    'a request body that is not valid JSON is answered 422 in the validation format, `{ message, errors: { body: ["The body must be valid JSON."] } }`, as FastAPI answers a JSON decode error with 422 (its `json_invalid` error at `loc: ["body", ...]`), written in the format of section 7 (7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }"; the status table lists no 400, and what a body that does not parse answers is not given)',
    {
      wire(answer, reply) {
        if (answer.status !== 400 || !answer.payload.includes('not valid JSON')) return undefined;
        reply.code(422);
        return JSON.stringify({ message: 'The body must be valid JSON.', errors: { body: ['The body must be valid JSON.'] } });
      },
    },
    ALL,
  ),
];

void CARD;

/**
 * Refused by the suite (main at 047af8f; `node bin/mutants.mjs --mutant NAME --shards 1`, messages from
 * `node bin/conformance.mjs run --mutant NAME --grep ...`). Kept here, not registered: the lead judges them.
 * - allowed-r15-iban-masked-after-create (8 tests, e.g. "GET .../bank/{bank} answers 200 with the bank as created and as
 *   listed": "show: iban must be the value sent ("DE59...0922"), up to trimming, NFC/NFD, letter case or the print format
 *   of ISO 13616 ...; got "******************0922""). 2.4 gives "iban | string" with no note, and nothing says a record
 *   repeats every value sent; the suite already allows masking in lists (allowed-r11-iban-masked-in-lists) but not on
 *   show. Contestable: a show that does not give back the IBAN sent may fairly be read as not "the bank as created".
 * - allowed-r15-lists-read-replica-lag (40 tests of banks and cards, e.g. "GET .../bank answers 200 with { data: [Bank] }
 *   holding every bank of the user": "the list holds the banks the user had before and the two created, exactly").
 *   Nothing in 4.10 or 4.6a promises read-your-writes between a create and a list; eventual consistency of read
 *   replicas is a common deployment. But a list that misses a record just created is what a buggy list looks like
 *   too; a fair suite would retry the list for a few seconds before failing (a judgement for the lead).
 * - allowed-r15-deleted-bank-shown-deleted (1 test: "GET .../bank/{bank} answers 404 with { message } for a bank deleted
 *   before": "expected 404, got 200"). 3 leaves the transitions and the set of bank statuses open and 4.10 does not
 *   say what the show of a deleted bank answers; a soft delete with a DELETED status keeps the row for audit. Weak:
 *   7 gives 404 for "no record found", and after a delete the natural reading is that the record is gone.
 * - allowed-r15-bonus-list-default-hides-canceled (4 tests, e.g. "GET .../bonus answers 200 with the user's bonuses as
 *   full records": "the list must hold bonus 690ed3c6-... of the provider state; it holds 4 bonus(es)"). 4.11 gives
 *   `status` as an optional filter and does not say what the unfiltered list holds; GitHub's list endpoints default
 *   `state` to open. Contestable: "optional filter" most naturally means that without it nothing is filtered.
 * - allowed-r15-coin-list-hides-empty-balances (1 to 3 tests when written, by the random data; since round wb14 the
 *   reference's state names a held coin with nothing available on every call, so it is refused on every run: "GET .../balances writes
 *   meta.genesis_date as a calendar date for each coin the state names": "the coin list's ETH is missing: the coin list
 *   must include every held coin"). Not a false failure of the suite: the reference's own provider-state hook names a
 *   coin with nothing available as held, and the reading changes the interface only; a target with this reading
 *   would name in its `balances` state only the coins its list shows (provider-states.md: "that user holds at least
 *   one coin"). A reading and its hook must agree; this one, taken alone, cannot.
 * Conformant but changing no answer of today's suite (they pin a reading for later suites only):
 * - allowed-r15-token-secret-alone-accepted: the suite never sends a token's secret without its `<id>|` (the runner:
 *   "changed no answer of its run ... not put to the test").
 * - allowed-r15-malformed-json-422: likewise, no request of the run has a body that is not JSON.
 * All 21 registered, run together (`node bin/mutants.mjs` with the 21 `--mutant`s, --shards 1): 21/21 conformant.
 */
/*
 * Judged by the lead (issue 28): the five are judged deviations, each under a judgement docs/judging.md already made
 * for an earlier round, so none is a false failure of the suite:
 * - iban-masked-after-create: as allowed-r11-iban-masked-in-lists (refused in round 11; r15 took it for allowed): the
 *   text says where the service masks (2.6), and not for a bank's iban (row "Records hold what was sent").
 * - lists-read-replica-lag: row "A list holds each record once, only the caller's, and shows a create or a delete at
 *   once" (issue 27 asks for it by name: a list that misses a record just created is what a buggy list looks like,
 *   and a client cannot tell a lag from a loss).
 * - deleted-bank-shown-deleted: rows "Lists hold what the provider states made" (a deleted bank answers 404) and "The
 *   404 of a record says no query results": 7 gives 404 for "no record found", and a deleted record is not found.
 * - bonus-list-default-hides-canceled: row "Lists hold what the provider states made" (every bonus of the `bonuses`
 *   state): an optional filter left out filters nothing.
 * - coin-list-hides-empty-balances: row "Lists hold what the provider states made" (every balance the state holds);
 *   the reader's own argument: a reading and its hook must agree.
 */
const REFUSED = new Set<string>([
  'allowed-r15-iban-masked-after-create',
  'allowed-r15-lists-read-replica-lag',
  'allowed-r15-deleted-bank-shown-deleted',
  'allowed-r15-bonus-list-default-hides-canceled',
  'allowed-r15-coin-list-hides-empty-balances',
]);

export const readingsR15Refused: Mutant[] = readingsR15Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 15 (registered in index.ts): each must stay conformant. */
export const readingsR15Mutants: Mutant[] = readingsR15Written.filter((mutant) => !REFUSED.has(mutant.name));
