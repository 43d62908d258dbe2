import type { CheckContext } from '../check/check.js';
import { userWithToken } from './flows.js';
import { learnSecret } from '../net/secrets.js';

/** Section 2.5a / 3: the bonus statuses. */
export const BONUS_STATUSES = ['distributed', 'pending', 'canceled'] as const;
export type BonusStatus = (typeof BONUS_STATUSES)[number];

/**
 * A fresh active user with an access token and the provider state `bonuses` (one bonus or more per
 * status, two assets or more). A target may also report the user's anti-phishing code in the state's
 * optional `antiPhishing` field (an additive, backward-compatible extension of the contract): the suite
 * then checks that no bonus answers it in clear (section 2.6). It is registered as a secret (as written,
 * in lower case and in upper case), so it is redacted wherever a target's answer leaks it into the report;
 * like every registered secret, only from 6 characters (helpers/net/redact.ts).
 *
 * `sharedOrder` (issue 27: data that exposes a fault is arranged): asks the state for two bonuses, in one status, that one
 * order earned (the state's param and field `sharedOrder`, added later); a target that cannot arrange them answers none.
 */
export async function userWithBonuses(t: CheckContext, options: { sharedOrder?: true } = {}) {
  const { user, token } = await userWithToken(t, {}, { needs: ['bonuses'] });
  return { user, token, ...(await bonusesOfState(t, user.id, options)) };
}

/** The provider state `bonuses` for `userId` (the user's anti-phishing code, when reported, registered as a secret). */
export async function bonusesOfState(t: CheckContext, userId: string, options: { sharedOrder?: true } = {}) {
  const bonuses = await t.state('bonuses', { userId, ...(options.sharedOrder ? { sharedOrder: true } : {}) });
  if (!Array.isArray(bonuses.ids) || bonuses.ids.length === 0) throw new Error('precondition: provider state bonuses must answer a non-empty ids array');
  if (!Array.isArray(bonuses.assets) || bonuses.assets.length === 0) throw new Error('precondition: provider state bonuses must answer a non-empty assets array');
  const reported = (bonuses as { antiPhishing?: unknown }).antiPhishing;
  const antiPhishing = typeof reported === 'string' && reported !== '' ? reported : undefined;
  // checkAntiPhishing finds the code in any letter case, so a leak in another case is redacted as well.
  if (antiPhishing !== undefined) for (const form of new Set([antiPhishing, antiPhishing.toLowerCase(), antiPhishing.toUpperCase()])) learnSecret(form, 'own-code', { owner: userId });
  return { bonuses, antiPhishing };
}

/**
 * Section 2.6 (white-box round wb21, fix-wb21b): a mask hides characters of the user's own value, so what it leaves
 * visible (every character but the asterisks), read in order and in any letter case, is a subsequence of that value:
 * under every reading of the mask (a part kept at either end, a fixed length, the domain masked too, nothing shown).
 * False means the mask shows characters the value does not have in that order (another user's mask).
 */
export function visibleFromOwn(masked: string, clear: string): boolean {
  // In one normal form and letter case: a store may keep either (docs/judging.md "Storage normalisation"; review-af F3).
  const visible = masked.replace(/\*/g, '').normalize('NFC').toLowerCase();
  const own = clear.normalize('NFC').toLowerCase();
  let at = 0;
  for (const character of visible) {
    at = own.indexOf(character, at);
    if (at < 0) return false;
    at += character.length;
  }
  return true;
}

/**
 * Section 2.6: the e-mail is "partially replaced with asterisks": it holds at least one asterisk and
 * at least one character that is not an asterisk (a value of asterisks only is replaced wholly).
 */
export function isMasked(value: string): boolean {
  return value.includes('*') && /[^*]/.test(value);
}

/** The shortest local part whose mask is judged by replacesCharacters. */
const SHORTEST_LOCAL_PART_JUDGED = 6;

/**
 * Section 2.6: the e-mail is "partially replaced with asterisks", so a mask stands where characters of the address were:
 * with every asterisk taken out, it is no longer the whole address (in any letter case). Asterisks inserted beside every
 * character (`jo****hn.doe@example.com`, white-box round wb15) replace nothing. Not judged (true): an address that holds
 * an asterisk itself, and one whose local part is shorter than 6 characters, which a mask of a fixed length after its
 * first letters (`jo***@example.test`, allowed-r9-email-mask-fixed-length) may keep whole.
 */
export function replacesCharacters(masked: string, address: string): boolean {
  const at = address.lastIndexOf('@');
  if (address.includes('*') || (at < 0 ? address.length : at) < SHORTEST_LOCAL_PART_JUDGED) return true;
  return masked.replace(/\*/g, '').toLowerCase() !== address.toLowerCase();
}

/** Codes shorter than this may show up inside a mask by chance; only the equality check applies to them. */
const SHORTEST_CODE_FOUND_INSIDE = 4;

/**
 * Section 2.6: `antiPhishing` is "masked", how is not given (asterisks are specified only for the
 * e-mail). What the suite can tell, when the provider state reports the code: it must not be the code
 * in clear, nor hold the whole code (in any letter case) beside the mask. A value without any asterisk
 * is only advised on.
 */
export function checkAntiPhishing(t: CheckContext, code: unknown, clear: string | undefined, where: string): void {
  if (typeof code !== 'string') throw new Error(`${where}: options.guard.antiPhishing must be a string`);
  if (clear !== undefined && code === clear) throw new Error(`${where}: options.guard.antiPhishing must be masked, it is the user's anti-phishing code in clear`);
  if (clear !== undefined && clear.length >= SHORTEST_CODE_FOUND_INSIDE && code.toLowerCase().includes(clear.toLowerCase())) {
    throw new Error(`${where}: options.guard.antiPhishing must be masked, it holds the user's whole anti-phishing code`);
  }
  if (code === '') t.advise(`${where}: options.guard.antiPhishing is empty (nothing to mask)`);
  else if (!code.includes('*')) t.advise(`${where}: options.guard.antiPhishing holds no asterisk; section 2.6 says it is masked without saying how`);
}
