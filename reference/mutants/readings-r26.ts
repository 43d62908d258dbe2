import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { verifySync } from 'otplib';
import type { ReferenceContext } from '../context.js';
import type { WireAnswer } from '../mutation.js';
import { hashPassword } from '../modules/authentication.js';
import type { Mutant } from './types.js';
import { assetSummariesOf, digest, onAnswers, onParsedBody, only, ordersOf, recordsOf, reading, routeOf, onBalanceAnswers } from './reading.js';
import { AUTH, BALANCE_ROUTES, BONUS_ROUTES, CARD_ROUTES, COINS, RESET, SUMMARY } from './routes.js';

/**
 * Reading round 26 (issue 28, "fair to the readings nobody listed"): implementation choices the specification and the
 * provider-states contract leave open, each taken the other way from the reference, as teams would take them: hooks that
 * make German-speaking accounts, accounts opened a year ago, addresses on a QA mail subdomain, passwords with letters
 * beyond ASCII; a TOTP verifier that takes the current time step only (no network-delay step); reset tokens written
 * base64url (Django/Rails `urlsafe_base64`); NFT names of the collection alone, NFT aliases as collection slugs, descriptions in Markdown, versioned
 * image urls, coins listed by market rank, chain names carrying the token standard; anti-phishing masks keeping the ends,
 * pending bonuses worth nothing yet, a bonus type `fixed`, kebab-case operation names, order
 * public ids as a dated daily sequence, Stripe-like payment ids, CSS colour names, orders placed an hour before their
 * bonus, rejected orders' payment windows closed, widgets on a subdomain, fiat aliases as ISO codes; card image ids as
 * `sha256:` digests; a Vercel edge front's headers.
 * Read only from the specification (/work/shared/spec/interface.md), docs/provider-states.md, README.md and reference/;
 * written without reading the suite (suites/, helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a
 * reading of rounds 1 to 25, of the reviews, of the white-box rounds or of the groups' own `allowed-*` mutants (their 818
 * names, and the descriptions of the near ones, were read for that: r1's PHP escapes and r16's Cloudflare Alt-Svc, r9's
 * HTML descriptions, r15's user preferences, r14's `verified` status, r12/r13's public ids, r17's colour codes, r22's
 * reset token forms, r5's wider TOTP window). Each description quotes the text that leaves the point open. Readings
 * change requests, answers or the provider states' answers (and the records a state makes, as the target's own hook
 * would make them) only: no edit to reference/modules/.
 * Run against the suite: 25 of 25 conformant and registered, none refused (one refusal in the first run was the
 * reading's own fault, since fixed; see the note above `REFUSED`).
 */

/** The reference's context, as the first request a reading sees hands it (the wire rewrites read the store through it). */
let seen: ReferenceContext | undefined;
const keep = (_request: FastifyRequest, ctx?: ReferenceContext): void => {
  if (ctx) seen = ctx;
};

/** The account states whose answer carries `{ id, email, password }` (docs/provider-states.md, "The states"). */
const ACCOUNT_STATES = ['user', 'user.inactive', 'user.expired-token', 'user.short-session', 'user.brute-force', 'user.locked', 'user.throttled', 'user.forbidden'];
const DAY = 86_400;
const isAccount = (name: string, data: unknown): data is { id: string; email: string; password: string } =>
  ACCOUNT_STATES.includes(name) && !!data && typeof (data as any).id === 'string' && typeof (data as any).email === 'string';

/** CoinGecko's market-cap rank of the coins the reference lists (the others after them, by symbol). */
const MARKET_RANK = ['BTC', 'ETH', 'USDT', 'XRP', 'SOL', 'USDC', 'DOGE'];
/** The token standard of a chain's tokens, by the chain's symbol. */
const STANDARD: Readonly<Record<string, [coin: string, nft: string]>> = { ETH: ['ERC-20', 'ERC-721'], BNB: ['BEP-20', 'BEP-721'], TRX: ['TRC-20', 'TRC-721'], SOL: ['SPL', 'SPL'] };
/** CSS named colours (CSS Color 4), for the nearest-name reading. */
const CSS_COLOURS: ReadonlyArray<[string, number, number, number]> = [
  ['orangered', 255, 69, 0], ['chocolate', 210, 105, 30], ['darkorange', 255, 140, 0], ['firebrick', 178, 34, 34], ['crimson', 220, 20, 60],
  ['teal', 0, 128, 128], ['seagreen', 46, 139, 87], ['forestgreen', 34, 139, 34], ['navy', 0, 0, 128], ['royalblue', 65, 105, 225],
  ['steelblue', 70, 130, 180], ['rebeccapurple', 102, 51, 153], ['slategray', 112, 128, 144], ['goldenrod', 218, 165, 32], ['black', 0, 0, 0], ['white', 255, 255, 255],
];
function cssName(hex: string): string | undefined {
  const rgb = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!rgb) return undefined;
  const [r, g, b] = [1, 2, 3].map((i) => parseInt(rgb[i]!, 16)) as [number, number, number];
  let best: [string, number] = ['black', Infinity];
  for (const [name, cr, cg, cb] of CSS_COLOURS) {
    const distance = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
    if (distance < best[1]) best = [name, distance];
  }
  return best[0];
}

/** A Unix time's UTC date as YYYYMMDD. */
const dayOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10).replace(/-/g, '');
/** Decimal digits drawn from a text's digest (stable at every read). */
const digitsOf = (text: string, count: number): string => BigInt(`0x${digest(text).slice(0, 24)}`).toString().padStart(count, '0').slice(-count);
/** An order's public id as a dated daily sequence: `20261127-04718263`. */
const datedPublicId = (id: string, createdAt: number): string => `${dayOf(createdAt)}-${digitsOf(`public:${id}`, 8)}`;

/** A reset token written as 64 hex digits (32 bytes), as the reference writes it. */
const HEX_TOKEN = /^[0-9a-f]{64}$/;
/** The same 32 bytes written base64url (43 characters, no padding). */
const B64URL_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const readingsR26Written: Mutant[] = [
  // ---- Provider states (docs/provider-states.md): what the contract leaves to the target
  reading(
    'allowed-r26-state-accounts-german-speaking',
    'bonuses',
    '2.6',
    'the accounts the provider states make are German-speaking (`language` "de", so a bonus user shows `options.language: "de"`), as the hook of a team whose staging fixtures model its main market (Germany) makes them (docs/provider-states.md, `user`: "a new active account with no banks, cards or bonuses": its language is left to the target; 2.6: "options | object: language, theme, layout (strings)")',
    {
      state(name, data, ctx) {
        if (!isAccount(name, data)) return data;
        ctx.db.prepare("UPDATE users SET language = 'de' WHERE id = ?").run(data.id);
        return data;
      },
    },
    only('bonuses', 'authentication'),
  ),
  reading(
    'allowed-r26-state-accounts-opened-a-year-ago',
    'bonuses',
    '2.6',
    'the accounts the provider states make were opened a year before (their `createdAt` 365 days back), as a hook that replays a customer with a history does (docs/provider-states.md, `user`: "a new active account": new to the suite, its opening date left to the target; 2.6: "createdAt | integer")',
    {
      state(name, data, ctx) {
        if (!isAccount(name, data)) return data;
        ctx.db.prepare('UPDATE users SET created_at = created_at - ? WHERE id = ?').run(365 * DAY, data.id);
        return data;
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r26-state-addresses-on-qa-subdomain',
    'authentication',
    '4.2',
    'the accounts the provider states make have addresses on a QA mail subdomain (`name@qa.example.test` where the reference writes `name@example.test`), as a team whose staging mail goes to a catch-all subdomain makes them; addresses of a requested length or with a `+` tag are left as they are (docs/provider-states.md, `user`: "{ id, email, password }": the address\u2019s domain is left to the target; 4.2: "email | string | yes | valid e-mail")',
    {
      state(name, data, ctx) {
        if (!isAccount(name, data)) return data;
        const email = data.email;
        const at = email.lastIndexOf('@');
        if (at < 1 || email.length > 60 || email.includes('+') || email.slice(at + 1).startsWith('qa.')) return data;
        const moved = `${email.slice(0, at)}@qa.${email.slice(at + 1)}`;
        const changed = ctx.db.prepare('UPDATE users SET email = ? WHERE id = ?').run(moved, data.id).changes;
        if (changed !== 1) return data;
        // The hook makes the account with its address: what the state recorded under the address (a restriction, mail) follows it.
        ctx.db.prepare('UPDATE login_failures SET email = ? WHERE email = ?').run(moved, email);
        ctx.db.prepare('UPDATE outbox SET recipient = ? WHERE recipient = ?').run(moved, email);
        ctx.db.prepare('UPDATE password_reset_tokens SET email = ? WHERE email = ?').run(moved, email);
        return { ...(data as object), email: moved };
      },
    },
    only('authentication', 'password', 'bonuses'),
  ),
  reading(
    'allowed-r26-state-passwords-beyond-ascii',
    'authentication',
    '4.2',
    'the accounts the provider states make have passwords with letters beyond ASCII (the reference\u2019s password followed by `-Grüße-Ωmega`), as a hook whose password generator draws from Unicode letters, to prove clients send them as UTF-8 (docs/provider-states.md, `user`: "{ id, email, password }": the password\u2019s characters are left to the target; 4.2: "password | string | yes | min 8, max 191 characters")',
    {
      state(name, data, ctx) {
        if (!isAccount(name, data) || typeof data.password !== 'string') return data;
        const password = `${data.password}-Grüße-Ωmega`;
        const changed = ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(password), data.id).changes;
        return changed === 1 ? { ...(data as object), password } : data;
      },
    },
    only('authentication', 'password'),
  ),

  // ---- Authentication (4.2) and password reset (4.4)
  reading(
    'allowed-r26-2fa-current-time-step-only',
    'authentication',
    '4.2',
    'a login\u2019s 2FA code is taken for the current 30-second time step only (no step of tolerance for network delay: a code of the step before or after is wrong, 403), as a team whose TOTP verifier runs with a window of zero does (4.2: "2fa | string | no | exactly 6 digits"; 5.1: "optional 6-digit 2FA code": the verifier\u2019s window is not given; RFC 6238 5.2 recommends at most one step back, it does not require one; a wider window and no forward step were readings of rounds 5 and 23)',
    {
      request(request, ctx) {
        if (!ctx || request.method !== 'POST' || routeOf(request) !== AUTH) return;
        onParsedBody(request, (body) => {
          const code = body['2fa'];
          if (typeof code !== 'string' || !/^[0-9]{6}$/.test(code) || typeof body.email !== 'string') return;
          const row = ctx.db.prepare('SELECT totp_secret FROM users WHERE lower(email) = lower(?)').get(body.email.trim()) as { totp_secret: string | null } | undefined;
          const secret = row?.totp_secret;
          if (!secret) return;
          const epoch = Math.floor(ctx.now() / 1000);
          if (verifySync({ secret, token: code, epoch, epochTolerance: 0 }).valid) return;
          if (!verifySync({ secret, token: code, epoch, epochTolerance: 30 }).valid) return;
          for (let n = 0; n < 1_000_000; n++) {
            const wrong = String(n).padStart(6, '0');
            if (!verifySync({ secret, token: wrong, epoch, epochTolerance: 30 }).valid) {
              body['2fa'] = wrong;
              return;
            }
          }
        });
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r26-reset-tokens-base64url',
    'password',
    '4.4',
    'a reset token is written base64url (its 32 random bytes as 43 characters, `urlsafe_base64` as Rails and Django write them) where the reference writes 64 hex digits; the e-mail (the `password-reset.token` state) shows it so and reset-password reads it so (4.4: "token | string | yes | max 255; the token received by e-mail": its alphabet is not given; six digits, groups and any case were readings of rounds 7, 9 and 22)',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== RESET) return;
        onParsedBody(request, (body) => {
          if (typeof body.token === 'string' && B64URL_TOKEN.test(body.token)) {
            const bytes = Buffer.from(body.token, 'base64url');
            if (bytes.length === 32) body.token = bytes.toString('hex');
          }
        });
      },
      state(name, data) {
        if (name !== 'password-reset.token' || !data || typeof (data as any).token !== 'string' || !HEX_TOKEN.test((data as any).token)) return data;
        return { ...(data as object), token: Buffer.from((data as any).token, 'hex').toString('base64url') };
      },
    },
    only('password'),
  ),

  // ---- Balances (2.2)
  reading(
    'allowed-r26-nft-name-collection-only',
    'balances',
    '2.2',
    'an NFT\u2019s `name` is its collection\u2019s name alone (`Bonnet`, where the reference writes `Bonnet #654768`; the symbol still tells the item), as a wallet that shows NFTs under their collection names them (2.2: "name | string | Asset name": what an NFT\u2019s name holds is not given)',
    onAnswers(BALANCE_ROUTES, (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        if (record?.type !== 'nft' || typeof record.name !== 'string' || !/ #[0-9]+$/.test(record.name)) continue;
        record.name = record.name.replace(/ #[0-9]+$/, '');
        changed = true;
      }
      return changed;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r26-nft-alias-collection-slug',
    'balances',
    '2.2',
    'an NFT\u2019s `alias` is its collection\u2019s slug (`bonnet` for `Bonnet #654768`), as a team whose NFT table keys collections by their marketplace slug writes it; coins keep theirs (2.2: "alias | string or null |": the alias\u2019s meaning and form are not given; null aliases and lower-case symbols were readings of rounds 12 and 16)',
    onAnswers(BALANCE_ROUTES, (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        if (record?.type !== 'nft' || typeof record.name !== 'string') continue;
        const slug = record.name.replace(/ #[0-9]+$/, '').toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
        if (slug === '' || record.alias === slug) continue;
        record.alias = slug;
        changed = true;
      }
      return changed;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r26-description-markdown',
    'balances',
    '2.2',
    'a balance record\u2019s `description` texts are Markdown (the asset\u2019s name in bold, `**Bitcoin** (BTC) is ...`), as a team whose CMS stores descriptions in Markdown for its apps to render writes them (2.2: "description | object | Map from language code (for example en) to text": the text\u2019s markup is not given; HTML was a reading of round 9)',
    onBalanceAnswers(BALANCE_ROUTES, (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        const texts = record?.description;
        if (!texts || typeof texts !== 'object' || typeof record.name !== 'string' || record.name === '') continue;
        for (const [language, text] of Object.entries(texts)) {
          if (typeof text !== 'string' || !text.includes(record.name) || text.includes(`**${record.name}**`)) continue;
          texts[language] = text.replace(record.name, `**${record.name}**`);
          changed = true;
        }
      }
      return changed;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r26-meta-image-versioned-urls',
    'balances',
    '2.2',
    'a balance record\u2019s `meta.image` carries a version query for cache busting (`https://assets.reference.test/coins/btc.png?v=1f3a9c2e`), as a team whose CDN caches images for a year and versions their urls does (2.2: "meta ... Keys seen: image, url, owner, creator": the image\u2019s url form is not given; data URIs, relative paths, signed urls and IPFS were readings of rounds 4, 11, 14 and 16)',
    onAnswers(BALANCE_ROUTES, (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        const meta = record?.meta;
        if (!meta || typeof meta.image !== 'string' || meta.image.includes('?')) continue;
        meta.image = `${meta.image}?v=${digest(meta.image).slice(0, 8)}`;
        changed = true;
      }
      return changed;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r26-coin-list-by-market-rank',
    'balances',
    '4.8',
    'the coin list is ordered by the coins\u2019 market-cap rank (BTC, ETH, USDT, XRP, SOL, USDC, DOGE, then the others by symbol), favourites not first, as a team whose asset table carries CoinGecko\u2019s rank lists them (4.8: "200: { data: { coins: [<Balance record>, ...] } }": the order is not given; by name, by value, native first and by symbol were readings of rounds 3, 8, 17 and 19)',
    onAnswers([COINS], (body) => {
      const coins = body?.data?.coins;
      if (!Array.isArray(coins) || coins.length < 2) return false;
      const rank = (record: any): number => {
        const at = MARKET_RANK.indexOf(String(record?.symbol).toUpperCase());
        return at === -1 ? MARKET_RANK.length : at;
      };
      const sorted = [...coins].sort((a, b) => rank(a) - rank(b) || String(a?.symbol).localeCompare(String(b?.symbol)));
      if (sorted.every((record, index) => record === coins[index])) return false;
      body.data.coins = sorted;
      return true;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r26-chain-name-with-token-standard',
    'balances',
    '2.2',
    'the `chain.name` of a token names its standard beside the chain (`Ethereum (ERC-20)` for a coin, `Ethereum (ERC-721)` for an NFT), as a wallet that tells users which network and standard to deposit on writes it; native coins keep `null` (2.2: "chain | object | { name: string or null, symbol: string or null } (both null for a native coin)": the name\u2019s form is not given; chainlist names and slugs were readings of rounds 19 and 24)',
    onBalanceAnswers(BALANCE_ROUTES, (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        const chain = record?.chain;
        if (!chain || typeof chain.name !== 'string' || chain.name.includes('(')) continue;
        const standard = STANDARD[String(chain.symbol).toUpperCase()];
        if (!standard) continue;
        chain.name = `${chain.name} (${record.type === 'nft' ? standard[1] : standard[0]})`;
        changed = true;
      }
      return changed;
    }),
    only('balances'),
  ),

  // ---- Bonuses (2.5a, 2.5b, 2.6, 2.7)
  reading(
    'allowed-r26-anti-phishing-ends-shown',
    'bonuses',
    '2.6',
    'the bonus user\u2019s `antiPhishing` is masked keeping its first and last characters, one asterisk for each hidden one (`a**********9` for a 12-character code), as a team that lets users recognise their code by its ends writes it (2.6: "antiPhishing (string, masked)": the mask\u2019s form is not given; fully masked and the last two shown were readings of rounds 8 and 12)',
    {
      request: keep,
      ...onAnswers(BONUS_ROUTES, (body) => {
        const ctx = seen;
        if (!ctx) return false;
        let changed = false;
        for (const bonus of recordsOf(body)) {
          const guard = bonus?.user?.options?.guard;
          if (!guard || typeof guard.antiPhishing !== 'string' || typeof bonus.user.id !== 'string') continue;
          const row = ctx.db.prepare('SELECT anti_phishing FROM users WHERE id = ? COLLATE NOCASE').get(bonus.user.id) as { anti_phishing: string } | undefined;
          const code = row?.anti_phishing;
          if (!code || code.length < 4) continue;
          const written = `${code[0]}${'*'.repeat(code.length - 2)}${code[code.length - 1]}`;
          if (written !== guard.antiPhishing) {
            guard.antiPhishing = written;
            changed = true;
          }
        }
        return changed;
      }),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r26-pending-bonus-amount-zero',
    'bonuses',
    '2.5a',
    'a pending bonus is worth nothing yet: its `amount` is `"0"` until it is distributed (its `value` still says what it will be), and the summary\u2019s `pending.amount` is 0 with it, as a ledger that books a bonus only when it is paid writes it (2.5a: "amount | string", "value | string", "status | string | distributed, pending, canceled"; 2.5b: "pending: S ... S = { bonuses: integer, amount: number }": what a pending bonus\u2019s amount counts is not given; a canceled bonus at zero was a reading of round 11)',
    {
      wire(answer: WireAnswer) {
        if (answer.status !== 200) return undefined;
        if (BONUS_ROUTES.includes(answer.url)) {
          const body = JSON.parse(answer.payload);
          let changed = false;
          for (const bonus of recordsOf(body)) {
            if (bonus?.status === 'pending' && typeof bonus.amount === 'string' && bonus.amount !== '0') {
              bonus.amount = '0';
              changed = true;
            }
          }
          return changed ? JSON.stringify(body) : undefined;
        }
        if (answer.url === SUMMARY) {
          const body = JSON.parse(answer.payload);
          let changed = false;
          for (const entry of Array.isArray(body?.data) ? body.data : []) {
            if (entry?.pending && typeof entry.pending.amount === 'number' && entry.pending.amount !== 0) {
              entry.pending.amount = 0;
              changed = true;
            }
          }
          return changed ? JSON.stringify(body) : undefined;
        }
        return undefined;
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r26-bonus-type-fixed',
    'bonuses',
    '2.5a',
    'a bonus of a set amount has `type: "fixed"` (where the reference writes `amount`), as a team whose bonus rules are `fixed` or `percentage` names them (2.5a: "type | string | Value seen: amount"; 2: the full sets of values are not shown; a percentage type was a reading of round 10)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const bonus of recordsOf(body)) {
        if (bonus?.type === 'amount') {
          bonus.type = 'fixed';
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r26-order-operation-names-kebab-case',
    'bonuses',
    '2.7',
    'an order\u2019s `typeOperationName` is written in kebab case (`buy-with-fiat`), as a team whose enums serialise to URL-style slugs writes it (2.7: "typeOperationName | string (value seen: buy_with_fiat)"; 2: "Full set of allowed values of order type, typeOperation, typeOperationName and payment method: not shown")',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        if (typeof order.typeOperationName === 'string' && order.typeOperationName.includes('_')) {
          order.typeOperationName = order.typeOperationName.replace(/_/g, '-');
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r26-order-public-id-dated-sequence',
    'bonuses',
    '2.7',
    'an order\u2019s `publicId` is the day it was placed and a number (`20261127-04718263`), as an exchange that reads order references out on the phone writes them; `parentOrder`/`childOrder` name related orders so too (2.7: "publicId | string"; "parentOrder, childOrder | { id: string or null, publicId: string or null }": the form is not given; numbers, ULIDs, prefixes and the id were readings of rounds 12, 13, 19 and 20)',
    {
      request: keep,
      ...onAnswers(BONUS_ROUTES, (body) => {
        const ctx = seen;
        let changed = false;
        for (const order of ordersOf(body)) {
          if (typeof order.id === 'string' && typeof order.createdAt === 'number') {
            order.publicId = datedPublicId(order.id, order.createdAt);
            changed = true;
          }
          for (const related of [order.parentOrder, order.childOrder]) {
            if (!ctx || !related || typeof related.id !== 'string') continue;
            const row = ctx.db.prepare('SELECT created_at FROM bonus_orders WHERE id = ?').get(related.id) as { created_at: number } | undefined;
            if (row) related.publicId = datedPublicId(related.id, row.created_at);
          }
        }
        return changed;
      }),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r26-order-payment-id-prefixed',
    'bonuses',
    '2.7',
    'an order\u2019s `payment.id` is its payment provider\u2019s id, typed by a prefix (`pay_` and 24 characters), as a team on a Stripe-like provider stores it (2.7: "payment | object: method (value seen: bank), id, ...": the id\u2019s form is not given; a number was a reading of round 21)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        const payment = order.payment;
        if (!payment || payment.id === null || payment.id === undefined || String(payment.id).startsWith('pay_')) continue;
        payment.id = `pay_${digest(`payment:${String(payment.id)}`).slice(0, 24)}`;
        changed = true;
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r26-color-code-css-name',
    'bonuses',
    '2.7',
    'an order platform\u2019s `color_code` is a CSS colour name (`chocolate` for the reference\u2019s `#d9480f`, `royalblue` for `#1f6feb`: the nearest named colour), as a team whose design tokens name their colours writes it (2.7: "externalPlatform | object: id, code, name, color_code (string), urls": the colour\u2019s form is not given; hex forms, rgb() and ARGB were readings of rounds 17 to 24)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        const platform = order.externalPlatform;
        const name = platform && typeof platform.color_code === 'string' ? cssName(platform.color_code) : undefined;
        if (name) {
          platform.color_code = name;
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r26-order-placed-hour-before-bonus',
    'bonuses',
    '2.7',
    'an order was placed an hour before the reference writes it (its `createdAt`, and the `payment.lifeUntilAt` counted from it, 3600 s earlier), as a platform that grants a bonus when the order\u2019s payment window has run writes them (2.7: "createdAt | integer"; "lifeSeconds (integer), lifeUntilAt (integer)": when an order was placed, against its bonus, is not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        if (typeof order.createdAt !== 'number') continue;
        order.createdAt -= 3600;
        if (order.payment && typeof order.payment.lifeUntilAt === 'number') order.payment.lifeUntilAt -= 3600;
        changed = true;
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r26-rejected-order-payment-window-closed',
    'bonuses',
    '2.7',
    'a rejected order\u2019s payment window is closed: `payment.lifeSeconds` is 0 and `lifeUntilAt` the order\u2019s `createdAt`, as a payments team that ends the window when it refuses an order writes it (2.7: "lifeSeconds (integer), lifeUntilAt (integer)"; 3: "Order | status | REJECTED (seen)": what a rejected order\u2019s window shows is not given; the seconds remaining were a reading of round 14)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        const payment = order.payment;
        if (order.status !== 'REJECTED' || !payment || typeof order.createdAt !== 'number' || payment.lifeSeconds === 0) continue;
        payment.lifeSeconds = 0;
        payment.lifeUntilAt = order.createdAt;
        changed = true;
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r26-order-widget-on-subdomain',
    'bonuses',
    '2.7',
    'an order platform\u2019s `urls.widget` is a subdomain of its site (`https://widget.partner.widget.test`, where the reference writes `<website>/widget`), as a partner that serves its widget apart writes it (2.7: "urls = { website, widget }": the widget url\u2019s form is not given; null was a reading of round 15)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        const urls = order.externalPlatform?.urls;
        if (!urls || typeof urls.website !== 'string' || typeof urls.widget !== 'string') continue;
        let host: string;
        try {
          host = new URL(urls.website).host;
        } catch {
          continue;
        }
        const widget = `https://widget.${host}`;
        if (urls.widget !== widget) {
          urls.widget = widget;
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r26-fiat-alias-iso-code',
    'bonuses',
    '4.11',
    'a fiat asset summary\u2019s `alias` is its ISO 4217 code (`EUR`, where the reference writes `€`), in bonuses, orders and the summary alike, as a team whose aliases are machine codes writes it (2.3: "{ name, symbol, alias: string or null, type (values seen: coin, fiat), precision }": the alias\u2019s form is not given; null aliases were a reading of round 12)',
    {
      wire(answer: WireAnswer) {
        if (answer.status !== 200 || (!BONUS_ROUTES.includes(answer.url) && answer.url !== SUMMARY)) return undefined;
        const body = JSON.parse(answer.payload);
        let changed = false;
        for (const summary of assetSummariesOf(body)) {
          if (summary.type === 'fiat' && typeof summary.symbol === 'string' && typeof summary.alias === 'string' && summary.alias !== summary.symbol) {
            summary.alias = summary.symbol;
            changed = true;
          }
        }
        return changed ? JSON.stringify(body) : undefined;
      },
    },
    only('bonuses'),
  ),

  // ---- Cards (2.5)
  reading(
    'allowed-r26-card-image-ids-content-digests',
    'cards',
    '2.5',
    'a card\u2019s image ids are bare OCI-style digests of the stored images (`sha256:<64 hex>`, where the reference writes the storage path `card-images/<sha256>.png`), as a team whose object store is a content-addressed blob registry names them, with no path and no extension (2.5: "cardImage1 | string | Identifier of the stored first image", "cardImage2 | string | Identifier of the stored second image": the identifier\u2019s form is not given; UUIDs, paths, urls, file names, numbers and sides were readings of rounds 2 to 25)',
    {
      request: keep,
      ...onAnswers(CARD_ROUTES, (body) => {
        const ctx = seen;
        if (!ctx) return false;
        let changed = false;
        for (const card of recordsOf(body)) {
          for (const key of ['cardImage1', 'cardImage2']) {
            if (typeof card?.[key] !== 'string' || card[key].startsWith('sha256:')) continue;
            const row = ctx.db.prepare('SELECT bytes FROM card_images WHERE id = ?').get(card[key]) as { bytes: Uint8Array } | undefined;
            if (!row?.bytes) continue;
            card[key] = `sha256:${createHash('sha256').update(row.bytes).digest('hex')}`;
            changed = true;
          }
        }
        return changed;
      }),
    },
    only('cards'),
  ),

  // ---- Server-wide (1)
  reading(
    'allowed-r26-vercel-edge-headers',
    'banks',
    '1',
    'every answer passes a Vercel edge front (a Hono or Next.js route handler deployed there), which adds `x-vercel-id` (`fra1::iad1::<id>`), `x-vercel-cache: MISS` and `age: 0` (1.2: "Requests and responses are JSON. Clients send the headers Content-Type and Accept": which headers an answer carries besides is not given; Cloudflare, Envoy, Kong and AWS fronts were readings of rounds 16, 19, 20 and 21)',
    {
      wire(_answer: WireAnswer, reply: FastifyReply) {
        reply.header('x-vercel-id', `fra1::iad1::${randomBytes(3).toString('hex').slice(0, 5)}-${Date.now()}-${randomBytes(6).toString('hex')}`);
        reply.header('x-vercel-cache', 'MISS');
        reply.header('age', '0');
        return undefined;
      },
    },
    only('banks', 'authentication'),
  ),
];

/*
 * Run against the suite (branch readings-r26 off main at f72c965; `nice -n 19 node bin/mutants.mjs --shards 1` in two
 * batches of 13, then one rerun): 25 of 25 conformant, none refused.
 * - The first batch held allowed-r26-nft-name-with-token-number, conformant but dropped: the reference already names an
 *   NFT `<collection> #<number>` (mutants.mjs: "changed nothing when together with 4 other readings"); its opposite,
 *   nft-name-collection-only, and nft-alias-collection-slug took its place. A first inactive-user-status-suspended was
 *   dropped before any run: an inactive account's bonus list and show answer 403, so no bonus ever shows an inactive user.
 * - The first batch refused state-addresses-on-qa-subdomain: "POST /api/v1/authenticate answers 425 with { error } for
 *   an account restricted after brute-force detection" (sections 4.2, 5, 7, 8): "expected status 425, got 200". The
 *   fault was the reading's: the `user.throttled` state records its restriction under the account's address, and the
 *   reading moved the address after the state had made it, leaving the restriction behind (a target's hook makes the
 *   account with its address). Fixed (the restriction, the outbox and the reset tokens follow the address); rerun
 *   alone: conformant. Not a refusal of the suite.
 * What each reading changed (an in-process probe of the built reference through fastify inject, base against reading,
 * taken out of the commit; and mutants.mjs's own "changed nothing" detection, which flagged none of the 25):
 * - states: accounts’ language en -> de (bonus users show `options.language: "de"`); user createdAt 365 days back;
 *   addresses `@example.test` -> `@qa.example.test` (login, forgot and reset with it); state passwords with non-ASCII
 *   letters (logins send them);
 * - authentication: a 2FA code of the previous time step answered 403 where the reference answers 200 (the current
 *   step's code still 200); the 2FA reading ran twice conformant (the suite computes codes of the current step);
 * - password: `password-reset.token` answers 43 base64url characters where the reference answers 64 hex; the reset with
 *   it answers 200;
 * - balances: descriptions `**Ethereum** (ETH) is ...`; `meta.image` `...eth.png?v=<8 hex>`; the coin list by market
 *   rank (`ETH,USDT,DOGE` where the reference lists favourites first, then by symbol); `chain.name` `Ethereum (ERC-20)` /
 *   `(ERC-721)`; NFT names `Kinase` where the reference writes `Range #876200`; NFT aliases the collection slug;
 * - bonuses: anti-phishing `c**********c` where the reference writes `cc**********`; pending bonus amounts `"0"` and
 *   the summary’s pending amount 0; bonus type `fixed`; `buy-with-fiat`; publicId `20261127-04718263` where the
 *   reference writes `ORD-IQXV9RDBY9`; payment id `pay_...`; color_code `chocolate` for `#d9480f`; orders
 *   3600 s earlier than their bonus (the reference: 30 s); a rejected order’s lifeSeconds 0 (reference 3600); widget
 *   `https://widget.exchange.reference.test`; fiat aliases `EUR`/`USD` where the reference writes `€`/`$`;
 * - cards: image ids `sha256:<hex>` where the reference writes `card-images/<sha256>.png`;
 * - server-wide: `x-vercel-id`, `x-vercel-cache`, `age` on every answer (bank lists and logins looked at).
 */
const REFUSED = new Set<string>([]);

/** The readings of round 26 the suite refused (kept out of MUTANTS; see the note above `REFUSED`). */
export const readingsR26Refused: Mutant[] = readingsR26Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 26 (registered in index.ts): each must stay conformant. */
export const readingsR26Mutants: Mutant[] = readingsR26Written.filter((mutant) => !REFUSED.has(mutant.name));
