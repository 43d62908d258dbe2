import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import { ROUTE, answered, type Seen } from './make.js';
import { cardFormOf, onParsedBody, parse, perServerMutation, recordCardForm, storedCardOf } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';

/**
 * White-box round wb14 (issue 27, "a rule is verified only where it was checked everywhere it applies"): deviations a
 * real backend could ship, written by a fourteenth reviewer who read the specification, docs/judging.md, suites/ and
 * helpers/ (the tables of helpers/spec/instances.ts and helpers/arrange/invariants.ts, the value classes of the bank
 * suite, the provider states of the reference) and aimed at what rounds wb1 to wb13 left alone:
 * - checks whose catch depends on the draw of a provider state: the one coin whose exact amount state `balances` gives
 *   is drawn from seven (a DECIMAL(36,8) column, a PHP float cast cut only ETH's and SOL's 18 and 9 places), the one
 *   native coin that is also a chain (ETH) is held or not, a token's alias and precision (USDT, USDC), a zero balance;
 *   the bank suite's currencies (six fixed, three drawn of 155: the seven of three minor digits are drawn now and then);
 * - value classes sampled narrowly: a list of 16 records (more than Laravel's page of 15, fewer than Spring Data's 20);
 * - siblings: the token rows of the access table (appended, truncated ...) have no twin for the reset token; the
 *   short-session watch has a password and a JWT row, no 2FA row; a Session's ttl judged against until, never against
 *   how long the token really lives when the state's promise of a short session is broken; a reset's envelope judged
 *   on one path of forgot-password, not on the type text one;
 * - sequences never tried: a second reset of one address (forgot, reset, forgot, reset);
 * - members the schemas leave untyped (an order's payment amount, a monetary amount of section 1.5).
 * Each breaks a rule that holds under every reading of the specification; its description quotes the sentence it
 * breaks. All rewrite answers as sent (or a request before the reference reads it); none needs a deviation of the
 * reference's modules. A record a rewrite "refuses" after the reference stored it is hidden from every later list and
 * show, as a client sees a refused create.
 *
 * Score before fixes: 16 caught of 32 (`node bin/mutants.mjs --shards 1 --mutant NAME ...`, in batches of 11 and 21, each
 * survivor again alone with --no-hints; a catch that depends on the draw of a provider state or of the run's seed is
 * counted as no catch, as round wb13 closed it; the batches alone killed 21 of 32, see OPEN).
 */


const BALANCE_ROUTES: readonly string[] = [URL.nftList, URL.nftOne, URL.coinList, URL.coinOne];
const BONUS_READS: readonly string[] = [URL.bonusList, URL.bonusOne];

const key = (id: unknown) => String(id).toLowerCase();
const paramsOf = (reply: FastifyReply) => (reply.request.params ?? {}) as Record<string, string | undefined>;
const queryOf = (reply: FastifyReply) => reply.request.url.split('?')[1] ?? '';
const notFound = (model: string, id: string) => ({ message: `No query results for model [${model}] ${id}` });

/** The records of an answer: a list's items, the coin list's `coins`, a show's one record. */
const recordsOf = (body: any): any[] => {
  if (Array.isArray(body?.data)) return body.data;
  if (Array.isArray(body?.data?.coins)) return body.data.coins;
  return body?.data && typeof body.data === 'object' ? [body.data] : [];
};

/** The bearer token a request sends, or undefined. */
const bearerOf = (request: { headers: Record<string, string | string[] | undefined> }): string | undefined => {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
};

/** Every record of the answers of `routes` (GET 200) rewritten by `change` (true when it changed the record). */
function onRecords(routes: readonly string[], change: (record: any, reply: FastifyReply) => boolean, when: (reply: FastifyReply) => boolean = () => true): Mutation {
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || !routes.includes(answer.url) || !when(reply)) return undefined;
      const body = parse(answer.payload);
      let changed = false;
      for (const record of recordsOf(body)) if (record && typeof record === 'object' && change(record, reply)) changed = true;
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/** Each crypto amount of a balance record rewritten by `to`. */
const cryptoAmounts = (to: (amount: string) => string) => (record: any): boolean => {
  const crypto = record?.amounts?.crypto;
  if (!crypto || typeof crypto !== 'object') return false;
  let changed = false;
  for (const [field, value] of Object.entries(crypto)) {
    if (typeof value !== 'string') continue;
    const next = to(value);
    if (next !== value) { crypto[field] = next; changed = true; }
  }
  return changed;
};

/** A DECIMAL(36,8) column: the fraction cut (not rounded) to 8 places. */
const cutToEight = (amount: string): string => {
  const match = /^(-?\d*)\.(\d+)$/.exec(amount);
  return match && match[2]!.length > 8 ? `${match[1]}.${match[2]!.slice(0, 8)}` : amount;
};

/** PHP's `(string) $float` (ini precision 14): more than 14 significant digits rounded to 14, trailing zeros dropped. */
const phpFloat = (amount: string): string => {
  if (!/^\d+\.\d+$/.test(amount)) return amount;
  const significant = amount.replace('.', '').replace(/^0+/, '').length;
  if (significant <= 14) return amount;
  const value = Number(amount);
  const whole = Math.floor(Math.abs(value)).toString().replace(/^0$/, '').length;
  const leadingZeros = whole === 0 ? (/^0\.(0*)/.exec(amount)?.[1]?.length ?? 0) : 0;
  const places = Math.max(0, 14 - whole + leadingZeros);
  const text = value.toFixed(Math.min(places, 100));
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
};

/** A create of `list` answered 201 for which `refuse(request)` names a field is answered 422 keyed by it; the record the reference stored is hidden. */
function refusedCreate(list: string, show: string, param: string, model: string, refuse: (request: Seen) => { field: string; text: string } | undefined): Mutation {
  const hidden = new Set<string>();
  return {
    wire(answer, reply) {
      if (answer.method === 'POST' && answer.url === list && answer.status === 201) {
        const id = parse(answer.payload)?.data?.id;
        const refused = refuse(reply.request as unknown as Seen);
        if (!refused || typeof id !== 'string') return undefined;
        hidden.add(key(id));
        reply.code(422);
        return JSON.stringify({ message: refused.text, errors: { [refused.field]: [refused.text] } });
      }
      if (answer.method !== 'GET' || answer.status !== 200 || hidden.size === 0) return undefined;
      if (answer.url === list) {
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        const kept = body.data.filter((record: any) => !hidden.has(key(record?.id)));
        if (kept.length === body.data.length) return undefined;
        body.data = kept;
        return JSON.stringify(body);
      }
      const id = paramsOf(reply)[param];
      if (answer.url === show && id !== undefined && hidden.has(key(id))) {
        reply.code(404);
        return JSON.stringify(notFound(model, id));
      }
      return undefined;
    },
  };
}

/** The ISO 4217 currencies of three minor digits (a ledger of two decimal places refuses them). */
const THREE_MINOR_DIGITS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** A list answered with at most `size` records and nothing that says it is a page (Spring Data's default Pageable). */
const silentPage = (list: string, size: number): Mutation => ({
  wire(answer) {
    if (answer.method !== 'GET' || answer.url !== list || answer.status !== 200) return undefined;
    const body = parse(answer.payload);
    if (!Array.isArray(body?.data) || body.data.length <= size) return undefined;
    body.data = body.data.slice(0, size);
    return JSON.stringify(body);
  },
});

/**
 * A bank create refused (422) for its bankName alone, longer than 191 characters, still stores the bank with its name
 * cut to 191 (the row inserted by an observer before the validator's answer): later lists and shows of the user hold it.
 */
function refusedBankNameStoredCut(): Mutation {
  return perServerMutation(() => {
    const stored = new Map<string, any[]>();
    let platform: unknown;
    return {
      wire(answer, reply) {
        const user = paramsOf(reply).user;
        if (typeof user !== 'string') return undefined;
        const body = parse(answer.payload);
        if (answer.method === 'POST' && answer.url === URL.bankList) {
          if (answer.status === 201 && body?.data?.externalPlatform) platform = body.data.externalPlatform;
          const sent = (reply.request.body ?? {}) as Record<string, unknown>;
          const keys = Object.keys(body?.errors ?? {});
          if (answer.status !== 422 || keys.join() !== 'bankName' || typeof sent.bankName !== 'string' || [...sent.bankName].length <= 191) return undefined;
          if (typeof sent.iban !== 'string' || typeof sent.swift !== 'string' || typeof sent.currency !== 'string') return undefined;
          const record = {
            id: randomUUID(),
            status: 'CONFIRMED',
            bankName: [...sent.bankName].slice(0, 191).join(''),
            iban: sent.iban,
            swift: sent.swift,
            currency: sent.currency,
            externalPlatform: platform ?? { code: 'REF', name: 'Reference Exchange', url: 'https://exchange.reference.test' },
            createdAt: Math.floor(Date.now() / 1000),
          };
          stored.set(key(user), [...(stored.get(key(user)) ?? []), record]);
          return undefined;
        }
        if (answer.method !== 'GET' || answer.status === 401) return undefined;
        const extra = stored.get(key(user));
        if (!extra) return undefined;
        if (answer.url === URL.bankList && answer.status === 200 && Array.isArray(body?.data)) {
          if (queryOf(reply) !== '') return undefined;
          body.data.push(...extra);
          return JSON.stringify(body);
        }
        const id = paramsOf(reply).bank;
        const hit = extra.find((record) => key(record.id) === key(id));
        if (answer.url === URL.bankOne && hit && answer.status === 404) {
          reply.code(200);
          return JSON.stringify({ data: hit });
        }
        return undefined;
      },
    };
  });
}

/** Logins seen: the e-mail a user logged in with (by userId), the tokens of JWT and 2FA logins with their time. */
function loginLedger() {
  const emails = new Map<string, string>();
  const jwtTokens = new Set<string>();
  const twoFactorTokens = new Map<string, number>();
  return {
    emails,
    jwtTokens,
    twoFactorTokens,
    see(answer: WireAnswer, reply: FastifyReply): void {
      if (answer.method !== 'POST' || answer.status !== 200) return;
      const data = parse(answer.payload)?.data;
      if (typeof data?.id !== 'string' || typeof data?.userId !== 'string') return;
      if (answer.url === URL.jwt) jwtTokens.add(data.id);
      if (answer.url !== URL.login) return;
      const sent = (reply.request.body ?? {}) as Record<string, unknown>;
      if (typeof sent.email === 'string') emails.set(key(data.userId), sent.email);
      if (typeof sent['2fa'] === 'string' && sent['2fa'] !== '') twoFactorTokens.set(data.id, Date.now());
    },
  };
}

/** `created` of a Session (ISO 8601 UTC with microseconds) plus `seconds`, written in the same form. */
function isoPlus(created: string, seconds: number): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(created);
  if (!match) return undefined;
  const at = Date.parse(`${match[1]}Z`);
  if (Number.isNaN(at)) return undefined;
  return `${new Date(at + seconds * 1000).toISOString().slice(0, 19)}${match[2] ?? ''}Z`;
}

/**
 * Sessions of JWT logins answered with the ttl of a configuration value the guard does not read (a day), and until
 * moved with it, while the token lives the service's own session lifetime: the Session says a day, the token dies sooner.
 */
function jwtSessionTtlFromConfig(): Mutation {
  return answered(ROUTE.jwt, 200, (body) => {
    const data = body?.data;
    if (typeof data?.created !== 'string' || typeof data?.ttl !== 'number' || data.ttl === 86_400) return false;
    const until = isoPlus(data.created, 86_400);
    if (until === undefined) return false;
    data.ttl = 86_400;
    data.until = until;
    return true;
  });
}

/** The 2FA step-up window (seconds) a 2FA login's token is accepted for, whatever its ttl. */
export const STEP_UP_WINDOW_SECONDS = 300;

/**
 * The token of a login made with a 2FA code is accepted only within the 2FA step-up window after the login (the
 * session row takes the window's expiry, `expires_at = now + 300`), while the Session answers the service's ttl and until.
 */
function twoFactorTokenDiesAfterWindow(windowSeconds = STEP_UP_WINDOW_SECONDS): Mutation {
  const ledger = loginLedger();
  return {
    request(request: FastifyRequest) {
      const bearer = bearerOf(request as unknown as Seen);
      if (bearer === undefined) return;
      const at = ledger.twoFactorTokens.get(bearer);
      if (at !== undefined && Date.now() - at > windowSeconds * 1000) request.headers.authorization = `Bearer ${bearer}-expired`;
    },
    wire(answer, reply) {
      ledger.see(answer, reply);
      return undefined;
    },
  };
}

const isReset = (request: FastifyRequest) => request.method === 'POST' && request.url.split('?')[0] === '/api/v1/user/reset-password';

/** reset-password cuts the token it is sent to the 64 characters of the token column before it looks it up. */
function resetTokenCutToColumn(): Mutation {
  return {
    request(request) {
      if (!isReset(request)) return;
      onParsedBody(request, (body) => {
        const token = body.token;
        if (typeof token === 'string' && token.length > 64 && token.length <= 255) body.token = token.slice(0, 64);
      });
    },
  };
}

/**
 * After an address's first successful reset, its later forgot-passwords e-mail tokens that no reset accepts (the spent
 * reset row is found again by firstOrCreate and kept; the new token is mailed but never stored): every later reset of
 * that address is refused as an invalid token.
 */
function secondResetRefused(): Mutation {
  const done = new Set<string>();
  return {
    request(request) {
      if (!isReset(request)) return;
      onParsedBody(request, (body) => {
        if (typeof body.email === 'string' && done.has(body.email.toLowerCase()) && typeof body.token === 'string') body.token = `${body.token}-spent`;
      });
    },
    wire(answer, reply) {
      if (answer.method === 'POST' && answer.url === URL.reset && answer.status === 200) {
        const email = (reply.request.body as Record<string, unknown> | undefined)?.email;
        if (typeof email === 'string') done.add(email.toLowerCase());
      }
      return undefined;
    },
  };
}

/** reset-password answers `{ message }` (no `data`) to a reset of an address whose last forgot-password was of type text. */
function resetOfTextTypeUnwrapped(): Mutation {
  const textType = new Set<string>();
  return {
    wire(answer, reply) {
      const sent = (reply.request.body ?? {}) as Record<string, unknown>;
      const email = typeof sent.email === 'string' ? sent.email.toLowerCase() : undefined;
      if (email === undefined || answer.method !== 'POST' || answer.status !== 200) return undefined;
      if (answer.url === URL.forgot) {
        if (sent.type === 'text') textType.add(email);
        else textType.delete(email);
        return undefined;
      }
      if (answer.url !== URL.reset || !textType.has(email)) return undefined;
      const message = parse(answer.payload)?.data?.message;
      return typeof message === 'string' ? JSON.stringify({ message }) : undefined;
    },
  };
}

/** The bonus list under a filter (status or platform) answers the user's e-mail unmasked (the filtered query's resource skips the mask). */
function filteredBonusEmailUnmasked(): Mutation {
  const ledger = loginLedger();
  return {
    wire(answer, reply) {
      ledger.see(answer, reply);
      if (answer.method !== 'GET' || answer.url !== URL.bonusList || answer.status !== 200 || queryOf(reply) === '') return undefined;
      const body = parse(answer.payload);
      let changed = false;
      for (const bonus of recordsOf(body)) {
        const email = ledger.emails.get(key(bonus?.user?.id));
        if (email !== undefined && bonus.user.email !== email) { bonus.user.email = email; changed = true; }
      }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/** Logout of a JWT login's token answers `{ status: true }` (a boolean) instead of a string. */
function jwtLogoutStatusBoolean(): Mutation {
  const ledger = loginLedger();
  return {
    wire(answer, reply) {
      ledger.see(answer, reply);
      if (answer.method !== 'POST' || answer.url !== URL.logout || answer.status !== 200) return undefined;
      const bearer = bearerOf(reply.request as unknown as Seen);
      if (bearer === undefined || !ledger.jwtTokens.has(bearer)) return undefined;
      return JSON.stringify({ status: true });
    },
  };
}

/** Bonus show answers, for the id of one of the user's orders, the first bonus that order earned (a lookup by bonus id or order id). */
function bonusShowByOrderId(): Mutation {
  const byOrder = new Map<string, any>();
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET') return undefined;
      const user = paramsOf(reply).user;
      if (typeof user !== 'string') return undefined;
      if ((answer.url === URL.bonusList || answer.url === URL.bonusOne) && answer.status === 200) {
        for (const bonus of recordsOf(parse(answer.payload))) {
          const slot = `${key(user)} ${key(bonus?.order?.id)}`;
          if (typeof bonus?.order?.id === 'string' && !byOrder.has(slot)) byOrder.set(slot, bonus);
        }
        return undefined;
      }
      if (answer.url !== URL.bonusOne || answer.status !== 404) return undefined;
      const hit = byOrder.get(`${key(user)} ${key(paramsOf(reply).bonus)}`);
      if (!hit) return undefined;
      reply.code(200);
      return JSON.stringify({ data: hit });
    },
  };
}

/**
 * A card create refused with 422 whose form and errors `take` accepts is stored all the same, with the fields `take`
 * answers (its own validation or an observer's insert): later lists and shows of the user hold the card; with `answer`,
 * the create is answered 201 with it.
 */
function cardStoredDespite(take: (form: Record<string, string>, errors: string[]) => Record<string, string> | undefined, answer: boolean): Mutation {
  return perServerMutation(() => {
    const stored = new Map<string, any[]>();
    let platform: unknown;
    return {
      request: recordCardForm,
      wire(answer0, reply) {
        const user = paramsOf(reply).user;
        if (typeof user !== 'string') return undefined;
        const body = parse(answer0.payload);
        if (answer0.method === 'POST' && answer0.url === URL.cardList) {
          if (answer0.status === 201 && body?.data?.externalPlatform) platform = body.data.externalPlatform;
          const form = cardFormOf(reply.request);
          if (answer0.status !== 422 || !form || !body?.errors) return undefined;
          const fields = take(form, Object.keys(body.errors));
          if (!fields) return undefined;
          const record = { ...storedCardOf(form, platform, 'png'), ...fields };
          stored.set(key(user), [...(stored.get(key(user)) ?? []), record]);
          if (!answer) return undefined;
          reply.code(201);
          return JSON.stringify({ data: record });
        }
        if (answer0.method !== 'GET' || answer0.status === 401) return undefined;
        const extra = stored.get(key(user));
        if (!extra) return undefined;
        if (answer0.url === URL.cardList && answer0.status === 200 && Array.isArray(body?.data)) {
          if (queryOf(reply) !== '') return undefined;
          body.data.push(...extra);
          return JSON.stringify(body);
        }
        const hit = extra.find((record) => key(record.id) === key(paramsOf(reply).card));
        if (answer0.url === URL.cardOne && hit && answer0.status === 404) {
          reply.code(200);
          return JSON.stringify({ data: hit });
        }
        return undefined;
      },
    };
  });
}

const hasQuery = (reply: FastifyReply) => queryOf(reply) !== '';

const written: Mutant[] = [
  // --- balances: what only some draws of state `balances` expose ---
  // white-box round wb14
  { name: 'wb14-balances-crypto-amounts-cut-to-8-places', clause: '2.2', group: 'balances', description: 'sections 2.2/1.5 (precision "Decimal places"; "Monetary and crypto amounts are decimal strings (up to 25 fractional digits ...)"): every balance record, on every route, answers its crypto amounts cut to 8 fractional digits (a DECIMAL(36,8) column), while precision still says 18 for ETH and 9 for SOL', mutation: onRecords(BALANCE_ROUTES, cryptoAmounts(cutToEight)) },
  // white-box round wb14
  { name: 'wb14-balances-crypto-amounts-php-float-14-digits', clause: '2.2', group: 'balances', description: 'sections 2.2/1.5 (precision "Decimal places"; amounts "decimal strings (up to 25 fractional digits ...)"): every balance record answers a crypto amount of more than 14 significant digits rounded to 14 (a decimal column cast to float, PHP\u2019s (string) with precision=14)', mutation: onRecords(BALANCE_ROUTES, cryptoAmounts(phpFloat)) },
  // white-box round wb14
  { name: 'wb14-balances-eth-chain-joined-by-own-symbol', clause: '2.2', group: 'balances', description: 'section 2.2 (chain "{ name, symbol } (both null for a native coin)"): ETH, a native coin, is answered on every route with chain { name: "Ethereum", symbol: "ETH" } (the chain joined by COALESCE(chain_symbol, symbol): ETH is itself the chain its tokens live on)', mutation: onRecords(BALANCE_ROUTES, (record) => {
    if (record.symbol !== 'ETH' || record.chain?.name !== null || record.chain?.symbol !== null) return false;
    record.chain = { name: 'Ethereum', symbol: 'ETH' };
    return true;
  }) },
  // white-box round wb14
  { name: 'wb14-balances-nft-empty-description-as-array', clause: '2.2', group: 'balances', description: 'section 2.2 (description "object | Map from language code ... to text; may be an empty object"): an NFT without a description is answered, on every route, with description [] (PHP\u2019s json_encode of an empty array)', mutation: onRecords(BALANCE_ROUTES, (record) => {
    if (record.type !== 'nft' || !record.description || typeof record.description !== 'object' || Array.isArray(record.description) || Object.keys(record.description).length > 0) return false;
    record.description = [];
    return true;
  }) },
  // white-box round wb14
  { name: 'wb14-balances-coin-show-alias-null', clause: '4.9', group: 'balances', description: 'sections 4.9/2.2 ("200: { data: <Balance record> }"; alias "string or null"): the coin show answers alias null for every coin (its resource reads the alias from the chain table), while the list gives USDT and USDC their aliases', mutation: answered('GET /api/v1/user/{user}/balances/{asset}', 200, (body) => typeof body?.data?.alias === 'string' && ((body.data.alias = null), true)) },
  // white-box round wb14
  { name: 'wb14-balances-filtered-nft-list-quantity-one', clause: '4.6', group: 'balances', description: 'sections 4.6/2.2 ("Query: assets[] ... asset symbols to return"; quantity "NFT records carry a positive count"): the NFT list filtered by assets[] answers quantity 1 for every NFT (the filtered query counts rows instead of reading the held quantity)', mutation: onRecords([URL.nftList], (record) => record.quantity !== 1 && typeof record.quantity === 'number' && ((record.quantity = 1), true), hasQuery) },
  // white-box round wb14
  { name: 'wb14-balances-coin-show-token-precision-of-chain', clause: '4.9', group: 'balances', description: 'sections 4.9/2.2 ("200: { data: <Balance record> }"; precision "Decimal places"): the coin show answers a token\u2019s precision as its chain\u2019s native coin has it (USDT and USDC on Ethereum shown with 18, the list gives 6)', mutation: answered('GET /api/v1/user/{user}/balances/{asset}', 200, (body) => typeof body?.data?.chain?.symbol === 'string' && body.data.chain.symbol === 'ETH' && String(body.data.precision) !== '18' && ((body.data.precision = 18), true)) },
  // white-box round wb14
  { name: 'wb14-balances-filtered-coin-list-crypto-as-fiat', clause: '4.8', group: 'balances', description: 'sections 4.8/2.2 ("Query: assets[] ..."; amounts "{ crypto: <amount set>, fiat: <amount set> }"): the coin list filtered by assets[] answers each coin\u2019s fiat amounts as its crypto amounts (a column mix-up of the filtered query)', mutation: onRecords([URL.coinList], (record) => {
    const amounts = record.amounts;
    if (!amounts?.fiat || !amounts?.crypto || JSON.stringify(amounts.fiat) === JSON.stringify(amounts.crypto)) return false;
    amounts.crypto = { ...amounts.fiat };
    return true;
  }, hasQuery) },
  // white-box round wb14
  { name: 'wb14-balances-coin-list-drops-zero-available', clause: '4.8', group: 'balances', description: 'section 4.8 ("200: { data: { coins: [<Balance record>, ...] } }", the user\u2019s balances per asset): the unfiltered coin list leaves out every coin whose crypto available amount is 0 (a where available > 0 that hides dust), although the user holds it', mutation: {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== URL.coinList || answer.status !== 200 || hasQuery(reply)) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data?.coins)) return undefined;
      const kept = body.data.coins.filter((coin: any) => !/^0(\.0*)?$/.test(String(coin?.amounts?.crypto?.available)));
      if (kept.length === body.data.coins.length) return undefined;
      body.data.coins = kept;
      return JSON.stringify(body);
    },
  } },
  // white-box round wb14
  { name: 'wb14-balances-nft-show-properties-empty', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 ("200: { data: <Balance record> }"; properties "Items { type: string, value: string }"): the NFT show answers properties [] (the show never eager-loads them), while the list gives each NFT its properties', mutation: answered('GET /api/v1/user/{user}/balances/nft/{asset}', 200, (body) => Array.isArray(body?.data?.properties) && body.data.properties.length > 0 && ((body.data.properties = []), true)) },

  // --- banks ---
  // white-box round wb14
  { name: 'wb14-banks-three-decimal-currencies-refused', clause: '4.10', group: 'banks', description: 'section 4.10 (currency "alphanumeric, a valid ISO currency code"): a bank create in a currency of three minor digits (BHD, IQD, JOD, KWD, LYD, OMR, TND) is refused with 422 keyed by currency (a ledger of two decimal places)', mutation: refusedCreate(URL.bankList, URL.bankOne, 'bank', 'Bank', (request) => (typeof request.body?.currency === 'string' && THREE_MINOR_DIGITS.has(request.body.currency.toUpperCase()) ? { field: 'currency', text: 'The selected currency is not supported.' } : undefined)) },
  // white-box round wb14
  { name: 'wb14-banks-list-silent-page-of-20', clause: '4.10', group: 'banks', description: 'sections 4.10/8 ("List ... 200 { data: [<Bank>] }"; "pagination of list endpoints: not shown"): the bank list answers at most 20 banks and nothing that says it is a page (Spring Data\u2019s default Pageable of 20)', mutation: silentPage(URL.bankList, 20) },
  // white-box round wb14
  { name: 'wb14-banks-show-iban-masked', clause: '4.10', group: 'banks', description: 'sections 4.10/2.4 ("Show ... 200 { data: <Bank> }"; iban "string"): the bank show answers the iban masked but for its first and last four characters (a PCI-minded resource of the show only), while create and list answer it whole', mutation: answered('GET /api/v1/user/{user}/bank/{bank}', 200, (body) => {
    const iban = body?.data?.iban;
    if (typeof iban !== 'string' || iban.length <= 8) return false;
    body.data.iban = `${iban.slice(0, 4)}${'*'.repeat(iban.length - 8)}${iban.slice(-4)}`;
    return true;
  }) },
  // white-box round wb14
  { name: 'wb14-banks-refused-bank-name-stored-cut', clause: '7', group: 'banks', description: 'sections 7/4.10/8 ("422 | bank create | invalid field"; bankName "max 191"; a refusal stores nothing): a create refused for its bankName alone (over 191 characters) stores the bank with the name cut to 191, which later lists and shows hold', mutation: refusedBankNameStoredCut() },

  // --- cards ---
  // white-box round wb14
  { name: 'wb14-cards-list-silent-page-of-20', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 ("List ... 200 { data: [<Card>] }"; "pagination of list endpoints: not shown"): the card list answers at most 20 cards and nothing that says it is a page (Spring Data\u2019s default Pageable of 20)', mutation: silentPage(URL.cardList, 20) },
  // white-box round wb14
  { name: 'wb14-cards-create-from-pair-expiration-date-null', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 ("Create ... 201 { data: <Card> }"; expirationDate "Format m/y"): a card created from expirationMonth and expirationYear is answered with expirationDate null (the create\u2019s resource echoes the request\u2019s expirationDate), while list and show give m/y', mutation: {
    request: recordCardForm,
    wire(answer, reply) {
      if (answer.method !== 'POST' || answer.url !== URL.cardList || answer.status !== 201) return undefined;
      const form = cardFormOf(reply.request);
      if (!form || form.expirationDate !== undefined || form.expirationMonth === undefined || form.expirationYear === undefined) return undefined;
      const body = parse(answer.payload);
      if (typeof body?.data?.expirationDate !== 'string') return undefined;
      body.data.expirationDate = null;
      return JSON.stringify(body);
    },
  } },
  // white-box round wb14
  { name: 'wb14-cards-refused-holder-name-stored-cut', clause: '7', group: 'cards', description: 'sections 7/4.6a/8 ("422 | card create | invalid or missing field"; holderName "max 191"; a refusal stores nothing): a create refused for its holderName alone (over 191 characters) stores the card with the name cut to 191, which later lists and shows hold', mutation: cardStoredDespite((form, errors) => (errors.join() === 'holderName' && typeof form.holderName === 'string' && [...form.holderName].length > 191 ? { holderName: [...form.holderName].slice(0, 191).join('') } : undefined), false) },
  // white-box round wb14
  { name: 'wb14-cards-last-four-inner-space-accepted', clause: '4.6a', group: 'cards', description: 'sections 4.6a/8 (lastFourDigits "numeric, exactly 4 digits"): lastFourDigits with a space inside ("12 34", five characters) is accepted (201) and stored as 1234 (a card-number normaliser that strips spaces before the digits rule)', mutation: cardStoredDespite((form, errors) => (errors.join() === 'lastFourDigits' && typeof form.lastFourDigits === 'string' && /^\d[\d ]*\d$/.test(form.lastFourDigits) && /^\d{4}$/.test(form.lastFourDigits.replace(/ /g, '')) ? { lastFourDigits: form.lastFourDigits.replace(/ /g, '') } : undefined), true) },
  // white-box round wb14
  { name: 'wb14-cards-filtered-list-created-at-milliseconds', clause: '4.6a', group: 'cards', description: 'sections 4.6a/1.4 ("List ... 200 { data: [<Card>] }" under its filters; "Timestamps named createdAt ... are integers (Unix seconds)"): the card list under any filter answers createdAt in milliseconds', mutation: onRecords([URL.cardList], (record) => typeof record.createdAt === 'number' && record.createdAt < 1e11 && ((record.createdAt *= 1000), true), hasQuery) },

  // --- bonuses ---
  // white-box round wb14
  { name: 'wb14-bonuses-summary-asset-alias-null', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5b/2.3 (summary "asset: <asset summary>", alias "string or null"): the bonus summary, with and without {asset}, answers every asset\u2019s alias null (read from a table that keeps none), while the bonus list gives USDT its alias USDT-ERC20', mutation: answered(ROUTE.bonusSummary, 200, (body) => {
    let changed = false;
    for (const entry of Array.isArray(body?.data) ? body.data : []) if (typeof entry?.asset?.alias === 'string') { entry.asset.alias = null; changed = true; }
    return changed;
  }) },
  // white-box round wb14
  { name: 'wb14-bonuses-order-payment-amount-number', clause: '1', group: 'bonuses', description: 'sections 1.5/2.7 ("Monetary and crypto amounts are decimal strings ... A few summary amounts (bonus asset summary amount, total_supply) are JSON numbers"; payment amount): the bonus list and show answer each order\u2019s payment.amount as a JSON number (the payment provider\u2019s amount passed through as a float)', mutation: onRecords(BONUS_READS, (bonus) => {
    const payment = bonus?.order?.payment;
    if (typeof payment?.amount !== 'string') return false;
    payment.amount = Number(payment.amount);
    return true;
  }) },
  // white-box round wb14
  { name: 'wb14-bonuses-filtered-list-email-unmasked', clause: '4.11', group: 'bonuses', description: 'sections 2.6/4.11 (email "masked by the service (partially replaced with asterisks)"; list "query status ..., platform"): the bonus list under a status or platform filter answers the user\u2019s e-mail in clear (the filtered query\u2019s resource skips the mask)', mutation: filteredBonusEmailUnmasked() },
  // white-box round wb14
  { name: 'wb14-bonuses-show-by-order-id', clause: '4.11', group: 'bonuses', description: 'sections 4.11/1.6/7 ("{bonus} ... record IDs"; "404 | ... bonus show | no record found"): bonus show answers the id of one of the user\u2019s orders with the first bonus that order earned (a lookup where id = ? or order_id = ?)', mutation: bonusShowByOrderId() },
  // white-box round wb14
  { name: 'wb14-bonuses-summary-drops-asset-without-pending', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5b ("Asset summary ... 200 { data: [<Bonus asset summary>] }", an entry per asset with distributed, pending and canceled): the summary of all assets leaves out every asset the user has no pending bonus in (built from the pending aggregate\u2019s assets)', mutation: {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== URL.bonusSummary || answer.status !== 200 || paramsOf(reply).asset) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data)) return undefined;
      const kept = body.data.filter((entry: any) => !(entry?.pending?.bonuses === 0));
      if (kept.length === body.data.length) return undefined;
      body.data = kept;
      return JSON.stringify(body);
    },
  } },
  // white-box round wb14
  { name: 'wb14-bonuses-canceled-amount-zeroed', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5a/2.5b (bonus amount; summary canceled "{ bonuses, amount }"): the bonus list and show answer every canceled bonus\u2019s amount as "0" (the grant zeroed on cancel), while the summary still sums what was granted', mutation: onRecords(BONUS_READS, (bonus) => bonus?.status === 'canceled' && bonus.amount !== '0' && ((bonus.amount = '0'), true)) },

  // --- sessions ---
  // white-box round wb14
  { name: 'wb14-jwt-session-ttl-from-config-not-token', clause: '2.1', group: 'authentication', description: 'sections 2.1/5.2 (ttl "Lifetime in seconds"; "Its id is the bearer token, valid for ttl seconds, until until"): a JWT login answers ttl 86400 and until a day ahead (a configuration value the guard does not read), while its token lives the service\u2019s own session lifetime and dies long before until', mutation: jwtSessionTtlFromConfig() },
  // white-box round wb14
  { name: 'wb14-2fa-session-dies-after-step-up-window', clause: '5', group: 'authentication', description: `sections 5.2/5.3 ("Its id is the bearer token, valid for ttl seconds, until until"): the token of a login made with a 2FA code is refused (401) once ${STEP_UP_WINDOW_SECONDS} s have passed since the login (the 2FA step-up window taken as the session's expiry), while its Session answers the service\u2019s ttl and until`, mutation: twoFactorTokenDiesAfterWindow() },
  // white-box round wb14
  { name: 'wb14-2fa-session-ttl-string', clause: '2.1', group: 'authentication', description: 'section 2.1 ("ttl | integer | Lifetime in seconds"): a login made with a 2FA code answers ttl as a string of digits (the 2FA branch builds its Session from a cached row)', mutation: answered(ROUTE.login, 200, (body, request) => typeof request.body?.['2fa'] === 'string' && request.body['2fa'] !== '' && typeof body?.data?.ttl === 'number' && ((body.data.ttl = String(body.data.ttl)), true)) },
  // white-box round wb14
  { name: 'wb14-jwt-logout-status-boolean', clause: '4.5', group: 'authentication', description: 'sections 4.5/1.3 ("200: { status: string }"): logout of the token of a JWT login answers { status: true } (a boolean)', mutation: jwtLogoutStatusBoolean() },

  // --- password reset ---
  // white-box round wb14
  { name: 'wb14-reset-token-appended-characters-accepted', clause: '4.4', group: 'password', description: 'section 4.4 ("token | ... the token received by e-mail"; "422 when the token is invalid"): reset-password cuts the token sent to the 64 characters of its token column before the lookup, so the e-mailed token with characters appended resets the password', mutation: resetTokenCutToColumn() },
  // white-box round wb14
  { name: 'wb14-reset-second-reset-of-address-refused', clause: '4.4', group: 'password', description: 'sections 4.3/4.4 (forgot-password "Starts a password reset"; reset "Finishes a password reset ... 422 when the token is invalid"): after one successful reset of an address, every later reset of it is refused as an invalid token (the spent reset row kept and found again by firstOrCreate, the new token mailed but never stored)', mutation: secondResetRefused() },
  // white-box round wb14
  { name: 'wb14-reset-after-text-type-unwrapped', clause: '4.4', group: 'password', description: 'sections 4.4/1.3 ("200: { data: { message: string } }"): reset-password answers { message } without data to a reset of an address whose forgot-password was of type text (the code flow\u2019s controller returns its own answer)', mutation: resetOfTextTypeUnwrapped() },
];

/**
 * The open gaps of the round, each re-checked as a deviation under every reading and each proven to change an answer: a
 * throwaway script of inject calls (not kept) sent the same requests to the reference and to the mutant (a JWT login:
 * ttl 7200 and until two hours ahead against 86400 and a day ahead; a 2FA login's token on the bank list 301 s later,
 * Date.now moved on: 200 against 401; a reset with the e-mailed token and "00" appended: 422 against 200; forgot, reset,
 * forgot, reset of one address: 200, 200 against 200, 422; 21 banks and 21 cards created: lists of 21 against 20; a card
 * form with lastFourDigits "12 34": 422 against 201; a bonus list: payment.amount "425" against 1750; a bank create in
 * KWD: 201 against 422; a user holding ETH: chain null against Ethereum, the exact ETH amount of 18 places shown with 8
 * and with 9 (14 significant digits)).
 * Score of the round before fixes: 16 caught of 32. The batches killed 20 (the filtered e-mail mutant first cited 2.6,
 * which the schema checks that catch it do not cite: it cites 4.11 now and is killed alone with --no-hints, 21); the five
 * draw-dependent ones below that a batch or a run alone killed were seen to survive another run alone (or their catch
 * rests on a draw by construction), so they are open.
 *
 * Open (not observable by a client in a bounded run):
 * - wb14-2fa-session-dies-after-step-up-window: the token of a 2FA login is never used later than a few seconds after
 *   the login, and the short-session watch exists for a password and a JWT login only (state user.short-session takes no
 *   twoFactor). Not observable by a client in a bounded run (fix-wb14c): the token dies 300 s after its login, and no
 *   run of the suite uses a token that long after its login (a whole run against the reference takes about 40 s; a CI
 *   gate does not wait 5 minutes for one check). A twoFactor param of state user.short-session would not catch it
 *   either: a short session's token dies at its own ttl (2 to 5 s), long before the 300 s window, so the mutant and
 *   the reference answer alike there. Only a wait past the window could, which the suite does not make: kept open.
 *
 * Closed after the round (fix-wb14c, registered):
 * - wb14-bonuses-order-payment-amount-number: schemas/order.json left payment.amount untyped ("its type when set is not
 *   shown"), though section 1.5 makes every monetary amount a decimal string but the two summary amounts it names. Now
 *   `anyOf: [decimalString, null]` (docs/judging.md, "An order's payment amount is a decimal string or null"; the member
 *   tree compares it by value). Caught by: "answers 200 with the bonus asked for as a full record" and the list's
 *   "answers 200 with the user's bonuses as full records" (suites/bonuses.test.ts, schema bonus-response), every run:
 *   state bonuses gives a bonus in each status, and each but a canceled one has an order with a payment amount.
 * - wb14-jwt-session-ttl-from-config-not-token: the short-session watch of a JWT login skipped when the Session answered
 *   a ttl longer than the state promises. Now the token is used once all the same, 6.5 s after the login (the promise
 *   plus the 1.5 s margin), and a 401 while its own until is still ahead by the refusal's Date and the suite's clock
 *   fails (sections 2.1 and 5.2). Caught by: "issues a JWT-login token valid for ttl seconds, until until: ..." (and its
 *   password-login twin shares the judgement: judgeSessionLongerThanPromised, suites/authentication.test.ts).
 *
 * Closed after the round (fix-wb14b, registered): the data that exposes them is arranged by the states, not drawn. The
 * reference's state `balances` holds ETH (a native coin that is itself a chain, 18 places) and a token of it with an alias
 * and a precision of its own (USDT or USDC) on every call, with one to three other coins drawn, in a drawn order; it gives
 * every held coin's precision and exact crypto available amount in its new optional `amounts` (docs/provider-states.md,
 * schemas/states-file.json), each written with exactly its precision's places, a whole part from 1 and a last digit
 * other than 0, but one coin (not ETH, not the `amount` coin) with nothing available (0). State `bonuses` always grants
 * an asset with an alias (USDT). Each was killed on 3 runs of `node bin/mutants.mjs --shards 1 --mutant NAME`.
 * - wb14-balances-crypto-amounts-cut-to-8-places, wb14-balances-crypto-amounts-php-float-14-digits: caught by "shows
 *   each coin's precision and crypto available amount that provider state balances gives (its amounts), in the list and
 *   shown" (suites/balances.test.ts, expectStatedAmount on every entry of `amounts`: ETH's amount of 18 places and more
 *   than 14 significant digits is met on every run).
 * - wb14-balances-eth-chain-joined-by-own-symbol: caught by "answers chain name and symbol null for a native coin, in the
 *   list and shown" (suites/balances.test.ts), which now shows every native coin the state names, not the first; ETH is
 *   held on every run.
 * - wb14-balances-coin-show-alias-null, wb14-balances-coin-show-token-precision-of-chain: caught by "answers each held
 *   coin with the fields the coin list gives it (...)" (suites/balances.test.ts, shownAsListedCheck over every held coin;
 *   the precision also by the amounts test): a token with an alias and a precision of its own is held on every run.
 * - wb14-balances-coin-list-drops-zero-available: caught by "holds a held coin with nothing available (crypto available
 *   0), unfiltered, filtered by assets[] and shown" (new, suites/balances.test.ts; the `amounts` entry of 0 names the
 *   coin, a target without one gets it not verified) and by "answers 200 with { data: { coins: [records] } } holding every
 *   coin the user holds".
 * - wb14-bonuses-summary-asset-alias-null: caught by "answers each asset summary with the asset summary the bonus list
 *   gives its symbol, with and without {asset}" (suites/bonuses.test.ts): USDT is among the state's assets on every call,
 *   and the test reports not verified (with the reason, after the rest agreed) when no asset of the bonuses has an alias.
 *
 * Closed after the round (fix-wb14a, registered; each killed in 3 runs of 3 by `node bin/mutants.mjs --shards 1 --mutant NAME`):
 * - wb14-banks-three-decimal-currencies-refused: the currency row sent six fixed codes (none of three minor digits) and
 *   three drawn of 155 (the seven of three minor digits drawn about 13 runs in 100). Caught by: "answers 201 for currency
 *   codes of the ISO 4217 editions since 2015 (AED, ZMW, XOF, KPW, SSP, BTN, KWD, BHD and three drawn)"
 *   (suites/banks.test.ts): KWD and BHD, a class of minor units each, are in CURRENCIES_ALWAYS_SENT
 *   (helpers/arrange/currencies.ts), sent on every run.
 * - wb14-banks-list-silent-page-of-20, wb14-cards-list-silent-page-of-20: the past-a-page check made 16 records, fewer
 *   than Spring Data's 20. Caught by: "holds every record of a user who has 31, more than a common page, each once" (GET
 *   bank and GET card lists; helpers/arrange/invariants.ts, pastAPageCheck): PAST_A_PAGE is 31, past every common
 *   default page (Laravel 15, Spring Data and DRF 20, Kaminari 25, GitHub 30), created four at a time (small images, the
 *   banks deleted afterwards); a list that names its next page is read whole first (helpers/check/pages.ts: a paginator
 *   of three a page reads in 11 pages, under MAX_PAGES).
 * - wb14-cards-last-four-inner-space-accepted: no lastFourDigits row had white space inside. Caught by: "answers 422 for
 *   lastFourDigits of 4 digits with a space inside (12 34)" (suites/cards.test.ts, the create table; docs/judging.md
 *   "Normalisation before validation": outer white space stays open, inner is no digit, as for an iban or swift).
 * - wb14-reset-token-appended-characters-accepted: no reset-token row was made from the e-mailed token itself. Caught by:
 *   "answers 422 keyed by token for the e-mailed token with a character appended and with its last character removed,
 *   and the password stays unchanged" (suites/password.test.ts; the character appended is the token's own last one, so
 *   allowed-r7-reset-token-any-case stays conformant; a token of 72 bytes or more is not tried so, a bcrypt comparison
 *   not seeing its end: not verified, docs/judging.md "A reset token is the one e-mailed").
 * - wb14-reset-second-reset-of-address-refused: no test reset one address twice. Caught by: "answers 200 to a second
 *   reset of one address (forgot, reset, forgot, reset), and its new password logs in" (suites/password.test.ts): through
 *   a hook the test resets once, sends forgot-password again and asks state password-reset.token again (the latest
 *   e-mail's token: the contract already says so, docs/provider-states.md notes it); a states file gives the account
 *   with its first reset done (additive: `resetBefore`, the kind "disposable user with a reset token after a first
 *   reset", written by `states export`); not verified when the second forgot-password is throttled
 *   (allowed-r5-forgot-throttled).
 */
const OPEN = new Set<string>([
  'wb14-2fa-session-dies-after-step-up-window',
]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb14Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb14OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));
