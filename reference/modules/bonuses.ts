import { latestTokenOfAnotherUser } from '../tokens.js';
import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en'; // only the locale used: the package root loads every locale (about 35 MB per thread)
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest, ReferenceContext, ReferenceModule, UserRow } from '../context.js';
import { StateNotAllowed } from '../context.js';
import { ERRORS, fail } from '../errors.js';

/**
 * Section 4.11: a user's bonuses (list, show) and the per-asset bonus summary, with the records of
 * sections 2.3 (asset summary), 2.5a (bonus), 2.5b (bonus asset summary), 2.6 (user) and 2.7 (order).
 *
 * Data model: every bonus belongs to a user and to the order that earned it; the order belongs to a
 * platform (the `platforms` table of the authentication module) and converts a fiat asset into the
 * bonus's coin. Assets live in `bonus_assets` (symbol, name, alias, type, precision).
 *
 * Choices where the specification is silent (documented, and only advised on by the suite):
 * - `platform` filter of the list: matches the code of the order's external platform
 *   (`order.externalPlatform.code`), case-insensitively; an empty value is no filter.
 * - `status` filter: an empty value is no filter; a value outside distributed/pending/canceled
 *   matches no bonus (the list is empty), as a plain equality filter does.
 * - Asset summary: one entry per asset the user has bonuses in (ordered by symbol); with `{asset}`,
 *   only that symbol, so an asset without bonuses (or unknown) answers `{ data: [] }`.
 *   `orders` is the number of distinct orders behind the asset's bonuses; `amount` of each status is
 *   the sum of its bonus amounts, rounded to the asset's precision (at most 12 digits, as a double
 *   carries no more), as a JSON number (section 1.5).
 * - User preferences that no endpoint of the interface sets (`theme`, `layout`, `meta.source`) take
 *   the platform defaults below; self-deletion is not part of the interface, so it is always unset.
 */

const STATUSES = ['distributed', 'pending', 'canceled'] as const;
type BonusStatus = (typeof STATUSES)[number];

/** A second platform, so that orders (and the `platform` filter) span more than one. */
export const PARTNER_PLATFORM = { id: '00000000-0000-4000-8000-0000000000b1', code: 'PTN', name: 'Partner Widget Network', url: 'https://partner.widget.test', color_code: '#d9480f' };

const USER_DEFAULTS = { theme: 'light', layout: 'classic', source: 'web' } as const;

const ASSETS: { symbol: string; name: string; alias: string | null; type: 'coin' | 'fiat'; precision: string; price: [number, number] }[] = [
  { symbol: 'BTC', name: 'Bitcoin', alias: null, type: 'coin', precision: '8', price: [40_000, 70_000] },
  { symbol: 'ETH', name: 'Ethereum', alias: null, type: 'coin', precision: '18', price: [1_800, 4_000] },
  { symbol: 'USDT', name: 'Tether', alias: 'USDT-ERC20', type: 'coin', precision: '6', price: [0.98, 1.02] },
  { symbol: 'EUR', name: 'Euro', alias: '€', type: 'fiat', precision: '2', price: [1, 1] },
  { symbol: 'USD', name: 'US Dollar', alias: '$', type: 'fiat', precision: '2', price: [1, 1] },
];
const BONUS_COINS = ASSETS.filter((a) => a.type === 'coin');
const FIATS = ASSETS.filter((a) => a.type === 'fiat');

const DDL = `
CREATE TABLE IF NOT EXISTS bonus_assets (
  symbol TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  alias TEXT,
  type TEXT NOT NULL,
  precision TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bonus_orders (
  id TEXT PRIMARY KEY,
  public_id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  platform_id TEXT NOT NULL REFERENCES platforms(id),
  status TEXT NOT NULL,
  status_reason TEXT,
  type TEXT NOT NULL,
  type_operation TEXT NOT NULL,
  type_operation_name TEXT NOT NULL,
  from_symbol TEXT NOT NULL REFERENCES bonus_assets(symbol),
  to_symbol TEXT NOT NULL REFERENCES bonus_assets(symbol),
  from_amount TEXT NOT NULL,
  to_amount TEXT NOT NULL,
  rate TEXT NOT NULL,
  tx_id TEXT,
  wallet TEXT,
  wallet_address TEXT,
  parent_order_id TEXT REFERENCES bonus_orders(id),
  child_order_id TEXT REFERENCES bonus_orders(id),
  payment_method TEXT NOT NULL,
  payment_id TEXT NOT NULL,
  payment_url TEXT,
  payment_currency TEXT NOT NULL,
  payment_amount TEXT,
  payment_life_seconds INTEGER NOT NULL,
  payment_fee_percent TEXT NOT NULL,
  payment_fee_amount TEXT NOT NULL,
  payment_fee_on_top INTEGER NOT NULL,
  payment_show_fee INTEGER NOT NULL,
  payment_proof_uploaded INTEGER,
  commission_percent TEXT NOT NULL,
  commission_amount TEXT NOT NULL,
  mode_type TEXT NOT NULL,
  quote_id TEXT NOT NULL,
  quote_public_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS bonuses (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  order_id TEXT NOT NULL REFERENCES bonus_orders(id),
  asset_symbol TEXT NOT NULL REFERENCES bonus_assets(symbol),
  amount TEXT NOT NULL,
  type TEXT NOT NULL,
  value TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('distributed', 'pending', 'canceled')),
  bonused_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS bonuses_user ON bonuses (user_id, bonused_at);
INSERT OR IGNORE INTO platforms (id, code, name, url, color_code) VALUES
  ('${PARTNER_PLATFORM.id}', '${PARTNER_PLATFORM.code}', '${PARTNER_PLATFORM.name}', '${PARTNER_PLATFORM.url}', '${PARTNER_PLATFORM.color_code}');
INSERT OR IGNORE INTO bonus_assets (symbol, name, alias, type, precision) VALUES
${ASSETS.map((a) => `  ('${a.symbol}', '${a.name}', ${a.alias === null ? 'NULL' : `'${a.alias}'`}, '${a.type}', '${a.precision}')`).join(',\n')};
`;

interface AssetRow {
  symbol: string;
  name: string;
  alias: string | null;
  type: string;
  precision: string;
}

interface OrderRow {
  id: string;
  public_id: string;
  user_id: string;
  platform_id: string;
  status: string;
  status_reason: string | null;
  type: string;
  type_operation: string;
  type_operation_name: string;
  from_symbol: string;
  to_symbol: string;
  from_amount: string;
  to_amount: string;
  rate: string;
  tx_id: string | null;
  wallet: string | null;
  wallet_address: string | null;
  parent_order_id: string | null;
  child_order_id: string | null;
  payment_method: string;
  payment_id: string;
  payment_url: string | null;
  payment_currency: string;
  payment_amount: string | null;
  payment_life_seconds: number;
  payment_fee_percent: string;
  payment_fee_amount: string;
  payment_fee_on_top: number;
  payment_show_fee: number;
  payment_proof_uploaded: number | null;
  commission_percent: string;
  commission_amount: string;
  mode_type: string;
  quote_id: string;
  quote_public_id: string;
  created_at: number;
}

interface BonusRow {
  id: string;
  user_id: string;
  order_id: string;
  asset_symbol: string;
  amount: string;
  type: string;
  value: string;
  status: BonusStatus;
  bonused_at: number;
  created_at: number;
}

interface PlatformRow {
  id: string;
  code: string;
  name: string;
  url: string;
  color_code: string;
}

/** Section 2.6: the e-mail partially replaced with asterisks: `john.doe@example.test` → `jo***@ex***.test`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at >= 0 ? email.slice(0, at) : email;
  const domain = at >= 0 ? email.slice(at + 1) : '';
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  const keep = (part: string) => part.slice(0, Math.min(2, Math.max(1, part.length - 1)));
  return `${keep(local)}***@${keep(host)}***${tld}`;
}

/** Section 2.6: the anti-phishing code masked: its first two characters, the rest asterisks. */
export function maskSecret(value: string): string {
  if (value === '') return value;
  const keep = value.slice(0, Math.min(2, value.length - 1));
  return `${keep}${'*'.repeat(Math.max(3, value.length - keep.length))}`;
}

/** Decimal string of `value` with at most `digits` fractional digits, without trailing zeros (section 1.5). */
function decimal(value: number, digits: number): string {
  const fixed = value.toFixed(Math.min(digits, 12));
  const trimmed = fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
  return trimmed === '' || Number(trimmed) === 0 ? '0' : trimmed;
}

function assetSummary(asset: AssetRow) {
  // Section 2.3: precision is a numeric string.
  return { name: asset.name, symbol: asset.symbol, alias: asset.alias, type: asset.type, precision: String(asset.precision) };
}

function publicId(): string {
  return `ORD-${faker.string.alphanumeric({ length: 10, casing: 'upper' })}`;
}

export const bonuses: ReferenceModule = {
  name: 'bonuses',
  ddl: DDL,
  deviations: [
    // Reading round r8.
    'r8.bonus-summary-every-asset',
    // White-box round wb6.
    'wb6.bonuses-list-owner-from-query',
    'wb6.bonuses-show-account-platform-only',
    // White-box round wb7.
    'wb7.bonuses-status-filter-account-platform-only',
    // White-box round wb2.
    'wb2.bonuses-list-anti-phishing-unmasked',
    'wb2.bonuses-show-email-unmasked',
    'wb2.bonuses-summary-asset-entry-twice',
    'wb2.bonuses-show-carries-other-session-token',
    'wb2.bonuses-list-account-platform-only',
    // Issue 27.
    'bonuses.summary-asset-foreign-user-allowed',
    // White-box round wb1.
    'wb1.bonuses-summary-asset-inactive-allowed',
    // White-box round wb3.
    'wb3.bonuses-pending-filter-holds-canceled',
    'wb1.bonuses-summary-asset-amount-over-all',
    'bonuses.show-status-stale',
    'bonuses.filters-combined-or',
    // Allowed reading (a mutant that must survive): a status outside distributed, pending and canceled is refused with 422.
    'bonuses.unknown-status-422',
    // Allowed reading: platform compared with the platform ID (4.1's `{platform}`); a code is then unknown (422).
    'bonuses.platform-filter-by-id',
    // Allowed reading: platform compared with the platform's name.
    'bonuses.platform-filter-by-name',
    // Issue 19: the platform filter.
    'bonuses.platform-filter-ignored',
    'bonuses.platform-filter-lists-nothing',
    'bonuses.platform-filter-by-account-platform',
    'bonuses.platform-filter-unscoped',
    'bonuses.status-filter-ignored',
    'bonuses.other-users-listed',
    'bonuses.inactive-allowed',
    'bonuses.foreign-user-allowed',
    'bonuses.email-unmasked',
    'bonuses.anti-phishing-unmasked',
    'bonuses.show-ignores-owner',
    'bonuses.summary-asset-filter-ignored',
    // Issue 19.
    'bonuses.anti-phishing-behind-asterisks',
    'bonuses.filter-unscoped',
    // Allowed reading of reading round 1: a filter given empty is refused (422, Laravel's `filled`).
    'bonuses.empty-filter-422',
    'records.foreign-unauthorized',
    // Allowed readings of reading round 5.
    'r5.status-filters-any-case',
    'r5.bonus-summary-asset-any-case',
    // Allowed reading (round wb11): a provider-state hook written before the param sharedOrder of state bonuses ignores it.
    'contract.hook-ignores-shared-order',
  ],

  register(app, ctx) {
    const assets = new Map<string, AssetRow>();
    const assetOf = (symbol: string): AssetRow => {
      let asset = assets.get(symbol);
      if (!asset) {
        asset = ctx.db.prepare('SELECT * FROM bonus_assets WHERE symbol = ?').get(symbol) as AssetRow | undefined;
        if (!asset) throw new Error(`bonus asset ${symbol} missing from bonus_assets`);
        assets.set(symbol, asset);
      }
      return asset;
    };
    const platformOf = (id: string) => ctx.db.prepare('SELECT id, code, name, url, color_code FROM platforms WHERE id = ?').get(id) as PlatformRow;
    const orderOf = (id: string | null) => (id ? (ctx.db.prepare('SELECT * FROM bonus_orders WHERE id = ?').get(id) as OrderRow | undefined) : undefined);
    const userOf = (id: string) => ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow;

    // Section 2.6.
    const serializeUser = (user: UserRow) => {
      const twoFactor = Boolean(user.totp_secret);
      return {
        id: user.id,
        isActive: Boolean(user.is_active),
        status: user.is_active ? 'active' : 'inactive',
        tradeStatus: Boolean(user.is_active) && !user.locked,
        email: ctx.deviates('bonuses.email-unmasked') ? user.email : maskEmail(user.email),
        options: {
          language: user.language,
          theme: USER_DEFAULTS.theme,
          layout: USER_DEFAULTS.layout,
          guard: {
            antiPhishing: ctx.deviates('bonuses.anti-phishing-unmasked') ? user.anti_phishing : ctx.deviates('bonuses.anti-phishing-behind-asterisks') ? `***${user.anti_phishing}` : maskSecret(user.anti_phishing),
            actions: {
              login: { '2fa': twoFactor, password: true },
              operations: { '2fa': twoFactor, password: true },
            },
          },
        },
        meta: { source: USER_DEFAULTS.source },
        selfDeleted: { status: null, dates: { initiated: null, confirmed: null, deleted: null } },
        createdAt: user.created_at,
        deletedAt: null,
      };
    };

    const relatedOrder = (id: string | null) => {
      const related = orderOf(id);
      return { id: related?.id ?? null, publicId: related?.public_id ?? null };
    };

    // Section 2.7.
    const serializeOrder = (order: OrderRow) => {
      const platform = platformOf(order.platform_id);
      return {
        id: order.id,
        publicId: order.public_id,
        status: order.status,
        statusReason: order.status_reason,
        type: order.type,
        typeOperation: order.type_operation,
        typeOperationName: order.type_operation_name,
        fromSymbol: order.from_symbol,
        toSymbol: order.to_symbol,
        fromAmount: order.from_amount,
        toAmount: order.to_amount,
        rate: order.rate,
        fromAsset: assetSummary(assetOf(order.from_symbol)),
        toAsset: assetSummary(assetOf(order.to_symbol)),
        txId: order.tx_id,
        wallet: order.wallet,
        walletAddress: order.wallet_address,
        parentOrder: relatedOrder(order.parent_order_id),
        childOrder: relatedOrder(order.child_order_id),
        payment: {
          method: order.payment_method,
          id: order.payment_id,
          meta: {},
          url: order.payment_url,
          currency: order.payment_currency,
          amount: order.payment_amount,
          lifeSeconds: order.payment_life_seconds,
          lifeUntilAt: order.created_at + order.payment_life_seconds,
          feePercent: order.payment_fee_percent,
          feeAmount: order.payment_fee_amount,
          feeOnTop: Boolean(order.payment_fee_on_top),
          showFee: Boolean(order.payment_show_fee),
          proofUploaded: order.payment_proof_uploaded === null ? null : Boolean(order.payment_proof_uploaded),
        },
        commissions: { percent: order.commission_percent, amount: order.commission_amount },
        mode: { type: order.mode_type, status: null, amount: null, rate: null, total: null, commission: null, additional: null, observation: null, expireAt: null, url: null },
        meta: { main: [] },
        updates: { wallet: { status: null, address: null, url: null } },
        quote: { id: order.quote_id, publicId: order.quote_public_id },
        transfer: null,
        externalPlatform: {
          id: platform.id,
          code: platform.code,
          name: platform.name,
          color_code: platform.color_code,
          urls: { website: platform.url, widget: `${platform.url}/widget` },
        },
        createdAt: order.created_at,
      };
    };

    // Section 2.5a.
    const serializeBonus = (bonus: BonusRow) => ({
      id: bonus.id,
      amount: bonus.amount,
      type: bonus.type,
      value: bonus.value,
      status: bonus.status,
      user: serializeUser(userOf(bonus.user_id)),
      asset: assetSummary(assetOf(bonus.asset_symbol)),
      order: serializeOrder(orderOf(bonus.order_id)!),
      bonusedAt: bonus.bonused_at,
      createdAt: bonus.created_at,
    });

    // Section 5.6: list and show answer 409 for another user's id; the summary documents only 401 and
    // 403 (section 4.11), so it answers 403 there. Inactive accounts get 403 on all three.
    const guard = (unauthorizedStatus: 403 | 409) => {
      const checked = ctx.guards.ownUser({ unauthorizedStatus, activeOnly: !ctx.deviates('bonuses.inactive-allowed') });
      // Deviation of a mutant only: the summary with its {asset} segment skips the ownership check.
      // White-box round wb1, deviation of a mutant only: the summary with its {asset} segment checks ownership but not the inactive account.
      const ownOnly = ctx.guards.ownUser({ unauthorizedStatus, activeOnly: false });
      const own = ctx.deviates('bonuses.summary-asset-foreign-user-allowed')
        ? async (request: FastifyRequest, reply: FastifyReply) => ((request.params as { asset?: string }).asset ? undefined : checked(request, reply))
        : ctx.deviates('wb1.bonuses-summary-asset-inactive-allowed') && unauthorizedStatus === 403
          ? async (request: FastifyRequest, reply: FastifyReply) => ((request.params as { asset?: string }).asset ? ownOnly(request, reply) : checked(request, reply))
          : checked;
      if (!ctx.deviates('bonuses.foreign-user-allowed')) return [ctx.guards.authenticated, own];
      // Mutant seam: the ownership check is skipped, only the inactive-account check remains.
      return [
        ctx.guards.authenticated,
        async (request: FastifyRequest) => {
          if (!(request as AuthenticatedRequest).user.is_active) fail(ERRORS.accountInactive());
        },
      ];
    };

    const text = (value: unknown): string | undefined => {
      const first = Array.isArray(value) ? value[0] : value;
      return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
    };

    // Section 4.11, list: query `status` and `platform` (both optional).
    app.get('/api/v1/user/:user/bonus', { preHandler: guard(409) }, async (request) => {
      const { user } = request.params as { user: string };
      const query = request.query as Record<string, unknown>;
      if (ctx.deviates('bonuses.empty-filter-422')) {
        for (const name of ['status', 'platform']) if (query[name] === '') fail(ERRORS.validation({ [name]: [`The ${name} field must have a value.`] }));
      }
      const where: string[] = [];
      const params: unknown[] = [];
      // Deviation of a mutant only (bonuses.filter-unscoped): a filtered list forgets the user.
      const filtered = text(query.status) !== undefined || text(query.platform) !== undefined;
      // Deviation of a mutant only (bonuses.platform-filter-unscoped): a list filtered by platform forgets the user.
      const platformUnscoped = text(query.platform) !== undefined && ctx.deviates('bonuses.platform-filter-unscoped');
      if (!ctx.deviates('bonuses.other-users-listed') && !(filtered && ctx.deviates('bonuses.filter-unscoped')) && !platformUnscoped) {
        where.push('b.user_id = ?');
        // White-box round wb6, deviation of a mutant only: the owner taken from a user_id query parameter when one is given.
        params.push(ctx.deviates('wb6.bonuses-list-owner-from-query') && text(query.user_id) !== undefined ? text(query.user_id) : user);
      }
      const scopedBy = where.length;
      const status = text(query.status);
      if (status !== undefined && ctx.deviates('bonuses.unknown-status-422') && !['distributed', 'pending', 'canceled'].includes(status)) {
        fail(ERRORS.validation({ status: ['The selected status is invalid.'] }));
      }
      if (status !== undefined && !ctx.deviates('bonuses.status-filter-ignored')) {
        // White-box round wb3, deviation of a mutant only: the pending filter also lists the canceled bonuses (not yet distributed).
        where.push(status === 'pending' && ctx.deviates('wb3.bonuses-pending-filter-holds-canceled') ? "b.status IN (?, 'canceled')" : ctx.deviates('r5.status-filters-any-case') ? 'b.status = ? COLLATE NOCASE' : 'b.status = ?');
        params.push(status);
        // White-box round wb7, deviation of a mutant only: the status filter's query keeps the bonuses whose order is on the account's own platform only.
        if (ctx.deviates('wb7.bonuses-status-filter-account-platform-only')) where.push('EXISTS (SELECT 1 FROM bonus_orders o JOIN users u ON u.id = b.user_id WHERE o.id = b.order_id AND o.platform_id = u.platform_id)');
      }
      const platform = text(query.platform);
      // Deviations of mutants only: the filter ignored, or compared with the caller's own platform, not the order's.
      if (platform !== undefined && ctx.deviates('bonuses.platform-filter-ignored')) {
        // no condition
      } else if (platform !== undefined && ctx.deviates('bonuses.platform-filter-lists-nothing')) {
        where.push('0 = 1');
      } else if (platform !== undefined && ctx.deviates('bonuses.platform-filter-by-account-platform')) {
        where.push('(SELECT code FROM platforms WHERE id = ?) = ? COLLATE NOCASE');
        params.push((request as AuthenticatedRequest).user.platform_id, platform);
      } else if (platform !== undefined) {
        // The platform of a bonus is the external platform of the order that earned it, by code.
        if (ctx.deviates('bonuses.platform-filter-by-id')) {
          if (ctx.db.prepare('SELECT 1 FROM platforms WHERE id = ?').get(platform) === undefined) fail(ERRORS.validation({ platform: ['The selected platform is invalid.'] }));
          where.push('p.id = ?');
        } else where.push(ctx.deviates('bonuses.platform-filter-by-name') ? 'p.name = ?' : 'p.code = ? COLLATE NOCASE');
        params.push(platform);
      }
      // White-box round wb2, deviation of a mutant only: without a platform filter, only the bonuses of orders on the account's own platform are listed.
      if (text(query.platform) === undefined && ctx.deviates('wb2.bonuses-list-account-platform-only')) {
        where.push('o.platform_id = (SELECT platform_id FROM users WHERE id = ?)');
        params.push(user);
      }
      // Deviation of a mutant only: the status and platform filters together are joined with OR, not AND.
      if (ctx.deviates('bonuses.filters-combined-or') && where.length - scopedBy > 1) where.push(`(${where.splice(scopedBy).join(' OR ')})`);
      const rows = ctx.db
        .prepare(
          `SELECT b.* FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id JOIN platforms p ON p.id = o.platform_id
           ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY b.bonused_at DESC, b.created_at DESC, b.id`,
        )
        .all(...params) as BonusRow[];
      // White-box round wb2, deviation of a mutant only: the list (not show) writes the anti-phishing code unmasked.
      if (ctx.deviates('wb2.bonuses-list-anti-phishing-unmasked')) {
        return { data: rows.map((row) => { const out = serializeBonus(row) as any; out.user.options.guard.antiPhishing = userOf(row.user_id).anti_phishing; return out; }) };
      }
      return { data: rows.map(serializeBonus) };
    });

    // Section 4.11, asset summary (2.5b): `{asset}` is an optional path segment. Registered with
    // fastify's optional-parameter syntax, which serves both `/bonus/assets` and `/bonus/assets/:asset`.
    app.get('/api/v1/user/:user/bonus/assets/:asset?', { preHandler: guard(403) }, async (request) => {
      const { user, asset } = request.params as { user: string; asset?: string };
      const asked = asset && asset !== '' && !ctx.deviates('bonuses.summary-asset-filter-ignored') ? asset : undefined;
      // White-box round wb1, deviation of a mutant only: with {asset}, the counts and amounts are those of every asset of the user.
      const overAll = asked !== undefined && ctx.deviates('wb1.bonuses-summary-asset-amount-over-all');
      const symbol = overAll ? undefined : asked;
      const sum = (status: BonusStatus) =>
        `SUM(b.status = '${status}') AS ${status}_bonuses, ROUND(TOTAL(CASE WHEN b.status = '${status}' THEN CAST(b.amount AS REAL) END), MIN(CAST(a.precision AS INTEGER), 12)) AS ${status}_amount`;
      const rows = ctx.db
        .prepare(
          `SELECT a.symbol, a.name, a.alias, a.type, a.precision, COUNT(DISTINCT b.order_id) AS orders, ${STATUSES.map(sum).join(', ')}
           FROM bonuses b JOIN bonus_assets a ON a.symbol = b.asset_symbol
           WHERE b.user_id = ? ${symbol !== undefined ? (ctx.deviates('r5.bonus-summary-asset-any-case') ? 'AND b.asset_symbol = ? COLLATE NOCASE' : 'AND b.asset_symbol = ?') : ''}
           GROUP BY a.symbol ORDER BY a.symbol`,
        )
        .all(...(symbol !== undefined ? [user, symbol] : [user])) as (AssetRow & Record<string, number>)[];
      if (overAll) {
        const mine = rows.find((row) => row.symbol === asked);
        if (!mine) return { data: [] };
        const total = (key: string) => rows.reduce((sum, row) => sum + (Number(row[key]) || 0), 0);
        const merged = { ...mine, orders: total('orders'), ...Object.fromEntries(STATUSES.flatMap((status) => [[`${status}_bonuses`, total(`${status}_bonuses`)], [`${status}_amount`, total(`${status}_amount`)]])) } as unknown as AssetRow & Record<string, number>;
        rows.splice(0, rows.length, merged);
      }
      // Allowed reading (reading round 8): without {asset}, the summary lists every asset bonuses are paid in, those without the user's bonuses as zeros.
      if (asked === undefined && ctx.deviates('r8.bonus-summary-every-asset')) {
        const listed = new Set(rows.map((row) => row.symbol));
        const others = ctx.db.prepare('SELECT symbol, name, alias, type, precision FROM bonus_assets ORDER BY symbol').all() as AssetRow[];
        for (const other of others) if (!listed.has(other.symbol)) rows.push({ ...other, orders: 0, ...Object.fromEntries(STATUSES.flatMap((status) => [[`${status}_bonuses`, 0], [`${status}_amount`, 0]])) } as unknown as AssetRow & Record<string, number>);
      }
      // White-box round wb2, deviation of a mutant only: with {asset}, the entry is answered twice (a join over the asset's orders).
      if (asked !== undefined && ctx.deviates('wb2.bonuses-summary-asset-entry-twice') && rows.length > 0) rows.push(rows[0]!);
      return {
        data: rows.map((row) => ({
          asset: assetSummary(row),
          orders: row.orders,
          ...Object.fromEntries(STATUSES.map((status) => [status, { bonuses: row[`${status}_bonuses`] ?? 0, amount: row[`${status}_amount`] ?? 0 }])),
        })),
      };
    });

    // Section 4.11, show; 404 (section 7) when the bonus does not exist or is not the path user's.
    app.get('/api/v1/user/:user/bonus/:bonus', { preHandler: guard(409) }, async (request) => {
      const { user, bonus } = request.params as { user: string; bonus: string };
      const row = (
        ctx.deviates('bonuses.show-ignores-owner')
          ? ctx.db.prepare('SELECT * FROM bonuses WHERE id = ?').get(bonus)
          : ctx.db.prepare('SELECT * FROM bonuses WHERE id = ? AND user_id = ?').get(bonus, user)
      ) as BonusRow | undefined;
      // Allowed reading (reading round 1): another user's bonus under one's own path is another user's resource (5.6: 409).
      if (!row && ctx.deviates('records.foreign-unauthorized') && ctx.db.prepare('SELECT 1 FROM bonuses WHERE id = ?').get(bonus)) fail(ERRORS.unauthorized(409));
      if (!row) fail(ERRORS.notFound('Bonus', bonus));
      // White-box round wb6, deviation of a mutant only: show scoped to the account's own platform (a bonus whose order is on another platform is not found).
      if (ctx.deviates('wb6.bonuses-show-account-platform-only') && !ctx.db.prepare('SELECT 1 FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id JOIN users u ON u.id = b.user_id WHERE b.id = ? AND o.platform_id = u.platform_id').get(bonus)) fail(ERRORS.notFound('Bonus', bonus));
      // Deviation of a mutant only: show answers a stale status, the one the bonus was created with (pending), not the list's.
      if (ctx.deviates('bonuses.show-status-stale')) return { data: { ...serializeBonus(row), status: 'pending' } };
      // White-box round wb2, deviations of mutants only: show writes the e-mail unmasked; show carries another user's latest access token.
      if (ctx.deviates('wb2.bonuses-show-email-unmasked')) { const out = serializeBonus(row) as any; out.user.email = userOf(row.user_id).email; return { data: out }; }
      if (ctx.deviates('wb2.bonuses-show-carries-other-session-token')) return { data: { ...serializeBonus(row), reference: Buffer.from(latestTokenOfAnotherUser(ctx.db, row.user_id) ?? '').toString('base64') } };
      return { data: serializeBonus(row) };
    });
  },

  states(ctx) {
    const insertOrder = ctx.db.prepare(
      `INSERT INTO bonus_orders (id, public_id, user_id, platform_id, status, status_reason, type, type_operation, type_operation_name,
         from_symbol, to_symbol, from_amount, to_amount, rate, tx_id, wallet, wallet_address, parent_order_id, child_order_id,
         payment_method, payment_id, payment_url, payment_currency, payment_amount, payment_life_seconds, payment_fee_percent,
         payment_fee_amount, payment_fee_on_top, payment_show_fee, payment_proof_uploaded, commission_percent, commission_amount,
         mode_type, quote_id, quote_public_id, created_at)
       VALUES (@id, @public_id, @user_id, @platform_id, @status, @status_reason, @type, @type_operation, @type_operation_name,
         @from_symbol, @to_symbol, @from_amount, @to_amount, @rate, @tx_id, @wallet, @wallet_address, @parent_order_id, @child_order_id,
         @payment_method, @payment_id, @payment_url, @payment_currency, @payment_amount, @payment_life_seconds, @payment_fee_percent,
         @payment_fee_amount, @payment_fee_on_top, @payment_show_fee, @payment_proof_uploaded, @commission_percent, @commission_amount,
         @mode_type, @quote_id, @quote_public_id, @created_at)`,
    );
    const insertBonus = ctx.db.prepare(
      `INSERT INTO bonuses (id, user_id, order_id, asset_symbol, amount, type, value, status, bonused_at, created_at)
       VALUES (@id, @user_id, @order_id, @asset_symbol, @amount, @type, @value, @status, @bonused_at, @created_at)`,
    );

    /** An order that bought `coin` with fiat; its status follows the bonus it earned. */
    const createOrder = (userId: string, platformId: string, coin: (typeof BONUS_COINS)[number], status: BonusStatus, createdAt: number): OrderRow => {
      const fiat = faker.helpers.arrayElement(FIATS);
      const fromAmount = faker.number.int({ min: 50, max: 2_000 });
      const rate = faker.number.float({ min: coin.price[0], max: coin.price[1], fractionDigits: 2 });
      const digits = Number(coin.precision);
      const feePercent = faker.helpers.arrayElement([1, 1.5, 2, 2.5]);
      const order: OrderRow = {
        id: randomUUID(),
        public_id: publicId(),
        user_id: userId,
        platform_id: platformId,
        status: { distributed: 'COMPLETED', pending: 'PENDING', canceled: 'REJECTED' }[status],
        status_reason: status === 'canceled' ? faker.helpers.arrayElement(['Payment not received in time', 'Payment refused by the bank']) : null,
        type: 'coin',
        type_operation: 'in',
        type_operation_name: 'buy_with_fiat',
        from_symbol: fiat.symbol,
        to_symbol: coin.symbol,
        from_amount: decimal(fromAmount, 2),
        to_amount: decimal(fromAmount / rate, digits),
        rate: decimal(rate, 2),
        tx_id: status === 'distributed' ? faker.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' }) : null,
        wallet: null,
        wallet_address: null,
        parent_order_id: null,
        child_order_id: null,
        payment_method: 'bank',
        payment_id: randomUUID(),
        payment_url: null,
        payment_currency: fiat.symbol,
        payment_amount: status === 'canceled' ? null : decimal(fromAmount, 2),
        payment_life_seconds: 3_600,
        payment_fee_percent: String(feePercent),
        payment_fee_amount: decimal((fromAmount * feePercent) / 100, 2),
        payment_fee_on_top: 0,
        payment_show_fee: 1,
        payment_proof_uploaded: status === 'canceled' ? null : 1,
        commission_percent: decimal(feePercent, 2),
        commission_amount: decimal((fromAmount * feePercent) / 100, 2),
        mode_type: 'normal',
        quote_id: randomUUID(),
        quote_public_id: `QUO-${faker.string.alphanumeric({ length: 10, casing: 'upper' })}`,
        created_at: createdAt,
      };
      insertOrder.run(order);
      return order;
    };

    /** A bonus of `coin` earned by `order`, in `status`; its id. */
    const grant = (userId: string, order: OrderRow, coin: (typeof BONUS_COINS)[number], status: BonusStatus): string => {
      // A fixed-amount bonus worth 0.50 to 25.00 in fiat: `value` is the configured amount, `amount` the one granted.
      const amount = decimal(faker.number.float({ min: 0.5, max: 25, fractionDigits: 2 }) / coin.price[0], Math.min(8, Number(coin.precision)));
      const id = randomUUID();
      insertBonus.run({
        id,
        user_id: userId,
        order_id: order.id,
        asset_symbol: coin.symbol,
        amount,
        type: 'amount',
        value: amount,
        status,
        bonused_at: order.created_at + faker.number.int({ min: 60, max: 3_000 }),
        created_at: order.created_at + 30,
      });
      return id;
    };

    /**
     * `sharedOrder` (a param and field of the state added for issue 27): with it, one more bonus of the first order, in
     * the status and asset of the first bonus, and the ids of both, so that a list keeping one bonus per order shows.
     */
    const createBonuses = ctx.db.transaction((userId: string, sharedOrder = false) => {
      const owner = ctx.db.prepare('SELECT id, platform_id FROM users WHERE id = ?').get(userId) as { id: string; platform_id: string } | undefined;
      if (!owner) throw new StateNotAllowed(`state bonuses: no user ${userId}`);
      // At least one bonus in each status, over at least two assets; one order earns two bonuses.
      // Round wb14: one of the two assets always has an alias (USDT), so the summary's alias is compared on every call;
      // the other is drawn from the rest, and their order too.
      const aliased = faker.helpers.arrayElement(BONUS_COINS.filter((c) => c.alias !== null));
      const [first, second] = faker.helpers.shuffle([aliased, faker.helpers.arrayElement(BONUS_COINS.filter((c) => c !== aliased))]) as [(typeof BONUS_COINS)[number], (typeof BONUS_COINS)[number]];
      const plan: { coin: (typeof BONUS_COINS)[number]; status: BonusStatus }[] = [
        { coin: first, status: 'distributed' },
        { coin: first, status: 'pending' },
        { coin: second, status: 'canceled' },
        { coin: second, status: 'distributed' },
        { coin: faker.helpers.arrayElement([first, second]), status: faker.helpers.arrayElement(STATUSES) },
      ];
      const now = Math.floor(ctx.now() / 1000);
      const ids: string[] = [];
      const orders: OrderRow[] = [];
      let previous: OrderRow | undefined;
      plan.forEach((entry, index) => {
        const createdAt = now - faker.number.int({ min: 3_600, max: 90 * 86_400 });
        const platformId = index === 3 ? PARTNER_PLATFORM.id : owner.platform_id;
        // The last bonus shares the order of the one before it when both are of the same asset.
        const order =
          index === plan.length - 1 && previous && previous.to_symbol === entry.coin.symbol
            ? previous
            : createOrder(userId, platformId, entry.coin, entry.status, createdAt);
        ids.push(grant(userId, order, entry.coin, entry.status));
        orders.push(order);
        previous = order;
      });
      // With sharedOrder, the first order earns a second bonus, of the first one's asset and status.
      const shared = sharedOrder ? [ids[0]!, grant(userId, orders[0]!, plan[0]!.coin, plan[0]!.status)] : undefined;
      if (shared) ids.push(shared[1]!);
      // `antiPhishing`: the optional, additive field of the state with which the suite checks that the
      // code is never answered in clear (section 2.6).
      const antiPhishing = (ctx.db.prepare('SELECT anti_phishing FROM users WHERE id = ?').get(userId) as { anti_phishing: string }).anti_phishing;
      return { ids, assets: [first.symbol, second.symbol], antiPhishing, ...(shared ? { sharedOrder: shared } : {}) };
    });

    return {
      bonuses: (params) => {
        if (typeof params.userId !== 'string') throw new StateNotAllowed('state bonuses needs params.userId');
        return createBonuses(params.userId, params.sharedOrder === true && !ctx.deviates('contract.hook-ignores-shared-order'));
      },
      // Provider state `bonuses.two-platforms` (issue 19): the bonuses of state `bonuses`, whose orders are on the
      // user's own platform and on the partner platform, answered per platform.
      'bonuses.two-platforms': (params) => {
        if (typeof params.userId !== 'string') throw new StateNotAllowed('state bonuses.two-platforms needs params.userId');
        const { ids } = createBonuses(params.userId);
        const rows = ids.map((id) => ctx.db.prepare('SELECT p.id, p.code FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id JOIN platforms p ON p.id = o.platform_id WHERE b.id = ?').get(id) as { id: string; code: string });
        const platforms: { id: string; code: string; ids: string[] }[] = [];
        rows.forEach((row, index) => {
          const entry = platforms.find((p) => p.id === row.id) ?? platforms[platforms.push({ id: row.id, code: row.code, ids: [] }) - 1]!;
          entry.ids.push(ids[index]!);
        });
        return { platforms };
      },
    };
  },
};
