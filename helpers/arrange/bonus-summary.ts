import type { CheckContext } from '../check/check.js';
import { idKey } from '../spec/normalisation.js';
import { BONUS_STATUSES } from './bonuses.js';

/** A bonus as the bonus list gives it, as far as a summary is compared with it (2.5a). */
export interface ListedBonus {
  id: string;
  status: string;
  asset: { symbol: string };
}

/** A bonus asset summary entry (2.5b): S = { bonuses: integer, amount: number } per status. */
export interface SummaryEntry {
  asset: { symbol: string };
  orders: number;
  distributed: { bonuses: number; amount: number };
  pending: { bonuses: number; amount: number };
  canceled: { bonuses: number; amount: number };
}

/** The listed bonuses of one asset and status: their count, summed amount, and ids with amounts (to tell a move). */
function tally(all: readonly ListedBonus[], symbol: string, status: string) {
  const of = all.filter((b) => b.asset?.symbol === symbol && String(b.status).toLowerCase() === status);
  const amountOf = (b: ListedBonus) => Number((b as unknown as { amount: string }).amount);
  return { bonuses: of.length, amount: of.reduce((sum, b) => sum + amountOf(b), 0), key: of.map((b) => `${idKey(b.id)} ${amountOf(b)}`).sort().join() };
}

/**
 * Sections 2.5b and 4.11 (issue 27, white-box round wb13): a summary entry's `distributed`, `pending` and `canceled` are
 * each the count and summed amount of the user's bonuses of that asset in that status, under every reading (an amount
 * written as 1.5 allows: a float's last bit, or rounded to the asset's precision, allowed-r11-bonus-summary-amount-at-
 * asset-precision: within one unit of its last place). A bonus may move between the reads (section 3): a status is
 * judged only where the bonus list read before the summary and the one read after it give it the same bonuses and
 * amounts, else advised on. Answers the problems found, one line each (empty: the entry agrees with the lists).
 */
export function summaryEntryProblems(t: CheckContext, where: string, entry: SummaryEntry, before: readonly ListedBonus[], after: readonly ListedBonus[]): string[] {
  const symbol = entry.asset.symbol;
  const places = Number((entry.asset as { precision?: unknown }).precision);
  const unit = Number.isInteger(places) && places >= 0 && places <= 30 ? 10 ** -places : 0;
  const problems: string[] = [];
  for (const status of BONUS_STATUSES) {
    const [was, is] = [tally(before, symbol, status), tally(after, symbol, status)];
    const figure = entry[status];
    if (was.key !== is.key) {
      t.advise(`${where}: the ${status} bonuses of ${symbol} changed between the bonus list read before the summary and the one read after it (section 3 leaves transitions open), so its ${status} figures are not judged`);
      continue;
    }
    if (figure?.bonuses !== was.bonuses) problems.push(`${where}: ${status}.bonuses of ${symbol} is ${JSON.stringify(figure?.bonuses)}, but the bonus list (read before and after it) gives ${was.bonuses} ${status} bonus(es) of ${symbol}`);
    const amount = Number(figure?.amount);
    if (!(Math.abs(amount - was.amount) <= Math.max(unit, 1e-9 * Math.max(1, Math.abs(was.amount))))) problems.push(`${where}: ${status}.amount of ${symbol} is ${JSON.stringify(figure?.amount)}, but the ${status} bonuses of ${symbol} the list gives (read before and after it) sum to ${was.amount}`);
  }
  return problems;
}

/** The failure line of summaryEntryProblems' findings. */
export const SUMMARY_AGREES_WITH_LIST = 'sections 2.5b and 4.11: a summary entry\u2019s distributed, pending and canceled are the count and summed amount of the user\u2019s bonuses of that asset in that status';
