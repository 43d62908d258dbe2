import { randomInt } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en'; // only the locale used: the package root loads every locale (about 35 MB per thread)
import type { FastifyRequest } from 'fastify';
import type { ReferenceContext, ReferenceModule } from '../context.js';
import { StateNotAllowed } from '../context.js';
import { ERRORS, fail } from '../errors.js';

/**
 * Sections 4.6 to 4.9 and 2.2: a user's balances per asset, coins and NFTs. Assets live in `assets`
 * (the platform's catalogue: coins are seeded once, NFTs are minted by the `balances` state), the
 * user's holdings in `balances` with the crypto and fiat amount sets of section 2.2 as decimal strings.
 */

const DDL = `
CREATE TABLE IF NOT EXISTS assets (
  symbol TEXT PRIMARY KEY COLLATE NOCASE,
  name TEXT NOT NULL,
  alias TEXT,
  type TEXT NOT NULL CHECK (type IN ('coin', 'nft')),
  precision_json TEXT NOT NULL,
  memo INTEGER NOT NULL,
  chain_name TEXT,
  chain_symbol TEXT,
  description_json TEXT NOT NULL,
  properties_json TEXT NOT NULL,
  meta_json TEXT NOT NULL,
  fiat_price TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS balances (
  user_id TEXT NOT NULL REFERENCES users(id),
  symbol TEXT NOT NULL COLLATE NOCASE REFERENCES assets(symbol),
  quantity INTEGER NOT NULL,
  favorite INTEGER NOT NULL,
  crypto_json TEXT NOT NULL,
  fiat_json TEXT NOT NULL,
  PRIMARY KEY (user_id, symbol)
);
`;

export const AMOUNT_FIELDS = ['available', 'vesting', 'staking', 'pending', 'payment', 'reserve'] as const;
type AmountSet = Record<(typeof AMOUNT_FIELDS)[number], string>;

interface CoinSeed {
  symbol: string;
  name: string;
  alias: string | null;
  precision: number | string;
  memo: boolean;
  chain: { name: string | null; symbol: string | null };
  genesis: string;
  totalSupply: number;
  website: string;
  github: string;
  price: string;
}

/** The platform's coin catalogue. Native coins have a null chain; tokens name the chain they live on. */
const COINS: readonly CoinSeed[] = [
  { symbol: 'BTC', name: 'Bitcoin', alias: null, precision: 8, memo: false, chain: { name: null, symbol: null }, genesis: '2009-01-03', totalSupply: 21000000, website: 'https://bitcoin.org', github: 'https://github.com/bitcoin/bitcoin', price: '61234.55' },
  { symbol: 'ETH', name: 'Ethereum', alias: null, precision: 18, memo: false, chain: { name: null, symbol: null }, genesis: '2015-07-30', totalSupply: 120280000.5, website: 'https://ethereum.org', github: 'https://github.com/ethereum/go-ethereum', price: '3012.40' },
  { symbol: 'USDT', name: 'Tether', alias: 'USDT-ERC20', precision: '6', memo: false, chain: { name: 'Ethereum', symbol: 'ETH' }, genesis: '2014-10-06', totalSupply: 110000000000, website: 'https://tether.to', github: 'https://github.com/tetherto', price: '1.00' },
  { symbol: 'XRP', name: 'XRP', alias: null, precision: 6, memo: true, chain: { name: null, symbol: null }, genesis: '2012-06-02', totalSupply: 99987000000, website: 'https://xrpl.org', github: 'https://github.com/XRPLF/rippled', price: '0.52' },
  { symbol: 'SOL', name: 'Solana', alias: null, precision: 9, memo: false, chain: { name: null, symbol: null }, genesis: '2020-03-16', totalSupply: 580000000, website: 'https://solana.com', github: 'https://github.com/solana-labs/solana', price: '145.10' },
  { symbol: 'USDC', name: 'USD Coin', alias: 'USDC-ERC20', precision: '6', memo: false, chain: { name: 'Ethereum', symbol: 'ETH' }, genesis: '2018-09-26', totalSupply: 33000000000, website: 'https://www.circle.com/usdc', github: 'https://github.com/centrehq', price: '1.00' },
  { symbol: 'DOGE', name: 'Dogecoin', alias: null, precision: 8, memo: false, chain: { name: null, symbol: null }, genesis: '2013-12-08', totalSupply: 144000000000, website: 'https://dogecoin.com', github: 'https://github.com/dogecoin/dogecoin', price: '0.12' },
];

/** Section 1.5: a decimal string with at most `digits` (≤ 25) fractional digits, or the bare `0`. */
function decimal(maxWhole: number, digits: number): string {
  if (randomInt(5) === 0) return '0';
  const whole = randomInt(maxWhole + 1);
  const places = Math.min(digits, 25);
  if (places === 0) return String(whole);
  const fraction = Array.from({ length: places }, () => randomInt(10)).join('');
  return `${whole}.${fraction}`;
}

/** Fiat value of a crypto amount at the asset's price, with 2 decimals (bare `0` for nothing). */
function fiatOf(amount: string, price: string): string {
  if (amount === '0') return '0';
  return (Number(amount) * Number(price)).toFixed(2);
}

function amountSets(precision: number, price: string, maxWhole: number): { crypto: AmountSet; fiat: AmountSet } {
  const crypto = Object.fromEntries(AMOUNT_FIELDS.map((field) => [field, decimal(field === 'available' ? maxWhole : Math.ceil(maxWhole / 10), precision)])) as AmountSet;
  const fiat = Object.fromEntries(AMOUNT_FIELDS.map((field) => [field, fiatOf(crypto[field], price)])) as AmountSet;
  return { crypto, fiat };
}

interface Row {
  symbol: string;
  name: string;
  alias: string | null;
  type: 'coin' | 'nft';
  precision_json: string;
  memo: number;
  chain_name: string | null;
  chain_symbol: string | null;
  description_json: string;
  properties_json: string;
  meta_json: string;
  quantity: number;
  favorite: number;
  crypto_json: string;
  fiat_json: string;
}

/** Section 2.2: one balance record. */
function record(row: Row) {
  return {
    name: row.name,
    symbol: row.symbol,
    alias: row.alias,
    type: row.type,
    precision: JSON.parse(row.precision_json) as number | string,
    quantity: row.quantity,
    memo: row.memo === 1,
    chain: { name: row.chain_name, symbol: row.chain_symbol },
    description: JSON.parse(row.description_json) as Record<string, string>,
    properties: JSON.parse(row.properties_json) as { type: string; value: string }[],
    meta: JSON.parse(row.meta_json) as Record<string, unknown>,
    favorite: row.favorite === 1,
    amounts: { crypto: JSON.parse(row.crypto_json) as AmountSet, fiat: JSON.parse(row.fiat_json) as AmountSet },
  };
}

const SELECT = `SELECT a.symbol, a.name, a.alias, a.type, a.precision_json, a.memo, a.chain_name, a.chain_symbol, a.description_json,
  a.properties_json, a.meta_json, b.quantity, b.favorite, b.crypto_json, b.fiat_json
  FROM balances b JOIN assets a ON a.symbol = b.symbol`;

/** The `assets[]` query (repeatable): fastify keeps the bracketed key; one value is a string, several an array. */
function assetsFilter(request: FastifyRequest): string[] | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const raw = query['assets[]'] ?? query.assets;
  if (raw === undefined) return undefined;
  const symbols = (Array.isArray(raw) ? raw : [raw]).filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  // An `assets[]` without any symbol filters nothing (the specification is silent on it).
  return symbols.length > 0 ? symbols : undefined;
}

function list(ctx: ReferenceContext, userId: string, type: 'coin' | 'nft', symbols: string[] | undefined) {
  // Deviations of mutants only: one list also holds the records of the other kind.
  // Or only when filtered by assets[]: the named symbols are returned whatever their kind.
  const mixed = ctx.deviates(type === 'nft' ? 'balances.nft-list-with-coins' : 'balances.coin-list-with-nfts') || (symbols !== undefined && ctx.deviates(type === 'nft' ? 'balances.filtered-nft-list-with-coins' : 'balances.filtered-coin-list-with-nfts'));
  const where = mixed ? ['b.user_id = ?'] : ['b.user_id = ?', 'a.type = ?'];
  const args: unknown[] = mixed ? [userId] : [userId, type];
  // Deviation of an allowed mutant only: assets[] naming an asset of the other kind is refused with 422 keyed by assets
  // (sections 4.6 and 4.8 are silent on it; a service validating each symbol against its own kind answers so).
  if (symbols && ctx.deviates('balances.filter-other-kind-422')) {
    const other = symbols.find((symbol) => ctx.db.prepare('SELECT 1 FROM assets WHERE symbol = ? AND type <> ?').get(symbol, type));
    if (other !== undefined) fail(ERRORS.validation({ assets: [`The selected asset ${other} is not ${type === 'coin' ? 'a coin' : 'an NFT'}.`] }));
  }
  // Allowed reading (reading round 8): assets[] naming a symbol the service does not know is refused with 422 keyed by assets.
  if (symbols && ctx.deviates('r8.unknown-asset-filter-422')) {
    const unknown = symbols.find((symbol) => !ctx.db.prepare('SELECT 1 FROM assets WHERE symbol = ?').get(symbol));
    if (unknown !== undefined) fail(ERRORS.validation({ assets: [`The selected asset ${unknown} is invalid.`] }));
  }
  if (symbols) {
    where.push(`a.symbol IN (${symbols.map(() => '?').join(', ')})`);
    args.push(...symbols);
  }
  const rows = ctx.db.prepare(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY b.favorite DESC, a.symbol`).all(...args) as Row[];
  // Allowed reading (reading round 1): the coin list shows every coin of the platform, those not held with zero amounts.
  if (type === 'coin' && ctx.deviates('balances.all-coins-zero-filled')) {
    const extra = symbols ? ` AND a.symbol IN (${symbols.map(() => '?').join(', ')})` : '';
    rows.push(...(ctx.db.prepare(`${ZERO_SELECT} AND a.symbol NOT IN (SELECT symbol FROM balances WHERE user_id = ?)${extra} ORDER BY a.symbol`).all(ZERO_SET, ZERO_SET, 'coin', userId, ...(symbols ?? [])) as Row[]));
  }
  return rows.map(record);
}

/** A coin of the catalogue as a balance the user does not hold: zero amounts (reading round 1). */
const ZERO_SET = JSON.stringify(Object.fromEntries(AMOUNT_FIELDS.map((field) => [field, '0'])));
const ZERO_SELECT = `SELECT a.symbol, a.name, a.alias, a.type, a.precision_json, a.memo, a.chain_name, a.chain_symbol, a.description_json,
  a.properties_json, a.meta_json, -1 AS quantity, 0 AS favorite, ? AS crypto_json, ? AS fiat_json FROM assets a WHERE a.type = ?`;

function show(ctx: ReferenceContext, userId: string, type: 'coin' | 'nft', symbol: string) {
  const row = ctx.deviates('balances.show-ignores-asset')
    ? (ctx.db.prepare(`${SELECT} WHERE b.user_id = ? AND a.type = ? ORDER BY a.symbol DESC LIMIT 1`).get(userId, type) as Row | undefined)
    : type === 'coin' && ctx.deviates('r5.coin-show-any-asset')
      ? // Allowed reading (round r5): balances/{asset} answers any asset the user holds, an NFT too.
        (ctx.db.prepare(`${SELECT} WHERE b.user_id = ? AND a.symbol = ?`).get(userId, symbol) as Row | undefined)
      : (ctx.db.prepare(`${SELECT} WHERE b.user_id = ? AND a.type = ? AND a.symbol = ?`).get(userId, type, symbol) as Row | undefined);
  // Allowed reading (reading round 1): a coin of the platform the user does not hold is shown with zero amounts.
  if (!row && type === 'coin' && ctx.deviates('balances.all-coins-zero-filled')) {
    const zero = ctx.db.prepare(`${ZERO_SELECT} AND a.symbol = ?`).get(ZERO_SET, ZERO_SET, 'coin', symbol) as Row | undefined;
    if (zero) return record(zero);
  }
  // Spec silent on a symbol the user does not hold: the reference answers 404 { message }.
  if (!row) fail(ERRORS.notFound(type === 'coin' ? 'Balance' : 'NftBalance', symbol));
  return record(row);
}

function seedCoins(ctx: ReferenceContext): void {
  const insert = ctx.db.prepare(
    `INSERT OR IGNORE INTO assets (symbol, name, alias, type, precision_json, memo, chain_name, chain_symbol, description_json, properties_json, meta_json, fiat_price)
     VALUES (?, ?, ?, 'coin', ?, ?, ?, ?, ?, '[]', ?, ?)`,
  );
  for (const coin of COINS) {
    const slug = coin.name.toLowerCase().replace(/\s+/g, '-');
    const meta = {
      image: `https://assets.reference.test/coins/${coin.symbol.toLowerCase()}.png`,
      url: `https://exchange.reference.test/assets/${coin.symbol.toLowerCase()}`,
      genesis_date: coin.genesis,
      links: { website: coin.website, github: coin.github, facebook: `https://www.facebook.com/${slug}`, twitter: `https://twitter.com/${slug}` },
      total_supply: coin.totalSupply,
    };
    const description = { en: `${coin.name} (${coin.symbol}) is a crypto-asset traded on the platform.` };
    insert.run(coin.symbol, coin.name, coin.alias, JSON.stringify(coin.precision), coin.memo ? 1 : 0, coin.chain.name, coin.chain.symbol, JSON.stringify(description), JSON.stringify(meta), coin.price);
  }
}

/** Mints one NFT asset (a collection item) and answers its symbol. */
function mintNft(ctx: ReferenceContext): string {
  const collection = faker.word.noun({ length: { min: 4, max: 8 } }).replace(/[^A-Za-z]/g, '') || 'item';
  let symbol = '';
  do symbol = `${collection.toUpperCase()}-${randomInt(100000, 1000000)}`;
  while (ctx.db.prepare('SELECT 1 FROM assets WHERE symbol = ?').get(symbol));
  const properties = [
    { type: 'Background', value: faker.color.human() },
    { type: 'Rarity', value: faker.helpers.arrayElement(['Common', 'Rare', 'Epic', 'Legendary']) },
  ];
  const meta = {
    image: `https://assets.reference.test/nft/${symbol.toLowerCase()}.png`,
    url: `https://exchange.reference.test/nft/${symbol.toLowerCase()}`,
    owner: faker.finance.ethereumAddress(),
    creator: faker.finance.ethereumAddress(),
  };
  const description = randomInt(4) === 0 ? {} : { en: faker.lorem.sentence() };
  ctx.db
    .prepare(
      `INSERT INTO assets (symbol, name, alias, type, precision_json, memo, chain_name, chain_symbol, description_json, properties_json, meta_json, fiat_price)
       VALUES (?, ?, NULL, 'nft', '"0"', 0, 'Ethereum', 'ETH', ?, ?, ?, ?)`,
    )
    .run(symbol, `${collection[0]!.toUpperCase()}${collection.slice(1)} #${symbol.split('-')[1]}`, JSON.stringify(description), JSON.stringify(properties), JSON.stringify(meta), `${randomInt(50, 5000)}.00`);
  return symbol;
}

/**
 * A decimal string with exactly `digits` fractional digits, the last one not 0 (so no shorter writing has the same value),
 * and a whole part from 1 (so an amount of many places has more significant digits than a float keeps: round wb14).
 */
function exactDecimal(maxWhole: number, digits: number): string {
  const whole = randomInt(1, maxWhole + 2);
  if (digits === 0) return String(whole);
  const fraction = [...Array.from({ length: digits - 1 }, () => randomInt(10)), randomInt(1, 10)].join('');
  return `${whole}.${fraction}`;
}

function hold(ctx: ReferenceContext, userId: string, symbol: string, quantity: number, precision: number, price: string, maxWhole: number, available?: string): void {
  const { crypto, fiat } = amountSets(precision, price, maxWhole);
  if (available !== undefined) {
    crypto.available = available;
    fiat.available = fiatOf(available, price);
  }
  ctx.db
    .prepare(
      `INSERT INTO balances (user_id, symbol, quantity, favorite, crypto_json, fiat_json) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(user_id, symbol) DO UPDATE SET quantity = excluded.quantity, crypto_json = excluded.crypto_json, fiat_json = excluded.fiat_json`,
    )
    .run(userId, symbol, quantity, randomInt(3) === 0 ? 1 : 0, JSON.stringify(crypto), JSON.stringify(fiat));
}

/**
 * One asset as its balance records show it (state balances' optional `assets`, round wb23): its chain, its meta.links
 * when its meta carries them (coins), and its description.
 */
function assetAsHeld(ctx: ReferenceContext, symbol: string) {
  const row = ctx.db.prepare('SELECT symbol, chain_name, chain_symbol, description_json, meta_json FROM assets WHERE symbol = ?').get(symbol) as Pick<Row, 'symbol' | 'chain_name' | 'chain_symbol' | 'description_json' | 'meta_json'>;
  const links = (JSON.parse(row.meta_json) as { links?: Record<string, string> }).links;
  return { symbol: row.symbol, chain: { name: row.chain_name, symbol: row.chain_symbol }, ...(links ? { links } : {}), description: JSON.parse(row.description_json) as Record<string, string> };
}

export const balances: ReferenceModule = {
  name: 'balances',
  ddl: DDL,
  deviations: ['r8.unknown-asset-filter-422', 'r5.balances-refuse-inactive', 'r5.coin-show-any-asset', 'balances.other-user-readable', 'balances.filter-ignored', 'balances.nft-filter-ignored', 'balances.filter-first-only', 'balances.show-ignores-asset', 'balances.nft-list-with-coins', 'balances.coin-list-with-nfts', 'balances.filtered-nft-list-with-coins', 'balances.filtered-coin-list-with-nfts', 'balances.filter-other-kind-422', 'balances.all-coins-zero-filled', 'wb1.balances-filter-per-symbol', 'wb1.balances-nft-filter-per-symbol'],

  register(app, ctx) {
    seedCoins(ctx);
    // Section 5.6 and 7: another user's balances answer 403 "This action is unauthorized."; inactive accounts may read.
    const preHandler = ctx.deviates('balances.other-user-readable')
      ? [ctx.guards.authenticated]
      : // Allowed reading (round r5): an inactive account is refused its balances too (403, the message of 5.6).
        [ctx.guards.authenticated, ctx.guards.ownUser({ unauthorizedStatus: 403, activeOnly: ctx.deviates('r5.balances-refuse-inactive') })];
    const pathUser = (request: FastifyRequest) => (request.params as { user: string }).user;
    const filterOf = (request: FastifyRequest, ignored: boolean) => {
      const symbols = assetsFilter(request);
      if (ignored) return undefined;
      return symbols && ctx.deviates('balances.filter-first-only') ? symbols.slice(0, 1) : symbols;
    };

    // Section 4.6: `{ data: [records] }`.
    app.get('/api/v1/user/:user/balances/nft', { preHandler }, async (request) => {
      const symbols = filterOf(request, ctx.deviates('balances.nft-filter-ignored'));
      // White-box round wb1, deviation of a mutant only: the filtered list built one requested symbol at a time (a repeated symbol listed twice).
      if (symbols && ctx.deviates('wb1.balances-nft-filter-per-symbol')) return { data: symbols.flatMap((symbol) => list(ctx, pathUser(request), 'nft', [symbol])) };
      return { data: list(ctx, pathUser(request), 'nft', symbols) };
    });

    // Section 4.7: `{ data: record }`.
    app.get('/api/v1/user/:user/balances/nft/:asset', { preHandler }, async (request) => {
      return { data: show(ctx, pathUser(request), 'nft', (request.params as { asset: string }).asset) };
    });

    // Section 4.8: `{ data: { coins: [records] } }`.
    app.get('/api/v1/user/:user/balances', { preHandler }, async (request) => {
      const symbols = filterOf(request, ctx.deviates('balances.filter-ignored'));
      // White-box round wb1, deviation of a mutant only: the filtered list built one requested symbol at a time (a repeated symbol listed twice).
      if (symbols && ctx.deviates('wb1.balances-filter-per-symbol')) return { data: { coins: symbols.flatMap((symbol) => list(ctx, pathUser(request), 'coin', [symbol])) } };
      return { data: { coins: list(ctx, pathUser(request), 'coin', symbols) } };
    });

    // Section 4.9: `{ data: record }`.
    app.get('/api/v1/user/:user/balances/:asset', { preHandler }, async (request) => {
      return { data: show(ctx, pathUser(request), 'coin', (request.params as { asset: string }).asset) };
    });
  },

  states(ctx) {
    return {
      // That user holds three to five coins and three NFTs (fresh amounts on every call).
      balances: (params) => {
        const userId = params.userId;
        if (typeof userId !== 'string' || !ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(userId)) throw new StateNotAllowed('state balances needs params.userId of an existing user');
        // Round wb14: what exposes a fault is arranged, not drawn. The user always holds ETH (a native coin that is itself a
        // chain, and the most decimal places of the catalogue: 18) and a token with an alias and a precision of its own
        // (USDT or USDC), and one to three other coins drawn from the rest (so the catalogue keeps coins not held), in a
        // drawn order.
        const token = faker.helpers.arrayElement(COINS.filter((c) => c.chain.symbol === 'ETH'));
        const always = [COINS.find((c) => c.symbol === 'ETH')!, token];
        const coins = faker.helpers.shuffle([...always, ...faker.helpers.arrayElements(COINS.filter((c) => !always.includes(c)), { min: 1, max: 3 })]);
        // `amount` (an optional field added for issue 19): one held coin's crypto available amount, with exactly its precision's decimal places.
        const exact = coins[0]!;
        // `amounts` (an optional field added for round wb14): every held coin's precision and crypto available amount. Each
        // is written with exactly its precision's places, the last not 0, but one held coin other than ETH and the `amount`
        // coin, which has nothing available (the bare 0), so a list that hides a held coin without a balance shows.
        const zero = faker.helpers.arrayElement(coins.filter((c) => c !== exact && c.symbol !== 'ETH'));
        const availableOf = new Map(coins.map((c) => [c, c === zero ? '0' : exactDecimal(c.symbol === 'BTC' ? 3 : 50000, Number(c.precision))]));
        const available = availableOf.get(exact)!;
        for (const coin of coins) hold(ctx, userId, coin.symbol, -1, Number(coin.precision), coin.price, coin.symbol === 'BTC' ? 3 : 50000, availableOf.get(coin));
        // Three NFTs, so that a filter on one or two symbols can leave one out.
        const nfts = Array.from({ length: 3 }, () => mintNft(ctx));
        for (const symbol of nfts) {
          const price = (ctx.db.prepare('SELECT fiat_price FROM assets WHERE symbol = ?').get(symbol) as { fiat_price: string }).fiat_price;
          hold(ctx, userId, symbol, randomInt(1, 6), 0, price, 5);
        }
        // `native` (an optional field added for issue 19): the held coins native to their chain (chain name and symbol null).
        return {
          coins: coins.map((c) => c.symbol),
          nfts,
          native: coins.filter((c) => c.chain.name === null && c.chain.symbol === null).map((c) => c.symbol),
          // `genesisDate` and `amount` (optional fields added for issue 19): the held coins whose meta carries genesis_date (every seeded coin), and the amount above.
          genesisDate: coins.map((c) => c.symbol),
          // `genesisDates` (optional, added for round wb22): each held coin's genesis date, the calendar day its meta writes.
          genesisDates: coins.map((c) => ({ symbol: c.symbol, date: c.genesis })),
          amount: { symbol: exact.symbol, precision: Number(exact.precision), available },
          amounts: coins.map((c) => ({ symbol: c.symbol, precision: Number(c.precision), available: availableOf.get(c)! })),
          // `assets` (optional, added for round wb23): what the records of every held coin and NFT hold, as the catalogue
          // keeps it: its chain, its meta.links (coins) and its description.
          assets: [...coins.map((c) => c.symbol), ...nfts].map((symbol) => assetAsHeld(ctx, symbol)),
        };
      },
    };
  },
};
