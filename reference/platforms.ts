import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en'; // only the locale used: the package root loads every locale (about 35 MB per thread)
import type { ReferenceContext } from './context.js';
import { StateNotAllowed } from './context.js';

/**
 * The platforms of the provider states `bank.two-platforms`, `card.two-platforms` and `bonuses.two-platforms`:
 * the user's own platform (where its records made through the interface go) and a second one.
 */

export interface StatePlatform {
  id: string;
  code: string;
}

/** The platform of an existing user; the state's 422 when there is no such user. */
export function userPlatform(ctx: ReferenceContext, userId: unknown, state: string): StatePlatform {
  const row = typeof userId === 'string' ? (ctx.db.prepare('SELECT p.id, p.code FROM users u JOIN platforms p ON p.id = u.platform_id WHERE u.id = ?').get(userId) as StatePlatform | undefined) : undefined;
  if (!row) throw new StateNotAllowed(`state ${state} needs params.userId of an existing user`);
  return row;
}

/** A new platform without a JWT key (records may name it; nobody logs in through it). */
export function newPlatform(ctx: ReferenceContext): StatePlatform {
  const { id, code, name } = platformIdentity(ctx, `${faker.company.name()} Platform`);
  ctx.db
    .prepare('INSERT INTO platforms (id, code, name, url, color_code, public_key) VALUES (?, ?, ?, ?, ?, NULL)')
    .run(id, code, name, `https://${code.toLowerCase()}.platform.test`, faker.color.rgb());
  return { id, code };
}

/**
 * The id and code of a new platform: a UUID and `P` with its first six hex digits; under the allowed readings of
 * round 9 an auto-increment number (`r9.platform-ids-numeric`), and a lower-case slug of its name (`r9.platform-codes-slugs`).
 */
export function platformIdentity(ctx: ReferenceContext, name: string): { id: string; code: string; name: string } {
  const uuid = randomUUID();
  const id = ctx.deviates('r9.platform-ids-numeric')
    ? String(((ctx.db.prepare("SELECT MAX(CAST(id AS INTEGER)) AS n FROM platforms WHERE id GLOB '[1-9]*' AND id NOT GLOB '*[^0-9]*'").get() as { n: number | null }).n ?? 1000) + 1)
    : uuid;
  const code = ctx.deviates('r9.platform-codes-slugs')
    ? `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${uuid.slice(0, 4)}`
    : `P${uuid.slice(0, 6).toUpperCase()}`;
  return { id, code, name };
}

/**
 * The optional `company` of the states `bank.two-platforms` and `card.two-platforms` (docs/provider-states.md, added
 * later): a value of the company filter in the reference's own meaning, naming `platform`, and the user's records (of
 * `table`, `banks` or `cards`) it selects: the platform's code, as the list compares it (the module comments), or its
 * name or ID under the readings that compare those (`r10.company-filter-by-platform-name`, `<table>.platform-filter-by-name`,
 * `<table>.platform-filter-by-id`). And `none` (added later, round wb23): the same form of a new platform, on which no
 * records are made, a value in the same meaning that selects none of the user's records.
 */
export function companyOfPlatform(ctx: ReferenceContext, table: 'banks' | 'cards', userId: string, platform: StatePlatform): { value: string; ids: string[]; none: string } {
  const valueOf = (of: StatePlatform): string => {
    const row = ctx.db.prepare('SELECT name FROM platforms WHERE id = ?').get(of.id) as { name: string };
    return ctx.deviates('r10.company-filter-by-platform-name') || ctx.deviates(`${table}.platform-filter-by-name`) ? row.name : ctx.deviates(`${table}.platform-filter-by-id`) ? of.id : of.code;
  };
  const live = table === 'banks' ? ' AND deleted_at IS NULL' : '';
  const ids = (ctx.db.prepare(`SELECT id FROM ${table} WHERE user_id = ? AND platform_id = ?${live} ORDER BY rowid`).all(userId, platform.id) as { id: string }[]).map((r) => r.id);
  return { value: valueOf(platform), ids, none: valueOf(newPlatform(ctx)) };
}
