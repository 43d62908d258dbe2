import type { Mutant } from './types.js';
import { fastifyPath, type Mutation } from '../mutation.js';
import { authenticationSkipped } from './make.js';
import { parse, recordsOf } from './reading.js';

const NFT_LIST = 'GET /api/v1/user/{user}/balances/nft';
const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';
const COIN_LIST = 'GET /api/v1/user/{user}/balances';
const COIN_SHOW = 'GET /api/v1/user/{user}/balances/{asset}';

type AmountSet = Record<string, unknown>;
type BalanceRecord = { quantity?: unknown; chain?: unknown; meta?: Record<string, unknown>; amounts: { crypto: AmountSet; fiat: AmountSet } };

/** A decimal string with `units` of its `scale`-th fractional digit added (`'1.5'`, 3 units of 1e-8: `'1.50000003'`). */
function plusUnits(amount: string, units: number, scale: number): string | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) return undefined;
  const digits = Math.max(scale, match[2]?.length ?? 0);
  const scaled = BigInt(match[1]! + (match[2] ?? '').padEnd(digits, '0')) + BigInt(units) * 10n ** BigInt(digits - scale);
  const text = scaled.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * Staking rewards that accrue as they are read (a ledger that credits each block, here each answer): every answer that
 * holds a user's asset (a list, filtered or not, or a show) shows its crypto `staking` one unit of 1e-8 higher than the
 * answer before it.
 */
function stakingAccruesPerRead(): Mutation {
  const reads = new Map<string, number>();
  const routes = [NFT_LIST, NFT_SHOW, COIN_LIST, COIN_SHOW].map((route) => fastifyPath(route.split(' ')[1]!));
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || !routes.includes(answer.url)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      const user = String((reply.request.params as Record<string, unknown> | undefined)?.user ?? '').toLowerCase();
      for (const record of recordsOf(body)) {
        const staking = record?.amounts?.crypto?.staking;
        if (typeof staking !== 'string' || typeof record?.symbol !== 'string') continue;
        const key = `${user} ${record.symbol}`;
        const n = (reads.get(key) ?? 0) + 1;
        reads.set(key, n);
        const more = plusUnits(staking, n, 8);
        if (more !== undefined) record.amounts.crypto.staking = more;
      }
      return JSON.stringify(body);
    },
  };
}

/** Mutants of the balances group (sections 4.6 to 4.9, the record of 2.2, amounts of 1.5, access of 5 and 7). */
export const balancesMutants: Mutant[] = [
  {
    name: 'balances-other-user-readable',
    clause: '5',
    group: 'balances',
    description: 'another user\u2019s balances are served instead of refused with "This action is unauthorized."',
    mutation: { deviation: 'balances.other-user-readable' },
  },
  {
    name: 'balances-coin-filter-ignored',
    clause: '4.8',
    group: 'balances',
    description: 'the coin list ignores assets[] and answers every held coin',
    mutation: { deviation: 'balances.filter-ignored' },
  },
  {
    name: 'balances-nft-filter-ignored',
    clause: '4.6',
    group: 'balances',
    description: 'the NFT list ignores assets[] and answers every held NFT',
    mutation: { deviation: 'balances.nft-filter-ignored' },
  },
  {
    name: 'balances-filter-first-symbol-only',
    clause: '4.8',
    group: 'balances',
    description: 'a repeated assets[] keeps only its first symbol',
    mutation: { deviation: 'balances.filter-first-only' },
  },
  {
    name: 'balances-show-ignores-asset',
    clause: '4.9',
    group: 'balances',
    description: 'show answers one of the user\u2019s balances whatever {asset} names',
    mutation: { deviation: 'balances.show-ignores-asset' },
  },
  {
    name: 'balances-coin-list-flat-envelope',
    clause: '4.8',
    group: 'balances',
    description: 'the coin list answers { data: [records] } instead of { data: { coins: [records] } }',
    mutation: { transform: { route: COIN_LIST, status: 200, apply: (body: { data: { coins: unknown[] } }) => ({ body: { data: body.data.coins } }) } },
  },
  {
    name: 'balances-nft-list-keyed-envelope',
    clause: '4.6',
    group: 'balances',
    description: 'the NFT list answers { data: { nfts: [records] } } instead of { data: [records] }',
    mutation: { transform: { route: NFT_LIST, status: 200, apply: (body: { data: unknown[] }) => ({ body: { data: { nfts: body.data } } }) } },
  },
  {
    name: 'balances-coin-show-unwrapped',
    clause: '4.9',
    group: 'balances',
    description: 'coin show answers the bare record instead of { data: record }',
    mutation: { transform: { route: COIN_SHOW, status: 200, apply: (body: { data: unknown }) => ({ body: body.data }) } },
  },
  {
    name: 'balances-amount-as-number',
    clause: '2.2',
    group: 'balances',
    description: 'the crypto available amount of coin records is a JSON number, not a decimal string',
    mutation: {
      transform: {
        route: COIN_LIST,
        status: 200,
        apply(body: { data: { coins: BalanceRecord[] } }) {
          for (const coin of body.data.coins) coin.amounts.crypto.available = Number(coin.amounts.crypto.available);
        },
      },
    },
  },
  {
    name: 'balances-amount-26-fraction-digits',
    clause: '1',
    group: 'balances',
    description: 'the fiat reserve amount of an NFT record carries 26 fractional digits (section 1.5 allows 25)',
    mutation: {
      transform: {
        route: NFT_SHOW,
        status: 200,
        apply(body: { data: BalanceRecord }) {
          body.data.amounts.fiat.reserve = `1.${'0'.repeat(25)}1`;
        },
      },
    },
  },
  {
    name: 'balances-nft-quantity-missing',
    clause: '2.2',
    group: 'balances',
    description: 'NFT list records lack quantity',
    mutation: {
      transform: {
        route: NFT_LIST,
        status: 200,
        apply(body: { data: BalanceRecord[] }) {
          for (const nft of body.data) delete nft.quantity;
        },
      },
    },
  },
  {
    name: 'balances-chain-not-object',
    clause: '2.2',
    group: 'balances',
    description: 'chain of an NFT record is the chain symbol string instead of { name, symbol }',
    mutation: {
      transform: {
        route: NFT_SHOW,
        status: 200,
        apply(body: { data: BalanceRecord }) {
          body.data.chain = (body.data.chain as { symbol: string | null }).symbol ?? 'ETH';
        },
      },
    },
  },
  {
    name: 'balances-total-supply-string',
    clause: '2.2',
    group: 'balances',
    description: 'meta.total_supply of a coin record is a string instead of a JSON number',
    mutation: {
      transform: {
        route: COIN_SHOW,
        status: 200,
        apply(body: { data: BalanceRecord }) {
          const meta = body.data.meta ?? {};
          meta.total_supply = String(meta.total_supply ?? 21000000);
          body.data.meta = meta;
        },
      },
    },
  },
  {
    name: 'balances-unauthorized-wrong-message',
    clause: '5',
    group: 'balances',
    description: 'another user\u2019s coin list is refused with 403 and the message "Forbidden." instead of "This action is unauthorized."',
    mutation: { transform: { route: COIN_LIST, status: 403, apply: () => ({ body: { message: 'Forbidden.' } }) } },
  },
  {
    name: 'balances-401-message-format',
    clause: '7',
    group: 'balances',
    description: 'the NFT show answers 401 with { message } instead of { error }',
    mutation: { transform: { route: NFT_SHOW, status: 401, apply: () => ({ body: { message: 'Unauthenticated.' } }) } },
  },
  // Allowed readings: must survive.
  {
    name: 'allowed-balances-links-partial',
    clause: '2.2',
    group: 'balances',
    description: 'coin records\u2019 meta.links carry only website and github (2.2 lists the four keys as "keys seen")',
    mutation: {
      transform: {
        route: COIN_LIST,
        status: 200,
        apply(body: { data: { coins: BalanceRecord[] } }) {
          for (const coin of body.data.coins) {
            const links = coin.meta?.links as Record<string, unknown> | undefined;
            if (links) (delete links.facebook, delete links.twitter);
          }
        },
      },
    },
    allowed: true,
  },
  {
    name: 'allowed-content-type-required-on-every-request',
    clause: '1',
    group: 'balances',
    description: 'every request without Content-Type: application/json (also a GET) is refused with 415 (section 1.2: clients send it)',
    mutation: { deviation: 'http.content-type-required' },
    allowed: true,
    // Server-wide: every group's happy paths (each endpoint's cites clause 1), the reads and deletes without a body among them.
    judgedBy: { groups: 'all', clauses: ['1'] },
  },
  // Authentication per route (sections 5.3 and 7): each list and show checks the token.
  authenticationSkipped('balances-nft-list-unauthenticated', 'balances', NFT_LIST, 200, { data: [] }, 'the NFT list'),
  authenticationSkipped('balances-coin-list-unauthenticated', 'balances', COIN_LIST, 200, { data: { coins: [] } }, 'the coin list'),
  authenticationSkipped('balances-coin-show-unauthenticated', 'balances', COIN_SHOW, 404, { message: 'No query results.' }, 'the coin show'),
  // Issue 19: rules checked only in part before.
  {
    name: 'balances-nft-list-holds-coins',
    clause: '4.6',
    group: 'balances',
    description: 'the NFT list also holds the user\u2019s coin balances',
    mutation: { deviation: 'balances.nft-list-with-coins' },
  },
  {
    name: 'balances-coin-list-holds-nfts',
    clause: '4.8',
    group: 'balances',
    description: 'the coin list also holds the user\u2019s NFT balances',
    mutation: { deviation: 'balances.coin-list-with-nfts' },
  },
  {
    name: 'balances-filtered-nft-list-holds-coins',
    clause: '4.6',
    group: 'balances',
    description: 'the NFT list filtered by assets[] naming a coin and an NFT the user holds also answers the coin',
    mutation: { deviation: 'balances.filtered-nft-list-with-coins' },
  },
  {
    name: 'balances-filtered-coin-list-holds-nfts',
    clause: '4.8',
    group: 'balances',
    description: 'the coin list filtered by assets[] naming a coin and an NFT the user holds also answers the NFT',
    mutation: { deviation: 'balances.filtered-coin-list-with-nfts' },
  },
  // Sections 4.6 and 4.8 do not say what assets[] naming an asset of the other kind gets: a service that checks each symbol
  // against the list's kind refuses it (as the suite allows for a symbol it does not know, answered as the spec is silent).
  {
    name: 'allowed-balances-filter-other-kind-422',
    clause: '4.8',
    group: 'balances',
    description: 'assets[] naming an asset of the other kind (an NFT on the coin list, a coin on the NFT list) is refused with 422 keyed by assets',
    mutation: { deviation: 'balances.filter-other-kind-422' },
    allowed: true,
  },
  {
    name: 'balances-native-coin-chain-named',
    clause: '2.2',
    group: 'balances',
    description: 'the coin list names a native coin\u2019s own name and symbol as its chain instead of null',
    mutation: {
      transform: {
        route: 'GET /api/v1/user/{user}/balances',
        status: 200,
        apply(body) {
          for (const coin of body.data.coins) if (coin.chain?.name === null) coin.chain = { name: coin.name, symbol: coin.symbol };
        },
      },
    },
  },
  {
    // A real fault: amounts formatted for display (two decimals) in the API.
    name: 'balances-crypto-amounts-two-decimal-places',
    clause: '2.2',
    group: 'balances',
    description: 'coin show cuts every crypto amount to two decimal places, whatever the coin\u2019s precision',
    mutation: {
      transform: {
        route: COIN_SHOW,
        status: 200,
        apply(body: { data: BalanceRecord }) {
          for (const [field, value] of Object.entries(body.data.amounts.crypto)) body.data.amounts.crypto[field] = String(value).replace(/^(\d+\.\d{2})\d+$/, '$1');
        },
      },
    },
  },
  {
    // A real fault: the precision of the fiat column (two places) written for the coin.
    name: 'balances-precision-of-fiat',
    clause: '2.2',
    group: 'balances',
    description: 'coin show writes every coin\u2019s precision as 2, the decimal places of its fiat amounts, whatever its own',
    mutation: {
      transform: {
        route: COIN_SHOW,
        status: 200,
        apply(body: { data: BalanceRecord & { precision?: unknown } }) {
          body.data.precision = 2;
        },
      },
    },
  },
  {
    // A real fault: a MySQL zero date for a date that is not known.
    name: 'balances-genesis-date-zero-date',
    clause: '2.2',
    group: 'balances',
    description: 'the coin list writes every coin\u2019s meta.genesis_date as the zero date 0000-00-00',
    mutation: {
      transform: {
        route: COIN_LIST,
        status: 200,
        apply(body: { data: { coins: BalanceRecord[] } }) {
          for (const coin of body.data.coins) if (coin.meta && 'genesis_date' in coin.meta) coin.meta.genesis_date = '0000-00-00';
        },
      },
    },
  },
  // Allowed reading: must survive.
  {
    name: 'allowed-balances-amounts-padded-and-precision-as-string',
    clause: '2.2',
    group: 'balances',
    description: 'coin show writes every crypto amount with 25 fractional digits (trailing zeros past the precision) and precision as a numeric string',
    mutation: {
      transform: {
        route: COIN_SHOW,
        status: 200,
        apply(body: { data: BalanceRecord & { precision?: unknown } }) {
          body.data.precision = String(body.data.precision);
          for (const [field, value] of Object.entries(body.data.amounts.crypto)) {
            const [whole, fraction = ''] = String(value).split('.');
            body.data.amounts.crypto[field] = `${whole}.${fraction.padEnd(25, '0')}`;
          }
        },
      },
    },
    allowed: true,
  },
  // Allowed reading (round r13's two number writings, review of 0e833b8): the coin show alone writes them, so that the show
  // differs from the list in writing only, and the precision check meets "8.00" on every run.
  {
    name: 'allowed-balances-show-precision-decimal-column-amounts-without-leading-zero',
    clause: '2.2',
    group: 'balances',
    description: 'coin show writes precision as a DECIMAL column reads back ("8.00") and each crypto amount below one without its integer digit (".5", Java\u2019s DecimalFormat); the list writes them as before (2.2 "integer or numeric string"; 1.5 "decimal strings": the same values)',
    mutation: {
      transform: {
        route: COIN_SHOW,
        status: 200,
        apply(body: { data: BalanceRecord & { precision?: unknown } }) {
          if (/^\d+$/.test(String(body.data.precision))) body.data.precision = `${body.data.precision}.00`;
          for (const [field, value] of Object.entries(body.data.amounts.crypto)) if (/^0\.\d+$/.test(String(value))) body.data.amounts.crypto[field] = String(value).slice(1);
        },
      },
    },
    allowed: true,
  },
  {
    name: 'allowed-balances-genesis-date-other-writings',
    clause: '2.2',
    group: 'balances',
    description: 'coin records write meta.genesis_date as "3 January 2009" or, every other coin, "Sat, 03 Jan 2009 00:00:00 GMT" (date strings in other writings than ISO 8601)',
    mutation: {
      transform: {
        route: COIN_LIST,
        status: 200,
        apply(body: { data: { coins: BalanceRecord[] } }) {
          const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
          body.data.coins.forEach((coin, i) => {
            const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(coin.meta?.genesis_date));
            if (!match || !coin.meta) return;
            coin.meta.genesis_date = i % 2 === 0 ? `${Number(match[3])} ${months[Number(match[2]) - 1]} ${match[1]}` : new Date(`${match[0]}T00:00:00Z`).toUTCString();
          });
        },
      },
    },
    allowed: true,
  },
  // Issue 27: each asset of a list once (helpers/arrange/invariants.ts, listInvariantChecks).
  {
    name: 'balances-coin-list-last-twice',
    clause: '4.8',
    group: 'balances',
    description: 'the coin list shows its last coin twice (a join gone wrong)',
    mutation: { transform: { route: COIN_LIST, status: 200, apply: (body: { data: { coins: unknown[] } }) => ({ body: { data: { ...body.data, coins: body.data.coins.length ? [...body.data.coins, body.data.coins.at(-1)] : body.data.coins } } }) } },
  },
  {
    name: 'balances-nft-list-last-twice',
    clause: '4.6',
    group: 'balances',
    description: 'the NFT list shows its last NFT twice (a join gone wrong)',
    mutation: { transform: { route: NFT_LIST, status: 200, apply: (body: { data: unknown[] }) => ({ body: { data: body.data.length ? [...body.data, body.data.at(-1)] : body.data } }) } },
  },
  // Section 5.3 on every protected endpoint.
  {
    name: 'auth-any-scheme-accepted',
    clause: '5',
    group: 'balances',
    description: 'a valid access token sent with another Authorization scheme (Basic) authenticates protected endpoints',
    mutation: { deviation: 'auth.any-scheme-accepted' },
  },
  // Section 2.2 gives amounts and does not hold them still: a balance may change between two reads a moment apart.
  {
    name: 'allowed-balances-staking-accrues-between-reads',
    clause: '2.2',
    group: 'balances',
    description: 'a held asset\u2019s crypto staking amount grows by 1e-8 with every answer that holds it (rewards credited as they accrue), so a list, a filtered list and a show a moment apart each give another staking amount',
    mutation: stakingAccruesPerRead(),
    allowed: true,
    judgedBy: { groups: ['balances'], clauses: 'all' },
  },
];
