import type { CheckContext } from './check.js';
import { userWithToken } from './flows.js';

/** Section 2.5a / 3: the bonus statuses. */
export const BONUS_STATUSES = ['distributed', 'pending', 'canceled'] as const;
export type BonusStatus = (typeof BONUS_STATUSES)[number];

/** A fresh active user with an access token and the provider state `bonuses` (one bonus or more per status, two assets or more). */
export async function userWithBonuses(t: CheckContext) {
  const { user, token } = await userWithToken(t);
  const bonuses = await t.state('bonuses', { userId: user.id });
  if (!Array.isArray(bonuses.ids) || bonuses.ids.length === 0) throw new Error('precondition: provider state bonuses must answer a non-empty ids array');
  if (!Array.isArray(bonuses.assets) || bonuses.assets.length === 0) throw new Error('precondition: provider state bonuses must answer a non-empty assets array');
  return { user, token, bonuses };
}

/** Section 2.6: the masking the specification describes for the e-mail: partially replaced with asterisks. */
export function isMasked(value: string): boolean {
  return value.includes('*');
}
